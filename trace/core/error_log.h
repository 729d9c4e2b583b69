/*
 * error_log.h - tracefs `error_log`: the last errors of writes to tracing files, with where
 * in the command they were found (Linux's tracing_log_err).
 *
 * An entry reads as Linux prints it:
 *   [   12.345678] event filter parse error: error: Field not found
 *     Command: fd == 1 && bogus == 2
 *                         ^
 * The newest TRACE_ERROR_LOG_MAX entries are kept; `echo > error_log` (a truncating write
 * of nothing) empties it; any other write is EINVAL, as on Linux.
 */
#ifndef TRACE_CORE_ERROR_LOG_H
#define TRACE_CORE_ERROR_LOG_H

#include "kernel/fs/fs_tree.h"

#define TRACE_ERROR_LOG_MAX 16
#define TRACE_ERROR_LOG_ENTRY_MAX 8192 /* bytes of one entry after its timestamp; cut there */

/* The part of an entry under its "LOCATION: error: MESSAGE" line: "  Command: " and
 * text[0..len) (bytes outside printable ASCII as '.'), then a caret under byte pos of it
 * (just past its end when pos is beyond). Every writer of error_log entries (triggers,
 * filters, kprobes) lays its command out with this. Inline: the filter code that uses it
 * is also built for the host. */
static inline void trace_error_log_print_command(struct fs_writer *out, const char *text,
                                                 size_t len, size_t pos)
{
    fs_puts(out, "  Command: ");
    for (size_t i = 0; i < len; i++) {
        char c = text[i];
        char shown = ((unsigned char)c < ' ' || (unsigned char)c > '~') ? '.' : c;
        out->emit(out, &shown, 1);
    }
    fs_puts(out, "\n           ");
    for (size_t i = 0; i < pos && i < len; i++)
        out->emit(out, " ", 1);
    fs_puts(out, "^\n");
}

/* Adds an entry stamped now; print(out, arg) writes what follows "[timestamp] ". Thread
 * context (it allocates). Without memory the entry is not kept. */
void trace_error_log_add(void (*print)(struct fs_writer *out, const void *arg), const void *arg);

/* Creates error_log in the tracefs root (trace_files_init). */
void trace_error_log_init(void);

#endif
