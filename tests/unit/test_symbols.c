/* test_symbols.c - symbol lookups: inside, at edges, outside, by name. */
#include "unit.h"

#include "kernel/lib/symbols.h"

static const struct symbol_entry entries[] = {
    { 0x1000, 0 }, { 0x1040, 6 }, { 0x10a0, 12 }, { 0x2000, 18 },
};
static const char names[] = "alpha\0bravo\0charl\0end";
static const struct symbol_table table = { 4, entries, names };

TEST(inside_a_function)
{
    uint32_t off, size;
    CHECK_EQ_STR(symbol_lookup(&table, 0x1044, &off, &size), "bravo");
    CHECK_EQ_INT(off, 4);
    CHECK_EQ_INT(size, 0x60);
}

TEST(edges)
{
    uint32_t off, size;
    CHECK_EQ_STR(symbol_lookup(&table, 0x1000, &off, &size), "alpha");
    CHECK_EQ_INT(off, 0);
    CHECK_EQ_STR(symbol_lookup(&table, 0x1fff, &off, &size), "charl");
    CHECK_EQ_INT(off, 0xf5f);
    CHECK(symbol_lookup(&table, 0x2000, &off, &size) == NULL);
    CHECK(symbol_lookup(&table, 0xfff, &off, &size) == NULL);
}

TEST(by_name)
{
    CHECK_EQ_INT(symbol_address(&table, "charl"), 0x10a0);
    CHECK_EQ_INT(symbol_address(&table, "end"), 0); /* the terminator is no function */
    CHECK_EQ_INT(symbol_address(&table, "nope"), 0);
}

TEST(empty_table)
{
    static const struct symbol_table empty = { 0, entries, names };
    CHECK(symbol_lookup(&empty, 0x1000, NULL, NULL) == NULL);
}
