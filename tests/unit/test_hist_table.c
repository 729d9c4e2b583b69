/* test_hist_table.c - a hist trigger's table on the host: the spec as Linux writes it
 * (keys, vals, sort, size, modifiers) and its refusals, counting by integer and string
 * keys, sums, sorting, a full table's drops, and the printed lines to the character. */
#include "unit.h"

#include "collect_writer.h"
#include "kernel/lib/errno.h"
#include "trace/events/hist_table.h"

/* A record: the common fields, then id (long), bytes (u32), delta (s32), name char[16]. */
struct rec {
    uint16_t type;
    uint8_t flags, preempt;
    int32_t pid;
    int32_t id;
    uint32_t bytes;
    int32_t delta;
    char name[16];
};

static const struct trace_event_field fields[] = {
    { "long", "id", 8, 4, 0, true, TRACE_FIELD_INT },
    { "u32", "bytes", 12, 4, 0, false, TRACE_FIELD_INT },
    { "s32", "delta", 16, 4, 0, true, TRACE_FIELD_INT },
    { "char", "name", 20, 16, 16, false, TRACE_FIELD_CHARS },
};
#define NF 4

static struct hist_error err;

static struct hist_table *make(const char *spec)
{
    struct hist_table *t = NULL;
    err = (struct hist_error){ 0 };
    int r = hist_create(spec, strlen(spec), fields, NF, 1u << 20, &t, &err);
    return r == 0 ? t : NULL;
}

static void add(struct hist_table *t, int pid, int id, unsigned bytes, int delta, const char *name)
{
    struct rec r = { 40, 0, 0, pid, id, bytes, delta, { 0 } };
    strncpy(r.name, name, sizeof r.name);
    hist_add(t, &r, sizeof r, "prog");
}

static const char *syscall_name(uint64_t nr) { return nr == 4 ? "sys_write" : NULL; }
static const char *symbol_name(uint64_t addr) { return addr == 0x1000 ? "start" : NULL; }
static const struct hist_names names = { symbol_name, syscall_name };

static const char *print(struct hist_table *t)
{
    collect_reset();
    CHECK_EQ_INT(hist_print_entries(&collect_writer, t, &names), 0);
    return collected;
}

static const char *spec_of(struct hist_table *t)
{
    collect_reset();
    hist_print_spec(&collect_writer, t);
    return collected;
}

TEST(counts_by_integer_key_sorted_by_hitcount)
{
    struct hist_table *t = make("keys=id");
    CHECK(t != NULL);
    CHECK_EQ_STR(spec_of(t), "hist:keys=id:vals=hitcount:sort=hitcount:size=2048");
    add(t, 1, 4, 0, 0, "");
    add(t, 1, 3, 0, 0, "");
    add(t, 1, 4, 0, 0, "");
    CHECK_EQ_STR(print(t), "{ id:          3 } hitcount:          1\n"
                           "{ id:          4 } hitcount:          2\n"
                           "\nTotals:\n    Hits: 3\n    Entries: 2\n    Dropped: 0\n");
    hist_free(t);
}

TEST(vals_sums_and_descending_sort)
{
    struct hist_table *t = make("keys=id.syscall:vals=bytes,delta.hex:sort=bytes.descending");
    CHECK(t != NULL);
    CHECK_EQ_STR(spec_of(t),
                 "hist:keys=id.syscall:vals=hitcount,bytes,delta.hex:sort=bytes.descending:size=2048");
    add(t, 1, 4, 10, 1, "");
    add(t, 1, 4, 20, 2, "");
    add(t, 1, 5, 100, -1, "");
    CHECK_EQ_STR(print(t),
                 "{ id: unknown_syscall               [  5] } hitcount:          1  bytes:        100"
                 "  delta: ffffffffffffffff\n"
                 "{ id: sys_write                     [  4] } hitcount:          2  bytes:         30"
                 "  delta:          3\n"
                 "\nTotals:\n    Hits: 3\n    Entries: 2\n    Dropped: 0\n");
    hist_free(t);
}

