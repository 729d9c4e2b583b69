/*
 * cycle_clock.h - the capture's CAPTURE_CLOCK frame (uapi/trace_capture.h): how the ring's
 * cycle counts become the trace clock's nanoseconds, and which fields of which events hold
 * cycle counts too (function_graph's calltime and rettime).
 *
 * The conversion is kernel/time.h's own cycles_to_ns, so a time here is bit for bit the one
 * the guest prints in `cat trace` and puts in trace_pipe_raw's pages. Portable:
 * tests/unit/test_tk_cycle_clock.c.
 */
#ifndef TOOLS_TKCONVERT_CYCLE_CLOCK_H
#define TOOLS_TKCONVERT_CYCLE_CLOCK_H

#include <stddef.h>
#include <stdint.h>

#include "uapi/trace_capture.h"

/* More cycle fields than any guest sends (function_graph's are 5): a bound, so that a
 * CLOCK frame needs no allocation. */
#define TK_CLOCK_MAX_FIELDS 64u

struct tk_clock {
    uint64_t boot_cycles;
    uint32_t mult, shift;
    uint32_t nr_fields;
    struct capture_cycle_field fields[TK_CLOCK_MAX_FIELDS];
};

/* Reads a CLOCK frame's payload into k. Returns 0, or -1 with a message (too short, a
 * field count that does not match its length or is over the bound, a shift over 32). */
int tk_clock_parse(struct tk_clock *k, const uint8_t *payload, uint32_t length, char *err,
                   size_t errlen);

/* The trace clock's nanoseconds at cycle count c: 0 before boot_cycles. */
uint64_t tk_clock_ns(const struct tk_clock *k, uint64_t c);

/* Rewrites the cycle fields of one event's payload (length bytes, struct trace_entry first)
 * as nanoseconds, as the guest's export hooks do to the pages it serves: every listed field
 * of the event's common_type that lies wholly inside the payload. */
void tk_clock_convert_fields(const struct tk_clock *k, uint8_t *payload, uint32_t length);

#endif
