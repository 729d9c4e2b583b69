/* test_bitmap_alloc.c - runs of units from a bitmap: first fit, alignment, accounting. */
#include "unit.h"

#include "kernel/lib/bitmap_alloc.h"

static uint32_t bits[4];
static struct bitmap_alloc b;

static void setup_free(uint32_t units)
{
    bitmap_init_all_used(&b, bits, units);
    bitmap_set_free(&b, 0, units);
}

TEST(starts_all_used)
{
    bitmap_init_all_used(&b, bits, 100);
    CHECK_EQ_INT(b.free_units, 0);
    CHECK_EQ_INT(bitmap_alloc_run(&b, 1, 1), BITMAP_NONE);
}

TEST(first_fit_and_free)
{
    setup_free(100);
    CHECK_EQ_INT(bitmap_alloc_run(&b, 3, 1), 0);
    CHECK_EQ_INT(bitmap_alloc_run(&b, 2, 1), 3);
    CHECK_EQ_INT(b.free_units, 95);
    bitmap_set_free(&b, 0, 3);
    CHECK_EQ_INT(bitmap_alloc_run(&b, 4, 1), 5); /* the hole of 3 is too small */
    CHECK_EQ_INT(bitmap_alloc_run(&b, 3, 1), 0); /* and now it fits */
}

TEST(alignment)
{
    setup_free(128);
    CHECK_EQ_INT(bitmap_alloc_run(&b, 1, 1), 0);
    CHECK_EQ_INT(bitmap_alloc_run(&b, 4, 8), 8);
    CHECK_EQ_INT(bitmap_alloc_run(&b, 1, 64), 64);
    CHECK_EQ_INT(bitmap_alloc_run(&b, 1, 3), BITMAP_NONE); /* not a power of two */
}

TEST(exhaustion_and_bounds)
{
    setup_free(70);
    CHECK_EQ_INT(bitmap_alloc_run(&b, 70, 1), 0);
    CHECK_EQ_INT(bitmap_alloc_run(&b, 1, 1), BITMAP_NONE);
    bitmap_set_free(&b, 69, 10); /* runs past the end: only unit 69 counts */
    CHECK_EQ_INT(b.free_units, 1);
    CHECK_EQ_INT(bitmap_alloc_run(&b, 1, 1), 69);
    CHECK_EQ_INT(bitmap_alloc_run(&b, 0, 1), BITMAP_NONE);
    bitmap_set_used(&b, 500, 5); /* entirely outside: ignored */
    CHECK_EQ_INT(b.free_units, 0);
}

TEST(set_is_idempotent)
{
    setup_free(64);
    bitmap_set_used(&b, 10, 5);
    bitmap_set_used(&b, 12, 5);
    CHECK_EQ_INT(b.free_units, 57);
    CHECK(bitmap_is_used(&b, 16));
    CHECK(!bitmap_is_used(&b, 17));
}

TEST(skips_full_words)
{
    setup_free(128);
    bitmap_set_used(&b, 0, 96);
    CHECK_EQ_INT(bitmap_alloc_run(&b, 32, 1), 96);
}

/* The word-at-a-time ranges against one bit at a time: random ranges set free and used over
 * a bitmap whose size is not a multiple of 32, checking every bit and the free count. */
TEST(ranges_match_bit_by_bit)
{
    enum { UNITS = 100 };
    static uint32_t words[(UNITS + 31) / 32];
    bool model[UNITS];
    struct bitmap_alloc r;
    bitmap_init_all_used(&r, words, UNITS);
    for (int i = 0; i < UNITS; i++)
        model[i] = true;
    uint32_t seed = 12345;
    for (int round = 0; round < 20000; round++) {
        seed = seed * 1103515245u + 12345u;
        uint32_t first = (seed >> 8) % (UNITS + 8); /* sometimes past the end */
        seed = seed * 1103515245u + 12345u;
        uint32_t count = (seed >> 8) % 70;
        bool used = (seed >> 4) & 1;
        if (used)
            bitmap_set_used(&r, first, count);
        else
            bitmap_set_free(&r, first, count);
        for (uint32_t u = first; u < first + count && u < UNITS; u++)
            model[u] = used;
        uint32_t free_units = 0;
        for (uint32_t u = 0; u < UNITS; u++) {
            CHECK_EQ_INT(bitmap_is_used(&r, u), model[u]);
            free_units += !model[u];
        }
        CHECK_EQ_INT(r.free_units, free_units);
    }
}

