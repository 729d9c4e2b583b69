/*
 * cycle_clock.c - the capture's clock: cycles to nanoseconds (see cycle_clock.h).
 */
#include "tools/tkconvert/cycle_clock.h"

#include <stdio.h>
#include <string.h>

#include "kernel/time.h" /* cycles_to_ns: the guest's own conversion */

static uint32_t get32(const uint8_t *p) { return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24; }
static uint16_t get16(const uint8_t *p) { return (uint16_t)(p[0] | p[1] << 8); }
static uint64_t get64(const uint8_t *p) { return get32(p) | (uint64_t)get32(p + 4) << 32; }

int tk_clock_parse(struct tk_clock *k, const uint8_t *payload, uint32_t length, char *err,
                   size_t errlen)
{
    const uint32_t head = (uint32_t)sizeof(struct capture_clock);
    if (length < head) {
        snprintf(err, errlen, "CLOCK frame too short (%u bytes)", length);
        return -1;
    }
    uint32_t nr = get32(payload + 16), shift = get32(payload + 12);
    if (nr > TK_CLOCK_MAX_FIELDS) {
        snprintf(err, errlen, "CLOCK frame with %u cycle fields, over %u", nr, TK_CLOCK_MAX_FIELDS);
        return -1;
    }
    if (length != head + nr * (uint32_t)sizeof(struct capture_cycle_field)) {
        snprintf(err, errlen, "CLOCK frame of %u bytes for %u cycle fields", length, nr);
        return -1;
    }
    if (shift > 32) { /* cycles_to_ns shifts the high half left by 32 - shift */
        snprintf(err, errlen, "CLOCK frame with a shift of %u, over 32", shift);
        return -1;
    }
    k->boot_cycles = get64(payload);
    k->mult = get32(payload + 8);
    k->shift = shift;
    k->nr_fields = nr;
    for (uint32_t i = 0; i < nr; i++) {
        const uint8_t *f = payload + head + 4 * i;
        k->fields[i] = (struct capture_cycle_field){ get16(f), get16(f + 2) };
    }
    return 0;
}

/* As kernel/time.h's time_cycles_to_ns, with the capture's constants. */
uint64_t tk_clock_ns(const struct tk_clock *k, uint64_t c)
{
    if (c < k->boot_cycles)
        return 0; /* a count from before the clock started */
    return cycles_to_ns(c - k->boot_cycles, k->mult, k->shift);
}

void tk_clock_convert_fields(const struct tk_clock *k, uint8_t *payload, uint32_t length)
{
    if (length < 8) /* not even a struct trace_entry: the guest leaves it alone too */
        return;
    uint16_t type = get16(payload);
    for (uint32_t i = 0; i < k->nr_fields; i++) {
        const struct capture_cycle_field *f = &k->fields[i];
        if (f->type != type || f->offset > length || length - f->offset < 8)
            continue;
        uint64_t ns = tk_clock_ns(k, get64(payload + f->offset));
        for (int b = 0; b < 8; b++)
            payload[f->offset + b] = (uint8_t)(ns >> (8 * b));
    }
}
