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
