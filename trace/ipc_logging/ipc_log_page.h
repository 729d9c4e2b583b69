/*
 * ipc_log_page.h - IPC logging's memory format: context and page headers, the TSV event
 * encoding, and the circular list of pages a context writes into.
 *
 * This is Qualcomm's IPC logging layout, version 2, for a 32-bit kernel, so that the dump
 * tools written for it read our memory dumps. Everything here is plain data and byte
 * arithmetic: the kernel (trace/ipc_logging/ipc_logging.c) writes and reads contexts with it, and the
 * host tool (tools/ipc_log_extract.c) rebuilds logs from a memory dump with it.
 * Portable: tests/unit/test_ipc_log_page.c, tests/fuzz/fuzz_ipc_log_page.c.
 *
 * A page (4 KiB, page-aligned):             A context header (first 0x40 bytes of it):
 *   0x00 magic      0x52784425                0x00 magic        0x25874452
 *   0x04 nmagic     0xAD87BBDA (~magic)       0x04 nmagic       0xDA78BBAD (~magic)
 *   0x08 page_num   bit 31 set | index        0x08 version      2
 *   0x0c read_offset  (16 bits)               0x0c user_version (16 bits)
 *   0x0e write_offset (16 bits)               0x0e header_size  0x40 (where page data starts)
 *   0x10 log_id     (64 bits)                 0x10 log_id       (64 bits)
 *   0x18 start_time (64 bits, ns)             0x18 name[20]     NUL-padded
 *   0x20 end_time   (64 bits, ns)             0x2c (zero up to 0x40)
 *   0x28 ctx_offset (signed 64: context - page)
 *   0x30 (runtime; zero here)
 *   0x40 data ... to 0x1000
 *
 * Offsets in a page count from its data, not from the page. The data of all pages, read
 * from the read position (read page, read_offset) to the write position (write page,
 * write_offset), is one stream of events; an event may continue on the next page.
 *
 * An event is <type:size:value>: a type byte, a size byte and size bytes of items, each
 * itself <type:size:value> with type TIMESTAMP, POINTER, INT32, BYTE_ARRAY or QTIMER. A
 * string event (ipc_log_string, ipc_log_numbers) is type TSV_TYPE_STRING holding TIMESTAMP
 * (ns), QTIMER (cycles) and BYTE_ARRAY (the text, no NUL); the only kind the kernel
 * logs (kernel/ipc/ipc.c, drivers) and the only kind Qualcomm's dump parser reads. All numbers are
 * little-endian.
 */
#ifndef TRACE_IPC_LOGGING_IPC_LOG_PAGE_H
#define TRACE_IPC_LOGGING_IPC_LOG_PAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define IPC_LOG_VERSION 2
#define IPC_LOG_CONTEXT_MAGIC 0x25874452u
#define IPC_LOG_CONTEXT_NMAGIC 0xDA78BBADu
#define IPC_LOG_PAGE_MAGIC 0x52784425u
#define IPC_LOG_PAGE_NMAGIC 0xAD87BBDAu
#define IPC_LOG_PAGE_FLAG 0x80000000u /* set in page_num by version 1 and later */

#define IPC_LOG_PAGE_SIZE 4096u
#define IPC_LOG_HEADER_SIZE 0x40u
#define IPC_LOG_DATA_SIZE (IPC_LOG_PAGE_SIZE - IPC_LOG_HEADER_SIZE) /* 4032 */
#define IPC_LOG_NAME_SIZE 20 /* the name field; a name has at most 19 characters */

/* Item types inside an event. */
#define TSV_TYPE_INVALID 0
#define TSV_TYPE_TIMESTAMP 1
#define TSV_TYPE_POINTER 2
#define TSV_TYPE_INT32 3
#define TSV_TYPE_BYTE_ARRAY 4
#define TSV_TYPE_QTIMER 5
/* Event types. */
#define TSV_TYPE_SKB 1
#define TSV_TYPE_STRING 2

#define TSV_HEADER_SIZE 2
/* The encode buffer's size, as MAX_MSG_SIZE in Qualcomm's include/linux/ipc_logging.h
 * (msm kernel): a whole event (its 2-byte
 * header included) has at most this many bytes; larger ones are refused, never cut. */
#define IPC_LOG_MAX_MSG_SIZE 255
/* The most bytes an event can claim (a size byte of 255): what a reader must hold. */
#define IPC_LOG_EVENT_MAX (TSV_HEADER_SIZE + 255)
/* The longest line ipc_log_format_line produces, its newline and NUL included. */
#define IPC_LOG_LINE_MAX 800

