/*
 * tracedat.h - trace.dat (trace-cmd's file format) from an unpacked capture.
 *
 * An unpacked capture is a directory laid out as the guest's file system: its tracefs files
 * under ROOT/sys/kernel/tracing/ (events/..., per_cpu/cpuN/trace_pipe_raw, saved_cmdlines,
 * printk_formats, ...) and the others at their own paths (ROOT/proc/kallsyms).
 */
#ifndef TOOLS_TKCONVERT_TRACEDAT_H
#define TOOLS_TKCONVERT_TRACEDAT_H

#include <stddef.h>

/* Writes out_path from the unpacked capture at root holding nr_cpus CPUs' pages. Returns 0,
 * or -1 with a message in err. */
int tracedat_write(const char *root, unsigned nr_cpus, const char *out_path, char *err,
                   size_t errlen);

/* The guest's sizeof(long) and page size, from the text of its events/header_page (NUL-
 * terminated): the size of the `commit` field (a local_t, Linux's long) and the offset
 * plus size of `data`. Returns 0, or -1 when either field is missing or out of range (a
 * long of 4 or 8 bytes, a page of 512 bytes to 1 MiB). tracedat_write writes them into the
 * file header in place of the host's. */
int tracedat_guest_sizes(const char *header_page, unsigned *long_size, unsigned *page_size);

#endif
