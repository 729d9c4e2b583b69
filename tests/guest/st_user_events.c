/*
 * st_user_events.c - self-tests of user_events in the real kernel, through its files as a
 * user at the shell drives them: dynamic_events, user_events_status and its page, the
 * events tree's format and enable files, and the record line in `trace`. (The ioctl and
 * write paths need a user process: the user-program tests cover them.)
 */
#include "kernel/fs/fs_layout.h"
#include "tests/guest/guest_helpers.h"
#include "kernel/lib/errno.h"
#include "kernel/lib/format.h"
#include "kernel/mm/page_alloc.h"
#include "kernel/selftest.h"
#include "kernel/lib/string.h"
#include "trace/events/trace_events.h"
#include "trace/core/trace_internal.h"

static bool exists(const char *path) { return tracefs_lookup(path, &(int){ 0 }) != 0; }

/* Bit bit%8 of byte bit/8 of the status page (0 or 1), or -1 when the page cannot be
 * mapped read-only: a check for 0 must not pass because the mapping failed. */
static int status_bit(unsigned bit)
{
    struct fs_node *f = tracefs_lookup("user_events_status", &(int){ 0 });
    uintptr_t phys = 0;
    bool writable = true;
    if (!f || f->ops->mmap(0, 0, &phys, &writable) != 0 || writable)
        return -1;
    return (((const volatile uint8_t *)phys_to_virt(phys))[bit / 8] >> (bit % 8)) & 1;
}

/* Starts from no user event at all: '>' deletes them all. */
static void no_user_events(void)
{
    ST_CHECK(guest_write_file("dynamic_events", "", false) == 0);
}

SELFTEST(user_events_dynamic)
{
    no_user_events();
    ST_CHECK(strcmp(guest_read_file("dynamic_events"), "") == 0);
    ST_CHECK(guest_write_file("dynamic_events", "u:st_a u32 count;char[8] who\n", true) == 0);
    ST_CHECK(strcmp(guest_read_file("dynamic_events"), "u:st_a u32 count; char[8] who\n") == 0);
    ST_CHECK(exists("events/user_events/st_a/enable"));
    ST_CHECK(exists("events/user_events/st_a/format"));

    /* The same layout again is the same event; another layout for the name is refused. */
    ST_CHECK(guest_write_file("dynamic_events", "u:st_a u32 count; char[8] who\n", true) == 0);
    ST_CHECK(guest_write_file("dynamic_events", "u:st_a u64 count\n", true) == -EADDRINUSE);
    ST_CHECK(guest_write_file("dynamic_events", "u:st_b long x\n", true) == -EINVAL);
    ST_CHECK(guest_write_file("dynamic_events", "u:st/b:FLAG u32 x\n", true) == -EINVAL);
    ST_CHECK(guest_write_file("dynamic_events", "p:st_b do_fork\n", true) == -EINVAL);
    /* A malformed line rejects the whole write: st_c is not created. */
    ST_CHECK(guest_write_file("dynamic_events", "u:st_c u8 x\nu:st_d u128 y\n", true) == -EINVAL);
    ST_CHECK(!exists("events/user_events/st_c"));

    /* Several lines; deleting by name, by system/name, with matching fields, with '!'. */
    ST_CHECK(guest_write_file("dynamic_events", "u:st_c u8 x\n# a comment\nu:st_d s64 y\n", true) == 0);
    ST_CHECK(strcmp(guest_read_file("dynamic_events"),
                    "u:st_a u32 count; char[8] who\nu:st_c u8 x\nu:st_d s64 y\n") == 0);
    ST_CHECK(guest_write_file("dynamic_events", "-:st_a u64 count\n", true) == -ENOENT);
    ST_CHECK(guest_write_file("dynamic_events", "-:st_a u32 count;char[8] who\n", true) == 0);
    ST_CHECK(guest_write_file("dynamic_events", "-:kprobes/st_c\n", true) == -ENOENT);
    ST_CHECK(guest_write_file("dynamic_events", "-:user_events/st_c\n", true) == 0);
    ST_CHECK(guest_write_file("dynamic_events", "!u:st_d\n", true) == 0);
    ST_CHECK(guest_write_file("dynamic_events", "-:st_d\n", true) == -ENOENT);
    ST_CHECK(guest_write_file("dynamic_events", "-:\n", true) == -EINVAL);
    ST_CHECK(!exists("events/user_events"));
    ST_CHECK(strcmp(guest_read_file("dynamic_events"), "") == 0);

    /* '>' replaces everything. */
    ST_CHECK(guest_write_file("dynamic_events", "u:st_e u8 x\nu:st_f u8 x\n", true) == 0);
    ST_CHECK(guest_write_file("dynamic_events", "u:st_g u16 y\n", false) == 0);
    ST_CHECK(strcmp(guest_read_file("dynamic_events"), "u:st_g u16 y\n") == 0);
    no_user_events();
}