struct ipc_log_page_header {
    uint32_t magic;
    uint32_t nmagic;
    uint32_t page_num;
    uint16_t read_offset;
    uint16_t write_offset;
    uint64_t log_id;
    uint64_t start_time;
    uint64_t end_time;
    int64_t ctx_offset;
    /* Qualcomm's list links and nd_read_offset (ipc_logging_private.h); unused */
    uint8_t runtime[IPC_LOG_HEADER_SIZE - 0x30];
};

struct ipc_log_page {
    struct ipc_log_page_header hdr;
    uint8_t data[IPC_LOG_DATA_SIZE];
};

struct ipc_log_context_header {
    uint32_t magic;
    uint32_t nmagic;
    uint32_t version;
    uint16_t user_version;
    uint16_t header_size;
    uint64_t log_id;
    char name[IPC_LOG_NAME_SIZE];
    uint8_t runtime[IPC_LOG_HEADER_SIZE - 0x2c]; /* zero: dump tools read 0x40 bytes */
};

/* --- encoding an event ------------------------------------------------------------------ */

/* The encode context: an event being built. One spare byte lets a formatter write its NUL
 * after the longest text that fits. */
struct ipc_log_encoder {
    uint8_t buf[IPC_LOG_MAX_MSG_SIZE + 1];
    uint32_t offset;  /* bytes used, the event header included */
    bool overflow;    /* an item did not fit: the event must not be written */
};

/* Starts an event of the given type (TSV_TYPE_STRING, or a caller's own type; type 0,
 * TSV_TYPE_INVALID, is refused when the event is appended). */
void ipc_log_encode_start(struct ipc_log_encoder *e, uint8_t type);
/* Append one item each; 0, or -EMSGSIZE (and the event is marked oversize) when it does
 * not fit. A refused item leaves nothing behind. */
int ipc_log_encode_timestamp(struct ipc_log_encoder *e, uint64_t ns);
int ipc_log_encode_qtimer(struct ipc_log_encoder *e, uint64_t ticks);
int ipc_log_encode_pointer(struct ipc_log_encoder *e, uintptr_t pointer);
int ipc_log_encode_int32(struct ipc_log_encoder *e, int32_t value);
int ipc_log_encode_bytes(struct ipc_log_encoder *e, const void *data, size_t len);
/* A byte array produced in place (formatted text): returns where its bytes go and in
 * *room how many fit (one more byte may be written there, for a NUL). Then
 * ipc_log_encode_bytes_done with the length produced: 0, or -EMSGSIZE if above *room. */
char *ipc_log_encode_bytes_start(struct ipc_log_encoder *e, size_t *room);
int ipc_log_encode_bytes_done(struct ipc_log_encoder *e, size_t len);
/* Finishes the event (its size byte): returns its length in bytes, or -EMSGSIZE if any
 * item was refused. */
int ipc_log_encode_end(struct ipc_log_encoder *e);

/* --- a context's pages ------------------------------------------------------------------ */

/* A position in the page stream: page index and offset in its data. */
struct ipc_log_cursor {
    uint32_t page;
    uint32_t offset;
};

/*
 * A context: its header (first, since pages point at it), its pages in list order, and
 * what writing needs. The read position lives in the page headers, as dump tools expect
 * (read_page and its read_offset); the write position likewise (write_page, write_offset).
 * reader is the non-destructive reader of the `log` files: it starts at the oldest event,
 * and is pushed along when the event under it is dropped.
 */
struct ipc_log {
    struct ipc_log_context_header hdr;
    uint32_t page_count;        /* right after the header: dump tools read it there */
    struct ipc_log_page **pages;
    uint32_t read_page;
    uint32_t write_page;
    uint32_t write_avail;       /* free bytes; always at least 1 (read == write: empty) */
    struct ipc_log_cursor reader;
    uint64_t (*clock)(void);    /* ns, for page start and end times */
    uint64_t written, dropped, oversize; /* events: stored, dropped to make room, refused */
};

/* Where a context's page count is, from its header: the first of the run-time data that
 * follows the context header in Qualcomm's layout (drivers/soc/qcom/ipc_logging_private.h),
 * so that a dump tool can tell a missing last page from a short log. */
#define IPC_LOG_PAGE_COUNT_AT IPC_LOG_HEADER_SIZE
_Static_assert(offsetof(struct ipc_log, page_count) == IPC_LOG_PAGE_COUNT_AT,
               "page_count follows the context header");

/*
 * Sets up log over count (at least 1) zeroed pages, page-aligned, and names it (name is
 * shorter than IPC_LOG_NAME_SIZE). The headers get their magic numbers last, so that a
 * dump taken meanwhile shows no half-made page. log_id is the address of log, as in
 * Qualcomm's ipc_logging.c; each page's ctx_offset is the distance from it to log.
 */
void ipc_log_init(struct ipc_log *log, struct ipc_log_page **pages, uint32_t count,
                  const char *name, uint16_t user_version, uint64_t (*clock)(void));

