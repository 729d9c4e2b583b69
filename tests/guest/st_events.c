/*
 * st_events.c - self-tests of named trace events in the real kernel: an event registered at
 * run time and driven through its files, as a user at the shell would, and the syscall
 * tracepoints' exact lines in the `trace` file.
 */
#include "kernel/fs/fs_layout.h"
#include "tests/guest/guest_helpers.h"
#include "kernel/lib/errno.h"
#include "kernel/lib/format.h"
#include "kernel/selftest.h"
#include "kernel/lib/string.h"
#include "kernel/syscall/syscall.h"
#include "trace/events/trace_events.h"
#include "trace/core/trace_internal.h"
#include "trace/events/trace_syscalls.h"

/* True when needle occurs in haystack. */
static bool contains(const char *haystack, const char *needle)
{
    size_t n = strlen(needle);
    for (const char *p = haystack; *p; p++)
        if (strncmp(p, needle, n) == 0)
            return true;
    return false;
}

/* True when the `trace` file has an event line whose text after the context columns
 * (after the timestamp's ": ") is exactly line. */
static bool trace_has_line(const char *line)
{
    char want[256];
    ksnprintf(want, sizeof want, ": %s\n", line);
    return contains(guest_read_file("trace"), want);
}

/* The test event: one field, printed with a fixed text. */
struct st_entry {
    struct trace_entry ent;
    uint32_t value;
};

static void st_print(struct fs_writer *out, const struct trace_event_call *call,
                     const struct trace_event_view *ev)
{
    fs_printf(out, "%s: value=%u", call->name, ((const struct st_entry *)ev->entry)->value);
}

static void st_format(struct fs_writer *out, const struct trace_event_call *call)
{
    (void)call;
    fs_puts(out, "\tfield:u32 value;\toffset:8;\tsize:4;\tsigned:0;\n\n"
                 "print fmt: \"value=%u\", REC->value\n");
}

static const struct trace_event_ops st_ops = { .print = st_print, .print_format = st_format };

/* Records one st_entry if the event is enabled, as an instrumented call site would. */
static void st_record(struct trace_event_call *call, uint32_t value)
{
    if (!call->enabled)
        return;
    struct st_entry *e = (struct st_entry *)trace_reserve(call->id, sizeof *e);
    if (e) {
        e->value = value;
        trace_commit();
    }
}

/* Buffer emptied, COM2 stream off: what the test records stays for `cat trace`. */
static void quiet_buffer(bool quiet)
{
    trace_stream_enabled = !quiet;
    rb_reset(trace_buffer());
}

SELFTEST(events_files)
{
    static struct trace_event_call a = { .system = "selftest", .name = "st_one", .ops = &st_ops };
    static struct trace_event_call b = { .system = "selftest", .name = "st_two", .ops = &st_ops };
    quiet_buffer(true);
    ST_CHECK(trace_event_register(&a) == 0 && trace_event_register(&b) == 0);
    ST_CHECK(a.id >= TRACE_EVENT_ID_FIRST && b.id > a.id);

    /* Off: nothing recorded. On through its enable file: recorded and printed. */
    st_record(&a, 41);
    ST_CHECK(guest_write_file("events/selftest/st_one/enable", "1\n", false) == 0);
    ST_CHECK(a.enabled && !b.enabled);
    st_record(&a, 42);
    st_record(&b, 43);
    ST_CHECK(trace_has_line("st_one: value=42"));
    ST_CHECK(!trace_has_line("st_one: value=41") && !trace_has_line("st_two: value=43"));

    /* The files read as on Linux. */
    char expect[1024];
    ksnprintf(expect, sizeof expect, "%u\n", (unsigned)a.id);
    ST_CHECK(strcmp(guest_read_file("events/selftest/st_one/id"), expect) == 0);
    ksnprintf(expect, sizeof expect,
              "name: st_one\nID: %u\nformat:\n"
              "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
              "\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
              "\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
              "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
              "\tfield:u32 value;\toffset:8;\tsize:4;\tsigned:0;\n\n"
              "print fmt: \"value=%%u\", REC->value\n",
              (unsigned)a.id);
    ST_CHECK(strcmp(guest_read_file("events/selftest/st_one/format"), expect) == 0);
    ST_CHECK(contains(guest_read_file("available_events"), "selftest:st_one\nselftest:st_two\n"));
    ST_CHECK(strcmp(guest_read_file("events/selftest/st_one/enable"), "1\n") == 0);
    ST_CHECK(strcmp(guest_read_file("events/selftest/enable"), "X\n") == 0);
    ST_CHECK(strcmp(guest_read_file("events/enable"), "X\n") == 0);
    ST_CHECK(strcmp(guest_read_file("set_event"), "selftest:st_one\n") == 0);

    /* set_event: '>' replaces, '>>' adds, '!' removes, "system:*" takes a whole system. */
    ST_CHECK(guest_write_file("set_event", "selftest:st_two\n", false) == 0);
    ST_CHECK(!a.enabled && b.enabled);
    ST_CHECK(guest_write_file("set_event", "selftest:st_one\n", true) == 0);
    ST_CHECK(strcmp(guest_read_file("events/selftest/enable"), "1\n") == 0);
    ST_CHECK(guest_write_file("set_event", "!selftest:st_two\n", true) == 0);
    ST_CHECK(strcmp(guest_read_file("set_event"), "selftest:st_one\n") == 0);
    ST_CHECK(guest_write_file("set_event", "selftest:nosuch\n", true) == -EINVAL);
    ST_CHECK(guest_write_file("set_event", "selftest:*\n", true) == 0 && a.enabled && b.enabled);
    ST_CHECK(guest_write_file("events/selftest/enable", "0\n", false) == 0);
    ST_CHECK(!a.enabled && !b.enabled);
    ST_CHECK(strcmp(guest_read_file("events/selftest/enable"), "0\n") == 0);

    ST_CHECK(trace_event_unregister(&a) == 0 && trace_event_unregister(&b) == 0);
    quiet_buffer(false);
}