TEST(string_keys_and_execname_and_two_keys)
{
    struct hist_table *t = make("key=name,common_pid.execname:sort=name");
    CHECK(t != NULL);
    add(t, 7, 0, 0, 0, "beta");
    add(t, 7, 0, 0, 0, "alpha");
    add(t, 7, 0, 0, 0, "beta");
    CHECK_EQ_STR(print(t),
                 "{ name: alpha                                             , common_pid: prog"
                 "            [         7] } hitcount:          1\n"
                 "{ name: beta                                              , common_pid: prog"
                 "            [         7] } hitcount:          2\n"
                 "\nTotals:\n    Hits: 3\n    Entries: 2\n    Dropped: 0\n");
    hist_free(t);
}

TEST(log2_and_hex_keys)
{
    struct hist_table *t = make("keys=bytes.log2:sort=bytes");
    CHECK(t != NULL);
    add(t, 1, 0, 3, 0, "");
    add(t, 1, 0, 4, 0, "");
    add(t, 1, 0, 1000, 0, "");
    CHECK_EQ_STR(print(t), "{ bytes: ~ 2^2  } hitcount:          2\n"
                           "{ bytes: ~ 2^10 } hitcount:          1\n"
                           "\nTotals:\n    Hits: 3\n    Entries: 2\n    Dropped: 0\n");
    hist_free(t);
    t = make("keys=bytes.hex");
    add(t, 1, 0, 255, 0, "");
    CHECK(strstr(print(t), "{ bytes: ff } hitcount:          1\n") != NULL);
    hist_free(t);
}

TEST(full_table_drops_new_keys_and_counts_them)
{
    struct hist_table *t = make("keys=id:size=100");
    CHECK(t != NULL);
    CHECK(strstr(spec_of(t), ":size=128") != NULL);
    for (int i = 0; i < 200; i++)
        add(t, 1, i, 0, 0, "");
    add(t, 1, 5, 0, 0, ""); /* an old key still counts */
    const char *text = print(t);
    CHECK(strstr(text, "{ id:          5 } hitcount:          2\n") != NULL);
    CHECK(strstr(text, "Totals:\n    Hits: 201\n    Entries: 128\n    Dropped: 72\n") != NULL);
    hist_free(t);
}

/* A .sym key shows its function, or the address as Linux's sprint_symbol_no_offset gives
 * it ("0x..."), never an empty name. */
TEST(sym_without_symbol_shows_address)
{
    struct hist_table *t = make("keys=id.sym");
    CHECK(t != NULL);
    add(t, 1, 0x1000, 0, 0, "");
    add(t, 1, 0x1234, 0, 0, "");
    const char *text = print(t);
    CHECK(strstr(text, "{ id: [1000] start                                         } hitcount:") != NULL);
    CHECK(strstr(text, "{ id: [1234] 0x1234                                        } hitcount:") != NULL);
    hist_free(t);
}

TEST(copy_is_independent)
{
    struct hist_table *t = make("keys=id");
    add(t, 1, 1, 0, 0, "");
    add(t, 1, 2, 0, 0, "");
    add(t, 1, 3, 0, 0, "");
    struct hist_table *c = hist_alloc_like(t);
    CHECK(c != NULL);
    uint32_t done = hist_copy_some(c, t, 0, 2); /* in pieces, as the hist file copies */
    CHECK_EQ_INT(done, 2);
    add(t, 1, 4, 0, 0, ""); /* a new entry meanwhile is not in the copy */
    CHECK_EQ_INT(hist_copy_some(c, t, done, 2), 3);
    CHECK(strstr(print(c), "{ id:          3 } hitcount:          1\n") != NULL);
    CHECK(strstr(print(c), "{ id:          4 }") == NULL);
    CHECK(strstr(print(c), "Hits: 3\n    Entries: 3\n") != NULL);
    add(t, 1, 1, 0, 0, "");
    CHECK(strstr(print(c), "hitcount:          1\n") != NULL);
    CHECK_EQ_INT(hist_bytes(c), hist_bytes(t));
    hist_free(c);
    hist_free(t);
}