SELFTEST(user_events_status_and_enable)
{
    no_user_events();
    ST_CHECK(guest_write_file("dynamic_events", "u:test u32 count\n", true) == 0);
    /* The example in Linux's pre-6.4 Documentation/trace/user_events.rst, to the byte: bit 1
     * is the first handed out. */
    ST_CHECK(strcmp(guest_read_file("user_events_status"), "1:test\n\nActive: 1\nBusy: 0\nMax: 32768\n") ==
             0);
    ST_CHECK(status_bit(1) == 0);

    ST_CHECK(guest_write_file("events/user_events/test/enable", "1\n", false) == 0);
    ST_CHECK(strcmp(guest_read_file("user_events_status"),
                    "1:test # Used by ftrace\n\nActive: 1\nBusy: 1\nMax: 32768\n") == 0);
    ST_CHECK(status_bit(1) == 1 && status_bit(0) == 0 && status_bit(2) == 0);

    /* In use: no delete, and '>' deletes nothing. */
    ST_CHECK(guest_write_file("dynamic_events", "-:test\n", true) == -EBUSY);
    ST_CHECK(guest_write_file("dynamic_events", "u:other u8 x\n", false) == -EBUSY);
    ST_CHECK(strcmp(guest_read_file("dynamic_events"), "u:test u32 count\n") == 0);

    ST_CHECK(guest_write_file("events/user_events/test/enable", "0\n", false) == 0);
    ST_CHECK(status_bit(1) == 0);
    ST_CHECK(strcmp(guest_read_file("user_events_status"), "1:test\n\nActive: 1\nBusy: 0\nMax: 32768\n") ==
             0);

    /* A second event takes bit 2; bit 1 comes free again with its event. */
    ST_CHECK(guest_write_file("dynamic_events", "u:second u8 x\n", true) == 0);
    ST_CHECK(strcmp(guest_read_file("user_events_status"),
                    "1:test\n2:second\n\nActive: 2\nBusy: 0\nMax: 32768\n") == 0);
    ST_CHECK(guest_write_file("events/user_events/second/enable", "1\n", false) == 0);
    ST_CHECK(status_bit(2) == 1 && status_bit(1) == 0);
    ST_CHECK(guest_write_file("events/user_events/second/enable", "0\n", false) == 0);
    ST_CHECK(guest_write_file("dynamic_events", "-:test\n", true) == 0);
    ST_CHECK(guest_write_file("dynamic_events", "u:third u8 x\n", true) == 0);
    ST_CHECK(strcmp(guest_read_file("user_events_status"),
                    "2:second\n1:third\n\nActive: 2\nBusy: 0\nMax: 32768\n") == 0);

    /* The page is one read-only page; the status file takes no writes, the data file no
     * reads (a program gets EINVAL from the system call, as on Linux). */
    struct fs_node *status = tracefs_lookup("user_events_status", &(int){ 0 });
    uintptr_t phys;
    bool writable;
    ST_CHECK(status && status->ops->mmap(0, 4096, &phys, &writable) == -EINVAL);
    ST_CHECK(guest_write_file("user_events_status", "1\n", false) == -EACCES);
    ST_CHECK(strcmp(guest_read_file("user_events_data"), "<error>") == 0);
    no_user_events();
}

SELFTEST(user_events_format)
{
    no_user_events();
    ST_CHECK(guest_write_file("dynamic_events", "u:st_fmt u32 count; __data_loc char[] msg\n", true) == 0);
    unsigned id = 0;
    const char *id_text = guest_read_file("events/user_events/st_fmt/id");
    while (*id_text >= '0' && *id_text <= '9')
        id = id * 10 + (unsigned)(*id_text++ - '0');
    ST_CHECK(id >= TRACE_EVENT_ID_FIRST);
    char expect[1024];
    ksnprintf(expect, sizeof expect,
              "name: st_fmt\nID: %u\nformat:\n"
              "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
              "\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
              "\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
              "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
              "\tfield:u32 count;\toffset:8;\tsize:4;\tsigned:0;\n"
              "\tfield:__data_loc char[] msg;\toffset:12;\tsize:4;\tsigned:1;\n\n"
              "print fmt: \"count=%%u msg=%%s\", REC->count, __get_str(msg)\n",
              id);
    ST_CHECK(strcmp(guest_read_file("events/user_events/st_fmt/format"), expect) == 0);
    no_user_events();
}

/* A record as user_events_data's write path makes it: header, then the payload. */
struct st_record {
    struct trace_entry ent;
    uint32_t count;
    uint32_t msg_loc;
    char msg[4];
};

SELFTEST(user_events_trace_line)
{
    no_user_events();
    trace_stream_enabled = false;
    rb_reset(trace_buffer());
    ST_CHECK(guest_write_file("dynamic_events", "u:st_line u32 count; __data_loc char[] msg\n", true) == 0);
    ST_CHECK(guest_write_file("events/user_events/st_line/enable", "1\n", false) == 0);
    const struct trace_event_call *call = 0;
    for (uint16_t id = TRACE_EVENT_ID_FIRST; id < TRACE_EVENT_ID_LAST && !call; id++) {
        const struct trace_event_call *c = trace_event_by_id(id);
        if (c && strcmp(c->name, "st_line") == 0)
            call = c;
    }
    ST_CHECK(call && call->enabled);
    struct st_record *r = call ? (struct st_record *)trace_reserve(call->id, sizeof *r) : 0;
    ST_CHECK(r != 0);
    if (r) {
        r->count = 5;
        r->msg_loc = 4u << 16 | 16u; /* 4 bytes at record offset 16 */
        memcpy(r->msg, "bob", 4);
        trace_commit();
    }
    const char *trace = guest_read_file("trace");
    ST_CHECK(strstr(trace, ": st_line: count=5 msg=bob\n") != 0);
    ST_CHECK(guest_write_file("events/user_events/st_line/enable", "0\n", false) == 0);
    rb_reset(trace_buffer());
    trace_stream_enabled = true;
    no_user_events();
}