/* A range that starts and ends inside one word, and one spanning whole words. */
TEST(ranges_inside_and_across_words)
{
    bitmap_init_all_used(&b, bits, 128);
    bitmap_set_free(&b, 3, 5); /* units 3..7 */
    CHECK_EQ_INT(b.free_units, 5);
    CHECK_EQ_INT(bitmap_is_used(&b, 2), 1);
    CHECK_EQ_INT(bitmap_is_used(&b, 3), 0);
    CHECK_EQ_INT(bitmap_is_used(&b, 7), 0);
    CHECK_EQ_INT(bitmap_is_used(&b, 8), 1);
    bitmap_set_free(&b, 30, 70); /* 30..99: across three words */
    CHECK_EQ_INT(b.free_units, 75);
    CHECK_EQ_INT(bitmap_is_used(&b, 29), 1);
    CHECK_EQ_INT(bitmap_is_used(&b, 99), 0);
    CHECK_EQ_INT(bitmap_is_used(&b, 100), 1);
    bitmap_set_free(&b, 0, 128); /* idempotent on what is free already */
    CHECK_EQ_INT(b.free_units, 128);
    bitmap_set_used(&b, 32, 32); /* exactly one word */
    CHECK_EQ_INT(b.free_units, 96);
    CHECK_EQ_INT(bits[1], 0xffffffffu);
}

/* A hole late in a word, and aligned runs, found past used units of the same word; the
 * first-fit answer against a unit-by-unit search over random bitmaps. */
TEST(first_free_found_inside_a_word)
{
    bitmap_init_all_used(&b, bits, 128);
    bitmap_set_free(&b, 63, 1);
    CHECK_EQ_INT(bitmap_alloc_run(&b, 1, 1), 63);
    bitmap_set_free(&b, 37, 20); /* 37..56 */
    CHECK_EQ_INT(bitmap_alloc_run(&b, 4, 8), 40);
    CHECK_EQ_INT(bitmap_alloc_run(&b, 1, 1), 37);
    CHECK_EQ_INT(bitmap_alloc_run(&b, 16, 1), BITMAP_NONE); /* 38, 39, 44..56: 13 at most */
    CHECK_EQ_INT(bitmap_alloc_run(&b, 13, 1), 44);
}

TEST(first_fit_matches_unit_search)
{
    enum { UNITS = 200 };
    static uint32_t words[(UNITS + 31) / 32];
    struct bitmap_alloc r;
    uint32_t seed = 777;
    for (int round = 0; round < 3000; round++) {
        bitmap_init_all_used(&r, words, UNITS);
        for (uint32_t u = 0; u < UNITS; u++) {
            seed = seed * 1103515245u + 12345u;
            if ((seed >> 16) % 4 == 0)
                bitmap_set_free(&r, u, 1);
        }
        /* Allocations and frees before the checked one move full_below up and down. */
        for (int k = 0; k < 5; k++) {
            seed = seed * 1103515245u + 12345u;
            uint32_t got = bitmap_alloc_run(&r, 1 + (seed >> 16) % 3, 1);
            if (got != BITMAP_NONE && (seed >> 8) % 2)
                bitmap_set_free(&r, got, 1);
        }
        seed = seed * 1103515245u + 12345u;
        uint32_t count = 1 + (seed >> 16) % 4, align = 1u << ((seed >> 8) % 3);
        uint32_t want = BITMAP_NONE;
        for (uint32_t s = 0; s + count <= UNITS && want == BITMAP_NONE && count <= r.free_units;
             s += align) {
            uint32_t k = 0;
            while (k < count && !bitmap_is_used(&r, s + k))
                k++;
            if (k == count)
                want = s;
        }
        CHECK_EQ_INT(bitmap_alloc_run(&r, count, align), want);
    }
}