TEST(refusals_say_where)
{
    struct { const char *spec, *message; size_t pos; } bad[] = {
        { "keys=nosuch", "Couldn't find field", 5 },
        { "vals=bytes", "Missing keys", 0 },
        { "keys=", "Empty assignment", 0 },
        { "keys=id,", "Empty assignment", 8 },
        { "keys=id.bogus", "Invalid field modifier", 8 },
        { "keys=name.hex", "Invalid field modifier", 10 },
        { "keys=id.execname", "Invalid field modifier", 8 },
        { "keys=id:vals=name", "String type can not be an operand in expression", 13 },
        { "keys=id:sort=bytes", "Sort field must be a key or a val", 13 },
        { "keys=id:sort=id.up", "Invalid sort modifier", 16 },
        { "keys=id:sort=hitcount,id,id", "Too many sort fields (Max = 2)", 25 },
        { "keys=id:sort=", "Empty assignment", 8 },
        { "keys=id:size=10", "Invalid size", 13 },
        { "keys=id:size=999999", "Invalid size", 13 },
        { "keys=id:size=x", "Invalid size", 13 },
        { "keys=id:bogus", "Unknown hist parameter", 8 },
        { "keys=id:", "Unknown hist parameter", 8 },
        { "keys=id,bytes,delta,name", "Too many keys", 20 },
        { "keys=id:keys=id", "Duplicate keys", 8 },
        { "keys=args", "Couldn't find field", 5 },
    };
    for (unsigned i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        struct hist_table *t = NULL;
        err = (struct hist_error){ 0 };
        int r = hist_create(bad[i].spec, strlen(bad[i].spec), fields, NF, 1u << 20, &t, &err);
        CHECK_EQ_INT(r, -EINVAL);
        if (r == -EINVAL) {
            CHECK_EQ_STR(err.message, bad[i].message);
            CHECK_EQ_INT(err.pos, bad[i].pos);
        }
    }
}

TEST(too_large_is_enomem)
{
    struct hist_table *t = NULL;
    CHECK_EQ_INT(hist_create("keys=name:size=131072", 21, fields, NF, 1u << 20, &t, &err), -ENOMEM);
    CHECK(t == NULL);
}

TEST(pause_cont_clear_are_commands_to_the_same_table)
{
    struct hist_table *t = make("keys=id:vals=bytes");
    struct hist_table *c = make("vals=bytes:keys=id:size=256:clear");
    struct hist_table *other = make("keys=id:pause");
    CHECK(t && c && other);
    CHECK_EQ_INT(hist_command_of(t), HIST_COUNT);
    CHECK_EQ_INT(hist_command_of(c), HIST_CLEAR);
    CHECK_EQ_INT(hist_command_of(other), HIST_PAUSE);
    CHECK(hist_same(t, c)); /* the size does not count, as on Linux */
    CHECK(!hist_same(t, other));
    struct hist_table *cont = make("keys=id:vals=bytes:continue");
    CHECK_EQ_INT(hist_command_of(cont), HIST_CONT);
    add(t, 1, 4, 10, 0, "");
    add(t, 1, 5, 10, 0, "");
    hist_clear(t);
    CHECK_EQ_STR(print(t), "\nTotals:\n    Hits: 0\n    Entries: 0\n    Dropped: 0\n");
    add(t, 1, 4, 10, 0, "");
    CHECK(strstr(print(t), "{ id:          4 } hitcount:          1  bytes:         10\n") != NULL);
    CHECK(make("keys=id:stop") == NULL);
    CHECK_EQ_STR(err.message, "Unknown hist parameter");
    hist_free(t);
    hist_free(c);
    hist_free(other);
    hist_free(cont);
}
