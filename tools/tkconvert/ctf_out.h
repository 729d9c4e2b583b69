/*
 * ctf_out.h - writes a decoded capture as a CTF 1.8 trace (what babeltrace2 and Trace
 * Compass read): DIR/metadata, TSDL text, and DIR/stream_cpuN, one binary stream per CPU.
 *
 * The metadata declares a little-endian trace whose packet header is {magic, stream_id},
 * a clock counting the trace clock's nanoseconds, one stream class whose packet context
 * holds timestamp_begin/end, content_size, packet_size, events_discarded and cpu_id, and
 * an event class per format file ("SYSTEM:NAME", the format's ID) with every field but
 * common_type typed from the file: integers with their size, signedness and base (16 for
 * pointers and addresses), char arrays and __data_loc char[] as strings, other arrays as
 * arrays, __data_loc and [] of other types as sequences. Field names get a leading "_"
 * (which CTF readers drop), so no name clashes with a TSDL keyword.
 *
 * Each ring-buffer page becomes a packet; events_discarded counts the lost events up to
 * and including the page's missed count (1 for an unknown count, and 1 for each place
 * where damaged frames may have held the CPU's pages: capture.h, gaps; damage after the
 * last page gets an empty packet of its own), so a reader reports them between the
 * packets. A
 * stream's times never go back (readers refuse that): an earlier time on a damaged page is
 * raised to the last one.
 */
#ifndef TOOLS_TKCONVERT_CTF_OUT_H
#define TOOLS_TKCONVERT_CTF_OUT_H

#include <stddef.h>
#include <stdio.h>

#include "tools/tkconvert/trace_model.h"

/* Writes the decoded trace t into dir (made if missing), from t's records and pages (the
 * pages are not decoded again); records left out are counted on warn. Returns 0, or -1
 * with err set. */
int tk_ctf_write(const struct tk_trace *t, const char *dir, FILE *warn, char *err, size_t errlen);

#endif
