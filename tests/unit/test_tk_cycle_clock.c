/* test_tk_cycle_clock.c - the capture's clock on the host (tools/tkconvert/cycle_clock.c):
 * cycles become the nanoseconds the guest computes (kernel/time.h's time_cycles_to_ns, bit
 * for bit, checked here against exact 128-bit arithmetic for large values), 0 before boot;
 * the CLOCK frame is checked; listed cycle fields are converted where they fit. */
#include "unit.h"

#include "kernel/time.h"
#include "tests/unit/tk_capture_build.h"
#include "tools/tkconvert/cycle_clock.h"

static char err[128];

/* floor(c * mult / 2^shift), modulo 2^64: what uapi/trace_capture.h defines. */
static uint64_t exact_ns(uint64_t c, uint32_t mult, uint32_t shift)
{
    return (uint64_t)(((unsigned __int128)c * mult) >> shift);
}

static struct tk_clock clock_of(uint64_t boot, uint32_t mult, uint32_t shift,
                                const struct capture_cycle_field *fields, uint32_t n)
{
    struct capture_buf b = {0};
    cb_clock(&b, boot, mult, shift, fields, n);
    struct tk_clock k;
    CHECK_EQ_INT(tk_clock_parse(&k, b.bytes + CAPTURE_HEADER_SIZE,
                                (uint32_t)(b.len - CAPTURE_HEADER_SIZE), err, sizeof err), 0);
    free(b.bytes);
    return k;
}

TEST(nanoseconds_equal_the_guests_for_large_counts)
{
    static const uint32_t mults[] = {1u << 22, 1398101 /* 3 GHz at shift 22 */, 4194303,
                                     0xffffffffu, 1, 0};
    static const uint32_t shifts[] = {22, 0, 32, 31, 1};
    uint64_t x = 0x9e3779b97f4a7c15ull;
    for (int i = 0; i < 4000; i++) {
        x ^= x << 13; /* xorshift64: counts of every size, and edges below */
        x ^= x >> 7;
        x ^= x << 17;
        uint64_t c = x >> (i % 64);
        if (i % 97 == 0)
            c = ~0ull - (uint64_t)i;
        uint32_t mult = mults[i % 6], shift = shifts[i % 5];
        struct tk_clock k = clock_of(0, mult, shift, NULL, 0);
        uint64_t got = tk_clock_ns(&k, c);
        CHECK(got == cycles_to_ns(c, mult, shift));
        CHECK(got == exact_ns(c, mult, shift));
    }
    /* Ten years of a 3 GHz counter, at the guest's shift. */
    uint64_t c = 3000000000ull * 86400 * 3653;
    struct tk_clock k = clock_of(0, 1398101, TIME_SHIFT, NULL, 0);
    CHECK(tk_clock_ns(&k, c) == exact_ns(c, 1398101, TIME_SHIFT));
}

TEST(counts_from_before_boot_are_0)
{
    struct tk_clock k = clock_of(5000000, 1u << 22, 22, NULL, 0);
    CHECK_EQ_INT(tk_clock_ns(&k, 4999999), 0);
    CHECK_EQ_INT(tk_clock_ns(&k, 0), 0);
    CHECK_EQ_INT(tk_clock_ns(&k, 5000000), 0);
    CHECK_EQ_INT(tk_clock_ns(&k, 5000123), 123);
    k = clock_of(~0ull - 10, 1u << 22, 22, NULL, 0);
    CHECK_EQ_INT(tk_clock_ns(&k, ~0ull), 10);
}

TEST(bad_clock_frames_are_refused_with_a_message)
{
    struct tk_clock k;
    uint8_t p[32] = {0};
    CHECK_EQ_INT(tk_clock_parse(&k, p, 23, err, sizeof err), -1);
    CHECK_EQ_STR(err, "CLOCK frame too short (23 bytes)");
    p[16] = 2; /* two fields promised */
    CHECK_EQ_INT(tk_clock_parse(&k, p, 28, err, sizeof err), -1);
    CHECK_EQ_STR(err, "CLOCK frame of 28 bytes for 2 cycle fields");
    p[16] = 0;
    p[12] = 33;
    CHECK_EQ_INT(tk_clock_parse(&k, p, 24, err, sizeof err), -1);
    CHECK_EQ_STR(err, "CLOCK frame with a shift of 33, over 32");
    p[12] = 22;
    p[17] = 1; /* 256 fields */
    CHECK_EQ_INT(tk_clock_parse(&k, p, 24, err, sizeof err), -1);
    CHECK_EQ_STR(err, "CLOCK frame with 256 cycle fields, over 64");
    p[17] = 0;
    CHECK_EQ_INT(tk_clock_parse(&k, p, 24, err, sizeof err), 0);
}

TEST(listed_cycle_fields_are_converted_where_they_fit)
{
    /* function_graph's: entry (5) calltime at 16; return (6) calltime 16, rettime 24. */
    static const struct capture_cycle_field f[] = {{5, 16}, {6, 16}, {6, 24}};
    struct tk_clock k = clock_of(1000, 1u << 21, 22, f, 3); /* half a ns per cycle */
    uint8_t rec[36] = {0};
    uint64_t call = 3000, ret = 5001;
    rec[0] = 6;
    memcpy(rec + 16, &call, 8);
    memcpy(rec + 24, &ret, 8);
    tk_clock_convert_fields(&k, rec, sizeof rec);
    memcpy(&call, rec + 16, 8);
    memcpy(&ret, rec + 24, 8);
    CHECK_EQ_INT(call, 1000);
    CHECK_EQ_INT(ret, 2000);
    /* A record too short for rettime keeps it; another type keeps everything. */
    uint8_t small[28] = {6};
    uint64_t v = 3000;
    memcpy(small + 16, &v, 8);
    memcpy(small + 24, "abcd", 4);
    tk_clock_convert_fields(&k, small, sizeof small);
    memcpy(&v, small + 16, 8);
    CHECK_EQ_INT(v, 1000);
    CHECK(memcmp(small + 24, "abcd", 4) == 0);
    uint8_t other[24] = {7};
    v = 3000;
    memcpy(other + 16, &v, 8);
    tk_clock_convert_fields(&k, other, sizeof other);
    memcpy(&v, other + 16, 8);
    CHECK_EQ_INT(v, 3000);
}