/* Clears every magic number, so that a dump no longer finds the log once its memory is
 * reused. */
void ipc_log_forget(struct ipc_log *log);

/*
 * Appends the event ev[0..len) after the newest one. When the pages are full it first
 * drops the oldest events, as Qualcomm's ipc_logging.c does: the write position catches up
 * with the read position, which moves on by whole events. The event may start on one page and end
 * on the next. Returns how many events were dropped; -EMSGSIZE (counted in oversize) when
 * len is above IPC_LOG_MAX_MSG_SIZE; -EINVAL when ev's size byte does not say len - 2 or its
 * type is 0 (TSV_TYPE_INVALID, which readers take for damage).
 * Nothing is written when it fails.
 */
int ipc_log_append(struct ipc_log *log, const uint8_t *ev, uint32_t len);

/* Finishes e's event and appends it; an event with a refused item is not written and is
 * counted in oversize (-EMSGSIZE). Otherwise as ipc_log_append. */
int ipc_log_append_encoded(struct ipc_log *log, struct ipc_log_encoder *e);

/* A message event (ipc_log_numbers in trace/ipc_logging/ipc_logging.h): a string event whose text is
 * what followed by each number in decimal, a blank before each. */
struct ipc_log_numbers {
    uint64_t ns, ticks;
    const char *what;
    size_t what_len;
    const int32_t *numbers;
    unsigned count;
};

/* Appends a message event: the bytes the encoder and ipc_log_string would make of
 * "%s %d %d ...", the numbers formatted on the stack by a decimal writer of its own (no
 * printf), then the event written straight into the page when it fits there whole
 * (ipc_log_write.h has the code, which the kernel's ipc_log_numbers inlines). Returns as
 * ipc_log_append; -EMSGSIZE (counted in oversize) when the text does not fit in one event. */
int ipc_log_append_numbers(struct ipc_log *log, const struct ipc_log_numbers *ev);

/* The position of the oldest event. */
struct ipc_log_cursor ipc_log_oldest(const struct ipc_log *log);

/* Bytes of events from c (a position at the start of an event) to the write position. */
uint64_t ipc_log_pending(const struct ipc_log *log, struct ipc_log_cursor c);

/*
 * Copies the event at *c into buf (IPC_LOG_EVENT_MAX bytes) and moves *c past it.
 * Returns its length, 0 when *c is at the write position, or -EINVAL when the event would
 * run past the write position (a corrupt stream; *c is left alone).
 */
int ipc_log_read_event(const struct ipc_log *log, struct ipc_log_cursor *c, uint8_t *buf);

/* --- rebuilding a log from its pages (memory dumps) --------------------------------------- */

/* A run of one page's data, in stream order. */
struct ipc_log_span {
    uint32_t page;
    uint16_t start, end;
};

/*
 * Orders the data of a log found in a dump. pages[i] is page i's header, or NULL if page i
 * is missing; n is one more than the highest page number found. Fills spans (n + 1 of
 * them at most) with the stream from the oldest event to the newest, and returns how many.
 * A span of a missing page stands for data that is lost.
 */
uint32_t ipc_log_dump_spans(const struct ipc_log_page_header *const *pages, uint32_t n,
                            struct ipc_log_span *spans);

/* --- decoding and printing events -------------------------------------------------------- */

/* Checks that ev[0..len) starts with a whole event whose items exactly fill it, each a
 * known type of a valid size. Returns the event's length, or -EINVAL. */
int ipc_log_event_check(const uint8_t *ev, size_t len);

/* Whether ev[0..len) starts with a string event exactly as Qualcomm's ipc_logging.c defines
 * it: type TSV_TYPE_STRING holding an 8-byte TIMESTAMP, an 8-byte QTIMER and a BYTE_ARRAY
 * that ends the event. That is all Qualcomm's ipc_logging.py decodes: it stops at an event
 * of any other type, and reads a string event's three items without skipping to the end
 * its size declares. */
bool ipc_log_event_is_original_string(const uint8_t *ev, size_t len);

/*
 * Formats a checked event as one line, as the debugfs `log` file of Qualcomm's
 * ipc_logging.c shows it:
 *   [  4191.362072425/      0x12bec5ff43] [diag_state_open_smd] MODEM_DATA ...
 * (seconds.nanoseconds from TIMESTAMP, the QTIMER value, then the text). Items of other
 * events follow the bracket, separated by blanks: INT32 in decimal, POINTER in hex,
 * BYTE_ARRAY as text. Control characters print as '.', and a final newline of the text is
 * dropped, so an event is exactly one line. Writes at most size bytes (NUL included, size
 * >= IPC_LOG_LINE_MAX never cuts) and returns the line's length.
 */
size_t ipc_log_format_line(const uint8_t *ev, size_t len, char *out, size_t size);

#endif
