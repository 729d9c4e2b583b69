/*
 * ipc_logging.h - IPC logging, as Qualcomm's msm kernels have it: drivers that pass heavy
 * traffic between processors (IPC routers, multiplexers, serial and PCI links) log their
 * events into a context of their own, a few pages of memory written in a circle, instead of
 * the kernel log. Logging is cheap and safe anywhere (interrupt handlers included); the
 * newest events always win, the oldest are dropped as the pages fill.
 *
 * Each context is a directory of the file tree, /sys/kernel/debug/ipc_logging/NAME/:
 *   log        the events not yet shown by log or log_cont, then returns. Reading moves
 *              the context's one read mark, as the debugfs file of Qualcomm's
 *              drivers/soc/qcom/ipc_logging.c does; the events stay in memory until
 *              the writer needs their room.
 *   log_cont   the same, then waits for new events until ^C (as `tail -f`); when the
 *              reader is a script or a redirection it returns once all is shown.
 *   stats      pages, and events written, dropped to make room, and refused as oversize.
 * One line per event: `[  4191.362072425/      0x12bec5ff43] [func] text`.
 *
 * A service of the kernel, not a tracer: IPC (kernel/ipc/ipc.c) and drivers log through it,
 * as through printk. Its implementation (the contexts, their files, the page format) lives
 * with its tools in trace/ipc_logging/, whose ipc_logging.h adds the page format's encoder
 * for ipc_log_write.
 *
 * The pages carry magic numbers and their context's offset (layout version 2, see
 * trace/ipc_logging/ipc_log_page.h), so tools/ipc_log_extract rebuilds every log from a
 * memory dump of a machine that hung or crashed.
 */
#ifndef KERNEL_LOG_IPC_LOGGING_H
#define KERNEL_LOG_IPC_LOGGING_H

#include <stddef.h>
#include <stdint.h>

struct ipc_log_encoder; /* trace/ipc_logging/ipc_log_page.h */
struct ipc_log_context;

/* The most pages a context may have (1 MiB). */
#define IPC_LOG_MAX_PAGES 256

/*
 * Returns the context named name, creating it with max_num_pages pages (1 to
 * IPC_LOG_MAX_PAGES) if there is none; user_version tells dump readers which message
 * formats the user wrote. NULL when the name is not a valid directory name of fewer than 20
 * characters, the page count is out of range or memory is short. Not from interrupt
 * handlers.
 */
struct ipc_log_context *ipc_log_context_create(int max_num_pages, const char *name,
                                               uint16_t user_version);

/* Removes the context, its files and its pages (whose magic numbers are cleared first, so
 * dumps do not find them). The caller must have stopped writing to it. 0, or -EBUSY while
 * its log is being read. */
int ipc_log_context_destroy(struct ipc_log_context *ctx);

/*
 * Writes an event built with the encoder (ipc_log_encode_start, items, no end needed).
 * 0; -EMSGSIZE when an item did not fit (the event is not written, and counted as
 * oversize); -EINVAL for a NULL context.
 */
int ipc_log_write(struct ipc_log_context *ctx, struct ipc_log_encoder *e);

/* Logs a formatted string event (TIMESTAMP, QTIMER, BYTE_ARRAY), as ipc_log_string() in
 * Qualcomm's ipc_logging.c. Text longer than an event holds (about 230 bytes) is refused as
 * oversize, never cut. Returns as ipc_log_write. */
int ipc_log_string(struct ipc_log_context *ctx, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/*
 * Logs a message event, the cheap way to log numbers: a string event (TIMESTAMP, QTIMER,
 * BYTE_ARRAY) whose text is the fixed text what followed by the n numbers in decimal, a
 * blank before each, as ipc_log_string(ctx, "%s %d %d ...") would write it, but formatted
 * by a decimal writer of its own and written in place, with no format to interpret. For
 * events too frequent for ipc_log_string; any reader of string events reads them,
 * Qualcomm's ipc_logging.py included. Returns as ipc_log_write.
 */
int ipc_log_numbers(struct ipc_log_context *ctx, const char *what, size_t what_len,
                    const int32_t *numbers, unsigned n);

/* ipc_log_string with the calling function's name first, as Qualcomm's drivers log:
 * IPC_LOG(ctx, "state %d", s) gives `[my_function] state 3`. */
#define IPC_LOG(ctx, fmt, ...) ipc_log_string((ctx), "[%s] " fmt, __func__, ##__VA_ARGS__)

#endif