SELFTEST(events_unregister)
{
    static struct trace_event_call c = { .system = "selftest", .name = "st_gone", .ops = &st_ops };
    quiet_buffer(true);
    ST_CHECK(trace_event_register(&c) == 0);
    uint16_t id = c.id;
    ST_CHECK(guest_write_file("events/selftest/st_gone/enable", "1\n", false) == 0);
    st_record(&c, 7);
    ST_CHECK(trace_event_unregister(&c) == -EBUSY); /* still enabled */
    ST_CHECK(tracefs_lookup("events/selftest/st_gone", &(int){ 0 }) != 0);
    ST_CHECK(guest_write_file("events/selftest/st_gone/enable", "0\n", false) == 0);
    ST_CHECK(trace_event_unregister(&c) == 0);
    ST_CHECK(tracefs_lookup("events/selftest", &(int){ 0 }) == 0); /* its system went with it */
    ST_CHECK(!contains(guest_read_file("available_events"), "selftest:"));
    ST_CHECK(trace_event_by_id(id) == 0);

    /* Its record is still in the buffer; its id will never name another event. */
    char unknown[32];
    ksnprintf(unknown, sizeof unknown, "[UNKNOWN EVENT %u]", (unsigned)id);
    ST_CHECK(trace_has_line(unknown));
    ST_CHECK(trace_event_register(&c) == 0 && c.id != id);
    ST_CHECK(trace_has_line(unknown));
    ST_CHECK(trace_event_unregister(&c) == 0);
    quiet_buffer(false);
}

SELFTEST(events_syscalls)
{
    quiet_buffer(true);
    ST_CHECK(syscall_info(SYS_write) != 0);
    ST_CHECK(contains(guest_read_file("available_events"),
                      "syscalls:sys_enter_write\nsyscalls:sys_exit_write\n"));
    ST_CHECK(syscall_tracer == 0);
    ST_CHECK(guest_write_file("set_event", "syscalls:sys_enter_write syscalls:sys_exit_write\n",
                        false) == 0);
    ST_CHECK(syscall_tracer != 0);
    const uint32_t args[SYSCALL_ARGS_MAX] = { 1, 0x40001000, 12, 0, 0, 0 };
    trace_syscall_enter(SYS_write, args);
    trace_syscall_exit(SYS_write, args, 12);
    trace_syscall_exit(SYS_write, args, -14);
    trace_syscall_enter(SYS_getpid, args); /* not enabled */
    ST_CHECK(trace_has_line("sys_write(fd: 1, buf: 40001000, count: c)"));
    ST_CHECK(trace_has_line("sys_write -> 0xc"));
    ST_CHECK(trace_has_line("sys_write -> 0xfffffff2"));
    ST_CHECK(!contains(guest_read_file("trace"), "sys_getpid"));

    /* The format file, as Linux prints it for i386. */
    ST_CHECK(contains(guest_read_file("events/syscalls/sys_enter_write/format"),
                      "\tfield:int __syscall_nr;\toffset:8;\tsize:4;\tsigned:1;\n"
                      "\tfield:unsigned int fd;\toffset:12;\tsize:4;\tsigned:0;\n"
                      "\tfield:const char * buf;\toffset:16;\tsize:4;\tsigned:0;\n"
                      "\tfield:size_t count;\toffset:20;\tsize:4;\tsigned:0;\n\n"
                      "print fmt: \"fd: 0x%08lx, buf: 0x%08lx, count: 0x%08lx\", "
                      "((unsigned long)(REC->fd)), ((unsigned long)(REC->buf)), "
                      "((unsigned long)(REC->count))\n"));
    ST_CHECK(contains(guest_read_file("events/syscalls/sys_exit_write/format"),
                      "\tfield:long ret;\toffset:12;\tsize:4;\tsigned:1;\n\n"
                      "print fmt: \"0x%lx\", REC->ret\n"));

    ST_CHECK(guest_write_file("events/syscalls/enable", "0\n", false) == 0);
    ST_CHECK(syscall_tracer == 0);
    quiet_buffer(false);
}
