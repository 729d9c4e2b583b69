/* test_trace_events.c - named trace events and syscall tracepoints on the host: the events/
 * tree, available_events and set_event with Linux's semantics, format files and printed
 * lines to the character, ids reused only when no record can carry them. Records go through
 * a real ring buffer; the system call table is tests/unit/host_syscall_table.c. */
#include "unit.h"

#include "collect_writer.h"
#include "kernel/fs/fs_layout.h"
#include "kernel/lib/errno.h"
#include "rb_host_env.h"
#include "trace/events/trace_events.h"
#include "trace/events/trace_syscalls.h"
#include "trace/events/event_trigger.h"
#include "kernel/lib/symbols.h"
#include "kernel/proc/task.h"
#include "kernel/smp.h"

/* What trace_syscalls.c installed as the dispatcher's tracer (kernel/syscall/syscall.h, which the
 * host cannot include: tests/unit/host_syscall_table.c keeps it). */
struct syscall_tracer;
extern const struct syscall_tracer *volatile syscall_tracer;

/* The numbers of tests/unit/host_syscall_table.c's calls (uapi/syscall.h, uapi/ipc.h). */
#define SYS_write 4
#define SYS_getpid 20
#define SYS_tracekern_ipc 0x7000
#define IPC_OP_CALL 3

/* --- what the modules under test take from the rest of the kernel ------------------------ */

struct ring_buffer *trace_buf;
volatile bool trace_recording;
int32_t cpu_current_pid[MAX_CPUS]; /* current_pid (kernel/proc/task.h) */

void printk(const char *fmt, ...) { (void)fmt; }

/* issue 18, triggers: what event_trigger.c asks of the tracing core, as the core does it
 * (tracing_on is trace_recording here), and a snapshot buffer that counts its swaps. */
static int snapshot_arms, snapshot_swaps;
bool trace_is_on(void) { return trace_recording; }
void trace_set_on_from_trigger(bool on) { trace_recording = on; }
int trace_snapshot_arm(void) { snapshot_arms++; return 0; }
void trace_snapshot_disarm(void) { snapshot_arms--; }
bool trace_snapshot_take(void) { snapshot_swaps++; return true; }
/* One thread on the host: no other CPU can be running a filter or trigger being freed. */
bool trace_sync_writers(void) { return true; }
/* The trigger files' mutex (kernel/mutex.h): one task on the host, so a wait for it means
 * a holder never let go. */
int sleep_on_uninterruptible(const void *chan)
{
    (void)chan;
    fprintf(stderr, "a mutex was still held\n");
    abort();
}
void wake_up(const void *chan) { (void)chan; }
struct task *task_current(void) { return NULL; }
const char *task_name(const struct task *t) { (void)t; return "hostprog"; }
const struct symbol_table *kernel_symbols(void)
{
    static const struct symbol_table none = { 0, 0, 0 };
    return &none;
}
int arch_save_stack_trace(uintptr_t fp, uint32_t *out, int max)
{
    (void)fp;
    for (int i = 0; i < max; i++)
        out[i] = 0x1000u + (uint32_t)i;
    return max;
}

/* issue 18, instances: the core's copy into each instance (trace/core/trace_instance.c),
 * into a host ring buffer per slot, so that tests see what each instance got. */
static struct ring_buffer *instance_bufs[8];
void trace_instances_write(uint8_t mask, const struct trace_entry *e, uint32_t length)
{
    for (unsigned slot = 1; slot < 8; slot++)
        if ((mask & (1u << slot)) && instance_bufs[slot])
            rb_write(instance_bufs[slot], e, length);
}
void trace_instances_count_lost(uint8_t mask)
{
    for (unsigned slot = 1; slot < 8; slot++)
        if ((mask & (1u << slot)) && instance_bufs[slot])
            rb_count_lost_event(instance_bufs[slot]);
}
uint64_t trace_instances_oldest_record(void) { return UINT64_MAX; }

/* The context columns are trace_output.c's business (test_trace_output.c): a fixed mark. */
void trace_print_context(struct fs_writer *out, const struct trace_event_view *ev)
{
    (void)ev;
    fs_puts(out, "CTX: ");
}

/* --- helpers ---------------------------------------------------------------------------------- */

/* The text of a file in the tree (collected), or "<error>" when it cannot be read. */
static const char *read_file(const char *path)
{
    int err;
    struct fs_node *f = tracefs_lookup(path, &err);
    collect_reset();
    if (!f || !f->ops || !f->ops->read || f->ops->read(f, &collect_writer) != 0)
        return "<error>";
    return collected;
}

/* What echo TEXT > PATH (or >> with append) returns. */
static int write_file(const char *path, const char *text, bool append)
{
    int err;
    struct fs_node *f = tracefs_lookup(path, &err);
    if (!f)
        return err;
    return f->ops->write(f, text, strlen(text), append);
}

/* A test event: its print shows the one field, "value=N". */
struct test_entry {
    struct trace_entry ent;
    uint32_t value;
};

static int refusals; /* > 0: the next enables are refused with -EPERM */

static void test_print(struct fs_writer *out, const struct trace_event_call *call,
                       const struct trace_event_view *ev)
{
    fs_printf(out, "%s: value=%u", call->name, ((const struct test_entry *)ev->entry)->value);
}

static void test_format(struct fs_writer *out, const struct trace_event_call *call)
{
    (void)call;
    fs_puts(out, "\tfield:u32 value;\toffset:8;\tsize:4;\tsigned:0;\n\nprint fmt: \"value=%u\", "
                 "REC->value\n");
}

static int test_enable(struct trace_event_call *call, bool on)
{
    (void)call;
    if (on && refusals > 0) {
        refusals--;
        return -EPERM;
    }
    return 0;
}

static const struct trace_event_ops test_ops = { .print = test_print,
                                                 .print_format = test_format,
                                                 .enable = test_enable };

static struct trace_event_call make_event(const char *system, const char *name)
{
    struct trace_event_call c = { .system = system, .ops = &test_ops };
    strcpy(c.name, name);
    return c;
}

/* Prints a record of type id with value v, as the trace file would. */
static const char *print_record(uint16_t id, uint32_t v)
{
    struct test_entry e = { { id, 0, 0, 0 }, v };
    struct trace_event_view ev = { &e.ent, sizeof e, 0, 0 };
    collect_reset();
    trace_event_print(&collect_writer, &ev);
    return collected;
}

/* --- the registry and the files ------------------------------------------------------------ */

TEST(register_makes_the_tree)
{
    struct trace_event_call a = make_event("tst", "alpha");
    CHECK_EQ_INT(trace_event_register(&a), 0);
    CHECK(a.id >= TRACE_EVENT_ID_FIRST);
    CHECK(trace_event_by_id(a.id) == &a);
    char expect[64];
    snprintf(expect, sizeof expect, "%u\n", a.id);
    CHECK_EQ_STR(read_file("events/tst/alpha/id"), expect);
    CHECK_EQ_STR(read_file("events/tst/alpha/enable"), "0\n");
    CHECK_EQ_STR(read_file("events/tst/enable"), "0\n");
    CHECK(strstr(read_file("available_events"), "tst:alpha\n") != NULL);
    CHECK_EQ_INT(trace_event_register(&a), -EEXIST);
    struct trace_event_call twin = make_event("tst", "alpha");
    CHECK_EQ_INT(trace_event_register(&twin), -EEXIST);
    CHECK_EQ_INT(trace_event_unregister(&a), 0);
    int err;
    CHECK(tracefs_lookup("events/tst", &err) == NULL); /* the system went with its last event */
    CHECK(strstr(read_file("available_events"), "tst:alpha") == NULL);
}

TEST(bad_names_are_refused)
{
    struct trace_event_call c = make_event("tst", "a:b");
    CHECK_EQ_INT(trace_event_register(&c), -EINVAL);
    c = make_event("tst", "");
    CHECK_EQ_INT(trace_event_register(&c), -EINVAL);
    c = make_event("t/s", "ok");
    CHECK_EQ_INT(trace_event_register(&c), -EINVAL);
    c = make_event("tst", "two words");
    CHECK_EQ_INT(trace_event_register(&c), -EINVAL);
}

TEST(format_file_as_linux_prints_it)
{
    struct trace_event_call a = make_event("tst", "fmt");
    CHECK_EQ_INT(trace_event_register(&a), 0);
    char expect[1024];
    snprintf(expect, sizeof expect,
             "name: fmt\n"
             "ID: %u\n"
             "format:\n"
             "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
             "\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
             "\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
             "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
             "\n"
             "\tfield:u32 value;\toffset:8;\tsize:4;\tsigned:0;\n"
             "\n"
             "print fmt: \"value=%%u\", REC->value\n",
             a.id);
    CHECK_EQ_STR(read_file("events/tst/fmt/format"), expect);
    CHECK_EQ_INT(trace_event_unregister(&a), 0);
}

TEST(enable_files_and_mixed_state)
{
    struct trace_event_call a = make_event("tst", "one"), b = make_event("tst", "two");
    CHECK_EQ_INT(trace_event_register(&a), 0);
    CHECK_EQ_INT(trace_event_register(&b), 0);
    CHECK_EQ_INT(write_file("events/tst/one/enable", "1\n", false), 0);
    CHECK(a.enabled && !b.enabled);
    CHECK_EQ_STR(read_file("events/tst/one/enable"), "1\n");
    CHECK_EQ_STR(read_file("events/tst/enable"), "X\n");
    CHECK_EQ_STR(read_file("events/enable"), "X\n");
    CHECK_EQ_INT(write_file("events/tst/enable", "1\n", false), 0);
    CHECK_EQ_STR(read_file("events/tst/enable"), "1\n");
    CHECK_EQ_INT(write_file("events/tst/one/enable", "2\n", false), -EINVAL);
    CHECK_EQ_INT(write_file("events/enable", "0\n", false), 0);
    CHECK(!a.enabled && !b.enabled);
    CHECK_EQ_STR(read_file("events/tst/enable"), "0\n");

    /* An event that refuses to start stays off and says why. */
    refusals = 1;
    CHECK_EQ_INT(write_file("events/tst/two/enable", "1\n", false), -EPERM);
    CHECK(!b.enabled);
    CHECK_EQ_INT(trace_event_unregister(&a), 0);
    CHECK_EQ_INT(trace_event_unregister(&b), 0);
}

TEST(set_event_forms)
{
    struct trace_event_call a = make_event("sa", "x"), b = make_event("sa", "y"),
                            c = make_event("sb", "x");
    CHECK_EQ_INT(trace_event_register(&a), 0);
    CHECK_EQ_INT(trace_event_register(&b), 0);
    CHECK_EQ_INT(trace_event_register(&c), 0);

    CHECK_EQ_INT(write_file("set_event", "sa:x\n", false), 0);
    CHECK_EQ_STR(read_file("set_event"), "sa:x\n");
    CHECK_EQ_INT(write_file("set_event", "sb:x\n", true), 0); /* >> adds */
    CHECK_EQ_STR(read_file("set_event"), "sa:x\nsb:x\n");
    CHECK_EQ_INT(write_file("set_event", "sa:y\n", false), 0); /* > replaces */
    CHECK_EQ_STR(read_file("set_event"), "sa:y\n");
    CHECK_EQ_INT(write_file("set_event", "*:x\n", false), 0); /* a name in any system */
    CHECK_EQ_STR(read_file("set_event"), "sa:x\nsb:x\n");
    CHECK_EQ_INT(write_file("set_event", "sa:*\n", false), 0); /* a whole system */
    CHECK_EQ_STR(read_file("set_event"), "sa:x\nsa:y\n");
    CHECK_EQ_INT(write_file("set_event", "!sa:x\n", true), 0);
    CHECK_EQ_STR(read_file("set_event"), "sa:y\n");
    CHECK_EQ_INT(write_file("set_event", "sb\n", false), 0); /* a bare system name */
    CHECK_EQ_STR(read_file("set_event"), "sb:x\n");
    CHECK_EQ_INT(write_file("set_event", "y :x\n", false), 0); /* a bare event name; two words */
    CHECK_EQ_STR(read_file("set_event"), "sa:x\nsa:y\nsb:x\n");
    CHECK_EQ_INT(write_file("set_event", "sa:\n", false), 0);
    CHECK_EQ_STR(read_file("set_event"), "sa:x\nsa:y\n");

    /* A word naming nothing rejects the write and changes nothing. */
    CHECK_EQ_INT(write_file("set_event", "sa:nope\n", false), -EINVAL);
    CHECK_EQ_STR(read_file("set_event"), "sa:x\nsa:y\n");
    CHECK_EQ_INT(write_file("set_event", "\n", false), 0); /* echo > set_event: all off */
    CHECK_EQ_STR(read_file("set_event"), "");

    CHECK_EQ_INT(trace_event_unregister(&a), 0);
    CHECK_EQ_INT(trace_event_unregister(&b), 0);
    CHECK_EQ_INT(trace_event_unregister(&c), 0);
}

TEST(unregister_busy_and_ids_not_reused_at_once)
{
    struct trace_event_call a = make_event("tst", "gone");
    CHECK_EQ_INT(trace_event_register(&a), 0);
    uint16_t old_id = a.id;
    CHECK_EQ_STR(print_record(old_id, 7), "CTX: gone: value=7\n");
    CHECK_EQ_INT(trace_event_set_enabled(&a, true), 0);
    CHECK_EQ_INT(trace_event_unregister(&a), -EBUSY);
    CHECK_EQ_INT(trace_event_set_enabled(&a, false), 0);
    CHECK_EQ_INT(trace_event_unregister(&a), 0);
    CHECK_EQ_INT(trace_event_unregister(&a), -ENOENT);
    CHECK(trace_event_by_id(old_id) == NULL);
    char expect[64];
    snprintf(expect, sizeof expect, "CTX: [UNKNOWN EVENT %u]\n", old_id);
    CHECK_EQ_STR(print_record(old_id, 7), expect);

    /* The same event registered again gets a new id; the old records stay unknown. */
    CHECK_EQ_INT(trace_event_register(&a), 0);
    CHECK(a.id > old_id);
    CHECK_EQ_STR(print_record(old_id, 7), expect);
    CHECK_EQ_INT(trace_event_unregister(&a), 0);
}

TEST(many_registrations_grow_the_table)
{
    static struct trace_event_call calls[200];
    char name[16];
    for (int i = 0; i < 200; i++) {
        snprintf(name, sizeof name, "ev%d", i);
        calls[i] = make_event("many", name);
        CHECK_EQ_INT(trace_event_register(&calls[i]), 0);
    }
    for (int i = 0; i < 200; i++)
        CHECK(trace_event_by_id(calls[i].id) == &calls[i]);
    CHECK_EQ_STR(print_record(calls[150].id, 3), "CTX: ev150: value=3\n");
    for (int i = 0; i < 200; i++)
        CHECK_EQ_INT(trace_event_unregister(&calls[i]), 0);
}

/* Removal unlinks through prev, from anywhere in the list: what is left stays in
 * registration order, and the next registration goes to the end. */
TEST(unregister_anywhere_keeps_registration_order)
{
    static struct trace_event_call calls[5];
    char name[16];
    for (int i = 0; i < 5; i++) {
        snprintf(name, sizeof name, "o%d", i);
        calls[i] = make_event("order", name);
        CHECK_EQ_INT(trace_event_register(&calls[i]), 0);
    }
    CHECK_EQ_INT(trace_event_unregister(&calls[2]), 0); /* the middle */
    CHECK_EQ_INT(trace_event_unregister(&calls[4]), 0); /* the tail */
    CHECK_EQ_INT(trace_event_unregister(&calls[0]), 0); /* the head of this system's run */
    CHECK_EQ_INT(trace_event_register(&calls[2]), 0);
    const char *all = read_file("available_events");
    const char *a = strstr(all, "order:o1\n"), *b = strstr(all, "order:o3\n"),
               *c = strstr(all, "order:o2\n");
    CHECK(a && b && c && a < b && b < c);
    CHECK(strstr(all, "order:o0\n") == NULL && strstr(all, "order:o4\n") == NULL);
    for (int i = 1; i < 4; i++)
        CHECK_EQ_INT(trace_event_unregister(&calls[i]), 0);
    CHECK(strstr(read_file("available_events"), "order:") == NULL);
    CHECK_EQ_INT(trace_event_register(&calls[4]), 0); /* the list empty of them: still works */
    CHECK_EQ_INT(trace_event_unregister(&calls[4]), 0);
}

/* events/ is made as it is looked at (Linux's eventfs): a registration makes no event
 * directory and no file; the first look into events/SYSTEM makes its files and event
 * directories, and the first look into an event's directory its files. */
TEST(the_events_tree_is_made_when_looked_at)
{
    static struct trace_event_call calls[100];
    char name[16], path[64];
    for (int i = 0; i < 100; i++) {
        snprintf(name, sizeof name, "lz%d", i);
        calls[i] = make_event("lazy", name);
        CHECK_EQ_INT(trace_event_register(&calls[i]), 0);
        CHECK(calls[i].dir == NULL);
    }
    int err;
    struct fs_node *sys = tracefs_lookup("events/lazy", &err);
    CHECK(sys != NULL && fs_fill_pending(sys) && sys->children == NULL);
    /* Names are checked, and events go, without the tree. */
    struct trace_event_call twin = make_event("lazy", "lz5");
    CHECK_EQ_INT(trace_event_register(&twin), -EEXIST);
    CHECK_EQ_INT(trace_event_unregister(&calls[3]), 0);
    CHECK(fs_fill_pending(sys));
    CHECK(strstr(read_file("available_events"), "lazy:lz3\n") == NULL);
    CHECK(strstr(read_file("available_events"), "lazy:lz4\n") != NULL);
    /* One read makes the system's directories (not their files) and that event's files. */
    snprintf(path, sizeof path, "%u\n", calls[7].id);
    CHECK_EQ_STR(read_file("events/lazy/lz7/id"), path);
    CHECK(!fs_fill_pending(sys));
    unsigned dirs = 0, files = 0;
    for (struct fs_node *n = fs_children(sys); n; n = n->next)
        fs_is_dir(n) ? dirs++ : files++;
    CHECK_EQ_INT(dirs, 99);
    CHECK_EQ_INT(files, 2); /* enable, filter */
    CHECK(tracefs_lookup("events/lazy/lz3", &err) == NULL);
    CHECK(!fs_fill_pending(calls[7].dir) && fs_fill_pending(calls[8].dir));
    CHECK(calls[8].dir->children == NULL);
    CHECK_EQ_STR(read_file("events/lazy/lz8/enable"), "0\n");
    /* An event registered once the system was looked into shows at once. */
    CHECK_EQ_INT(trace_event_register(&calls[3]), 0);
    CHECK(calls[3].dir != NULL && calls[3].dir->parent == sys);
    CHECK_EQ_STR(read_file("events/lazy/enable"), "0\n");
    for (int i = 0; i < 100; i++)
        CHECK_EQ_INT(trace_event_unregister(&calls[i]), 0);
    CHECK(tracefs_lookup("events/lazy", &err) == NULL);
}

/* --- syscall tracepoints ---------------------------------------------------------------------- */

/* Registers the syscall events once and gives the writers a buffer. */
static void syscalls_ready(void)
{
    if (!trace_buf) {
        trace_syscalls_init();
        trace_buf = rb_create(&host_env, 1, 4);
        trace_recording = true;
    }
    rb_reset(trace_buf);
}

/* Prints every record in the buffer, as the `trace` file would list them. */
static const char *print_buffer(void)
{
    static union {
        uint64_t align;
        uint8_t bytes[RB_MAX_EVENT];
    } copy;
    struct rb_iter it;
    struct rb_event ev;
    static char all[4096];
    all[0] = '\0';
    rb_iter_start(trace_buf, 0, &it);
    while (rb_iter_next(&it, copy.bytes, sizeof copy, &ev)) {
        struct trace_event_view view = { (const struct trace_entry *)copy.bytes, ev.length, 0, 0 };
        collect_reset();
        trace_event_print(&collect_writer, &view);
        strcat(all, collected);
    }
    return all;
}

TEST(syscall_events_exist)
{
    syscalls_ready();
    const char *avail = read_file("available_events");
    CHECK(strstr(avail, "syscalls:sys_enter_write\nsyscalls:sys_exit_write\n") != NULL);
    CHECK(strstr(avail, "syscalls:sys_enter_getpid\nsyscalls:sys_exit_getpid\n") != NULL);
    CHECK(syscall_tracer == NULL);
}

TEST(syscall_lines_as_linux)
{
    syscalls_ready();
    CHECK_EQ_INT(write_file("set_event", "sys_enter_write sys_exit_write\n", false), 0);
    CHECK(syscall_tracer != NULL);
    const uint32_t args[6] = { 1, 0x40001000, 12, 0, 0, 0 };
    trace_syscall_enter(SYS_write, args);
    trace_syscall_exit(SYS_write, args, 12);
    trace_syscall_enter(SYS_write, args);
    trace_syscall_exit(SYS_write, args, -14);
    trace_syscall_enter(SYS_getpid, args); /* not enabled: not recorded */
    trace_syscall_enter(999, args);        /* no such call */
    CHECK_EQ_STR(print_buffer(),
                 "CTX: sys_write(fd: 1, buf: 40001000, count: c)\n"
                 "CTX: sys_write -> 0xc\n"
                 "CTX: sys_write(fd: 1, buf: 40001000, count: c)\n"
                 "CTX: sys_write -> 0xfffffff2\n");

    CHECK_EQ_INT(write_file("set_event", "syscalls:sys_enter_getpid\n", false), 0);
    rb_reset(trace_buf);
    trace_syscall_enter(SYS_getpid, args);
    trace_syscall_enter(SYS_write, args);
    CHECK_EQ_STR(print_buffer(), "CTX: sys_getpid()\n");
    CHECK_EQ_INT(write_file("events/syscalls/enable", "0\n", false), 0);
    CHECK(syscall_tracer == NULL);
}

/* raw_syscalls sees every call by number, the kernel's or not; the IPC call's operations
 * each have their own syscalls event showing the arguments after the operation. */
TEST(raw_syscalls_and_ipc_operations)
{
    syscalls_ready();
    CHECK_EQ_INT(write_file("set_event", "raw_syscalls:* syscalls:sys_enter_ipc_call\n", false),
                 0);
    CHECK(syscall_tracer != NULL);
    const uint32_t unknown[6] = { 1, 0x40001000, 12, 0, 0, 7 };
    trace_syscall_enter(999, unknown);
    trace_syscall_exit(999, unknown, -38);
    const uint32_t call[6] = { IPC_OP_CALL, 2, 0xbeff0000, 0xbeff0100, 5, 0 };
    trace_syscall_enter(SYS_tracekern_ipc, call);
    const uint32_t bad_op[6] = { 9, 2, 0, 0, 0, 0 };
    trace_syscall_enter(SYS_tracekern_ipc, bad_op); /* no such operation: raw only */
    CHECK_EQ_STR(print_buffer(),
                 "CTX: NR 999 (1, 40001000, c, 0, 0, 7)\n"
                 "CTX: NR 999 = -38\n"
                 "CTX: NR 28672 (3, 2, beff0000, beff0100, 5, 0)\n"
                 "CTX: sys_ipc_call(ep: 2, msg: beff0000, reply: beff0100, timeout_ms: 5)\n"
                 "CTX: NR 28672 (9, 2, 0, 0, 0, 0)\n");
    const char *format = read_file("events/raw_syscalls/sys_enter/format");
    CHECK(strstr(format, "\tfield:long id;\toffset:8;\tsize:4;\tsigned:1;\n"
                         "\tfield:unsigned long args[6];\toffset:12;\tsize:24;\tsigned:0;\n\n"
                         "print fmt: \"NR %ld (%lx, %lx, %lx, %lx, %lx, %lx)\", REC->id, "
                         "REC->args[0], REC->args[1], REC->args[2], REC->args[3], REC->args[4], "
                         "REC->args[5]\n") != NULL);
    CHECK(strstr(read_file("events/raw_syscalls/sys_exit/format"),
                 "\tfield:long ret;\toffset:12;\tsize:4;\tsigned:1;\n\n"
                 "print fmt: \"NR %ld = %ld\", REC->id, REC->ret\n") != NULL);
    CHECK_EQ_INT(write_file("set_event", "", false), 0);
    CHECK(syscall_tracer == NULL);
}

TEST(syscall_format_files)
{
    syscalls_ready();
    const char *common =
        "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
        "\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
        "\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
        "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
        "\n";
    char expect[2048];
    snprintf(expect, sizeof expect,
             "name: sys_enter_write\nID: %sformat:\n%s"
             "\tfield:int __syscall_nr;\toffset:8;\tsize:4;\tsigned:1;\n"
             "\tfield:unsigned int fd;\toffset:12;\tsize:4;\tsigned:0;\n"
             "\tfield:const char * buf;\toffset:16;\tsize:4;\tsigned:0;\n"
             "\tfield:size_t count;\toffset:20;\tsize:4;\tsigned:0;\n"
             "\n"
             "print fmt: \"fd: 0x%%08lx, buf: 0x%%08lx, count: 0x%%08lx\", "
             "((unsigned long)(REC->fd)), ((unsigned long)(REC->buf)), "
             "((unsigned long)(REC->count))\n",
             read_file("events/syscalls/sys_enter_write/id"), common);
    CHECK_EQ_STR(read_file("events/syscalls/sys_enter_write/format"), expect);

    snprintf(expect, sizeof expect,
             "name: sys_exit_write\nID: %sformat:\n%s"
             "\tfield:int __syscall_nr;\toffset:8;\tsize:4;\tsigned:1;\n"
             "\tfield:long ret;\toffset:12;\tsize:4;\tsigned:1;\n"
             "\n"
             "print fmt: \"0x%%lx\", REC->ret\n",
             read_file("events/syscalls/sys_exit_write/id"), common);
    CHECK_EQ_STR(read_file("events/syscalls/sys_exit_write/format"), expect);

    const char *getpid = read_file("events/syscalls/sys_enter_getpid/format");
    CHECK(strstr(getpid, "signed:1;\n\nprint fmt: \"\"\n") != NULL);
}

/* --- ids coming back ------------------------------------------------------------------------ */

/* Writes a record of event id at time ts into the buffer. */
static void write_record_at(uint64_t ts, uint16_t id)
{
    extern uint64_t host_cycles;
    host_cycles = ts;
    struct test_entry e = { { id, 0, 0, 0 }, 7 };
    CHECK(rb_write(trace_buf, &e, sizeof e));
}

/* Once every id has been given out, an id comes back only when no record in the buffer can
 * carry it: its event was unregistered before the oldest record was written. (Last in
 * this file: it uses up every id.) */
TEST(ids_come_back_only_when_no_record_can_carry_them)
{
    extern uint64_t host_cycles;
    syscalls_ready(); /* an empty buffer */
    struct trace_event_call a = make_event("reuse", "a");
    CHECK_EQ_INT(trace_event_register(&a), 0);
    uint16_t a_id = a.id;
    write_record_at(0, a_id); /* older than every unregistration */
    host_cycles = 10;
    CHECK_EQ_INT(trace_event_unregister(&a), 0);

    /* Create and delete until the ids run out: none may come back while a's record is
     * there, and a's record stays unknown rather than turning into another event. */
    struct trace_event_call b = make_event("reuse", "b");
    int err = 0, registrations = 0;
    while (registrations <= TRACE_EVENT_ID_LAST && (err = trace_event_register(&b)) == 0) {
        CHECK(b.id != a_id);
        CHECK_EQ_INT(trace_event_unregister(&b), 0);
        registrations++;
    }
    CHECK_EQ_INT(err, -ENOSPC);
    char unknown[64];
    snprintf(unknown, sizeof unknown, "CTX: [UNKNOWN EVENT %u]\n", a_id);
    CHECK_EQ_STR(print_buffer(), unknown);

    /* The record read away, the ids come back, the lowest first. */
    rb_reset(trace_buf);
    uint32_t lowest_free = TRACE_EVENT_ID_FIRST;
    while (trace_event_by_id((uint16_t)lowest_free))
        lowest_free++;
    CHECK_EQ_INT(trace_event_register(&b), 0);
    CHECK_EQ_INT(b.id, lowest_free);
    uint16_t b_id = b.id;

    /* An event deleted after the oldest record was written keeps its id out of reach. */
    write_record_at(20, b_id);
    host_cycles = 30;
    CHECK_EQ_INT(trace_event_unregister(&b), 0);
    struct trace_event_call c = make_event("reuse", "c");
    CHECK_EQ_INT(trace_event_register(&c), 0);
    CHECK(c.id != b_id);
    snprintf(unknown, sizeof unknown, "CTX: [UNKNOWN EVENT %u]\n", b_id);
    CHECK_EQ_STR(print_buffer(), unknown);
    CHECK_EQ_INT(trace_event_unregister(&c), 0);
    rb_reset(trace_buf);
}

/* --- the unused op: owners that free an event with its last user ------------------------- */

static struct trace_event_call *unused_seen[4];
static int unused_calls;

/* Unregisters the event at once, as user_events does for an unreferenced event. */
static void test_unused(struct trace_event_call *call)
{
    if (unused_calls < 4)
        unused_seen[unused_calls] = call;
    unused_calls++;
    CHECK_EQ_INT(trace_event_unregister(call), 0);
}

static const struct trace_event_ops unused_ops = { .print = test_print,
                                                   .print_format = test_format,
                                                   .unused = test_unused };

TEST(disabling_offers_the_event_to_its_owner_once_the_write_is_done)
{
    struct trace_event_call a = { .system = "gone", .ops = &unused_ops };
    strcpy(a.name, "a");
    CHECK_EQ_INT(trace_event_register(&a), 0);
    unused_calls = 0;
    CHECK_EQ_INT(write_file("events/gone/a/enable", "1\n", false), 0);
    CHECK_EQ_INT(unused_calls, 0); /* enabled: the tree holds it */
    CHECK_EQ_INT(write_file("events/gone/enable", "0\n", false), 0); /* the group file: its name goes too */
    CHECK_EQ_INT(unused_calls, 1);
    CHECK(unused_seen[0] == &a);
    int err;
    CHECK(tracefs_lookup("events/gone", &err) == NULL);
    /* trace_event_set_enabled itself offers nothing: its caller still holds the event. */
    struct trace_event_call b = { .system = "gone", .ops = &unused_ops };
    strcpy(b.name, "b");
    CHECK_EQ_INT(trace_event_register(&b), 0);
    CHECK_EQ_INT(trace_event_set_enabled(&b, true), 0);
    CHECK_EQ_INT(trace_event_set_enabled(&b, false), 0);
    CHECK_EQ_INT(unused_calls, 1);
    CHECK_EQ_INT(write_file("set_event", "\n", false), 0); /* '>' disables all: b is offered */
    CHECK_EQ_INT(unused_calls, 2);
    CHECK(tracefs_lookup("events/gone/b", &err) == NULL);
}

/* --- issue 18, triggers ------------------------------------------------------------------ */

static const struct trace_event_field value_field[] = {
    { "u32", "value", 8, 4, 0, false, TRACE_FIELD_INT },
};

/* What a tracepoint's writer does: nothing while its event is off, else reserve, fill and
 * commit. */
static void fire_event(struct trace_event_call *c, uint32_t v)
{
    if (!c->enabled)
        return;
    struct test_entry *e = (struct test_entry *)trace_event_reserve(c, sizeof *e);
    if (!e)
        return;
    e->value = v;
    trace_event_commit(c, &e->ent, sizeof *e);
}

static struct trace_event_call make_field_event(const char *name)
{
    struct trace_event_call c = make_event("trig", name);
    c.fields = value_field;
    c.nr_fields = 1;
    return c;
}

TEST(trigger_arms_a_disabled_event_and_traceoff_stops_after_its_event)
{
    syscalls_ready();
    struct trace_event_call a = make_field_event("a");
    CHECK_EQ_INT(trace_event_register(&a), 0);
    CHECK_EQ_STR(read_file("events/trig/a/trigger"),
                 "# Available triggers:\n"
                 "# traceon traceoff snapshot stacktrace enable_event disable_event hist\n");
    CHECK_EQ_INT(write_file("events/trig/a/trigger", "traceoff:1 if value == 3\n", false), 0);
    CHECK_EQ_STR(read_file("events/trig/a/trigger"), "traceoff:count=1 if value == 3\n");
    CHECK_EQ_STR(read_file("events/trig/a/enable"), "0*\n");
    CHECK(a.enabled); /* armed: the tracepoint fires */
    fire_event(&a, 1); /* soft-disabled: discarded */
    CHECK_EQ_STR(print_buffer(), "");
    CHECK_EQ_INT(write_file("events/trig/a/enable", "1", false), 0);
    CHECK_EQ_STR(read_file("events/trig/a/enable"), "1*\n");
    for (uint32_t v = 2; v <= 5; v++)
        fire_event(&a, v);
    CHECK_EQ_STR(print_buffer(), "CTX: a: value=2\nCTX: a: value=3\n");
    CHECK(!trace_recording);
    CHECK_EQ_STR(read_file("events/trig/a/trigger"), "traceoff:count=0 if value == 3\n");
    CHECK_EQ_INT(trace_event_unregister(&a), -EBUSY);
    CHECK_EQ_INT(write_file("events/trig/a/trigger", "traceon", false), -EEXIST);
    CHECK_EQ_INT(write_file("events/trig/a/trigger", "!traceon", false), 0); /* one type */
    CHECK_EQ_STR(read_file("events/trig/a/enable"), "1\n");
    CHECK_EQ_INT(write_file("events/trig/a/enable", "0", false), 0);
    CHECK(!a.enabled);
    CHECK_EQ_INT(trace_event_unregister(&a), 0);
    trace_recording = true;
}

TEST(traceon_sees_records_while_tracing_is_off)
{
    syscalls_ready();
    struct trace_event_call a = make_field_event("on");
    CHECK_EQ_INT(trace_event_register(&a), 0);
    CHECK_EQ_INT(write_file("events/trig/on/enable", "1", false), 0);
    CHECK_EQ_INT(write_file("events/trig/on/trigger", "traceon:1 if value == 2", false), 0);
    trace_recording = false;
    fire_event(&a, 1);
    fire_event(&a, 2); /* turns tracing on before its copy into the buffer */
    fire_event(&a, 3);
    CHECK(trace_recording);
    CHECK_EQ_STR(print_buffer(), "CTX: on: value=2\nCTX: on: value=3\n");
    CHECK_EQ_INT(write_file("events/trig/on/trigger", "!traceon", false), 0);
    CHECK_EQ_INT(write_file("events/trig/on/enable", "0", false), 0);
    CHECK_EQ_INT(trace_event_unregister(&a), 0);
}

TEST(enable_event_and_disable_event_with_counts)
{
    syscalls_ready();
    struct trace_event_call a = make_field_event("src"), b = make_field_event("dst");
    CHECK_EQ_INT(trace_event_register(&a), 0);
    CHECK_EQ_INT(trace_event_register(&b), 0);
    CHECK_EQ_INT(write_file("events/trig/src/enable", "1", false), 0);
    CHECK_EQ_INT(write_file("events/trig/src/trigger", "enable_event:trig:dst:1 if value == 2",
                            false), 0);
    /* On itself: recursion is only a flag. */
    CHECK_EQ_INT(write_file("events/trig/src/trigger", "disable_event:trig:src:1 if value == 4",
                            false), 0);
    CHECK_EQ_STR(read_file("events/trig/src/trigger"),
                 "disable_event:trig:src:count=1 if value == 4\n"
                 "enable_event:trig:dst:count=1 if value == 2\n");
    CHECK_EQ_STR(read_file("events/trig/dst/enable"), "0*\n");
    for (uint32_t v = 1; v <= 5; v++) {
        fire_event(&a, v);
        fire_event(&b, 10 + v);
    }
    CHECK_EQ_STR(print_buffer(), "CTX: src: value=1\nCTX: src: value=2\nCTX: dst: value=12\n"
                                 "CTX: src: value=3\nCTX: dst: value=13\nCTX: dst: value=14\n"
                                 "CTX: dst: value=15\n");
    CHECK_EQ_STR(read_file("events/trig/dst/enable"), "1*\n");
    CHECK_EQ_STR(read_file("events/trig/src/enable"), "0*\n");
    CHECK_EQ_INT(trace_event_unregister(&b), -EBUSY); /* a trigger aims at it */
    CHECK_EQ_INT(write_file("events/trig/src/trigger", "enable_event:trig:dst", false), -EEXIST);
    CHECK_EQ_INT(write_file("events/trig/src/trigger", "enable_event:trig:nosuch", false),
                 -EINVAL);
    CHECK_EQ_INT(write_file("events/trig/src/trigger", "!enable_event:trig:dst", false), 0);
    CHECK_EQ_INT(write_file("events/trig/src/trigger", "!disable_event:trig:src", false), 0);
    CHECK_EQ_STR(read_file("events/trig/dst/enable"), "1\n"); /* left on, as Linux leaves it */
    /* Soft-disabled when its last arm went: off, as Linux's trace_event_enable_disable. */
    CHECK_EQ_STR(read_file("events/trig/src/enable"), "0\n");
    CHECK(!a.enabled);
    CHECK_EQ_INT(write_file("events/trig/dst/enable", "0", false), 0);
    CHECK_EQ_INT(trace_event_unregister(&a), 0);
    CHECK_EQ_INT(trace_event_unregister(&b), 0);
}

TEST(snapshot_and_stacktrace_triggers)
{
    syscalls_ready();
    struct trace_event_call a = make_field_event("snap");
    CHECK_EQ_INT(trace_event_register(&a), 0);
    CHECK_EQ_INT(write_file("events/trig/snap/enable", "1", false), 0);
    CHECK_EQ_INT(write_file("events/trig/snap/trigger", "snapshot:2", false), 0);
    CHECK_EQ_INT(snapshot_arms, 1);
    CHECK_EQ_INT(write_file("events/trig/snap/trigger", "stacktrace if value > 1", false), 0);
    int swaps = snapshot_swaps;
    for (uint32_t v = 1; v <= 3; v++)
        fire_event(&a, v);
    CHECK_EQ_INT(snapshot_swaps - swaps, 2);
    const char *text = print_buffer();
    CHECK(strstr(text, "CTX: snap: value=3\n") != NULL);
    CHECK_EQ_STR(read_file("events/trig/snap/trigger"),
                 "stacktrace:unlimited if value > 1\nsnapshot:count=0\n");
    CHECK_EQ_INT(write_file("events/trig/snap/trigger", "!snapshot", false), 0);
    CHECK_EQ_INT(snapshot_arms, 0);
    CHECK_EQ_INT(write_file("events/trig/snap/trigger", "!stacktrace", false), 0);
    CHECK_EQ_INT(write_file("events/trig/snap/enable", "0", false), 0);
    CHECK_EQ_INT(trace_event_unregister(&a), 0);
}

TEST(malformed_triggers_are_refused_and_change_nothing)
{
    syscalls_ready();
    struct trace_event_call a = make_field_event("bad");
    CHECK_EQ_INT(trace_event_register(&a), 0);
    const char *bad[] = { "bogus", "traceon:x", "traceon if", "traceon if nosuch == 1",
                          "traceon if value ==", "enable_event", "enable_event:trig",
                          "traceon:1 when value == 1" };
    for (unsigned i = 0; i < sizeof bad / sizeof bad[0]; i++)
        CHECK_EQ_INT(write_file("events/trig/bad/trigger", bad[i], false), -EINVAL);
    CHECK_EQ_STR(read_file("events/trig/bad/enable"), "0\n");
    CHECK(!a.enabled);
    CHECK_EQ_INT(write_file("events/trig/bad/trigger", "!traceon", false), 0); /* none: fine */
    for (int i = 0; i < EVENT_TRIGGERS_MAX + 1; i++) {
        char line[64];
        snprintf(line, sizeof line, "enable_event:trig:bad:%d", i);
        /* One per target: the second is EEXIST whatever its count. */
        CHECK_EQ_INT(write_file("events/trig/bad/trigger", line, false), i == 0 ? 0 : -EEXIST);
    }
    CHECK_EQ_INT(write_file("events/trig/bad/trigger", "!enable_event:trig:bad", false), 0);
    CHECK(!a.enabled);
    CHECK_EQ_INT(trace_event_unregister(&a), 0);
}

TEST(hist_counts_by_key_and_prints_linux_table)
{
    syscalls_ready();
    struct trace_event_call a = make_field_event("h");
    CHECK_EQ_INT(trace_event_register(&a), 0);
    CHECK_EQ_STR(read_file("events/trig/h/hist"), "");
    CHECK_EQ_INT(write_file("events/trig/h/trigger", "hist:keys=value:size=128 if value != 9",
                            false), 0);
    CHECK_EQ_STR(read_file("events/trig/h/enable"), "0*\n");
    uint32_t values[] = { 3, 9, 3, 1, 3 };
    for (unsigned i = 0; i < 5; i++)
        fire_event(&a, values[i]);
    CHECK_EQ_STR(print_buffer(), ""); /* soft-disabled: counted, not recorded */
    CHECK_EQ_STR(read_file("events/trig/h/trigger"),
                 "hist:keys=value:vals=hitcount:sort=hitcount:size=128 if value != 9 [active]\n");
    CHECK_EQ_STR(read_file("events/trig/h/hist"),
                 "# event histogram\n#\n"
                 "# trigger info: hist:keys=value:vals=hitcount:sort=hitcount:size=128 if value != 9 [active]\n"
                 "#\n\n"
                 "{ value:          1 } hitcount:          1\n"
                 "{ value:          3 } hitcount:          3\n"
                 "\nTotals:\n    Hits: 4\n    Entries: 2\n    Dropped: 0\n");
    CHECK_EQ_INT(write_file("events/trig/h/trigger", "hist:keys=value", true), -EEXIST);
    /* pause, cont and clear act on the hist that counts the same way (filter included). */
    CHECK_EQ_INT(write_file("events/trig/h/trigger", "hist:keys=value:pause", true), -EEXIST);
    CHECK_EQ_INT(write_file("events/trig/h/trigger", "hist:keys=value:pause if value != 9",
                            true), 0);
    CHECK(strstr(read_file("events/trig/h/trigger"), " [paused]\n") != NULL);
    fire_event(&a, 3);
    CHECK(strstr(read_file("events/trig/h/hist"), "Hits: 4\n") != NULL);
    CHECK_EQ_INT(write_file("events/trig/h/trigger", "hist:keys=value:cont if value != 9",
                            true), 0);
    fire_event(&a, 3);
    CHECK(strstr(read_file("events/trig/h/hist"), "{ value:          3 } hitcount:          4\n"));
    CHECK_EQ_INT(write_file("events/trig/h/trigger", "hist:keys=value:clear if value != 9",
                            true), 0);
    CHECK(strstr(read_file("events/trig/h/hist"), "Hits: 0\n    Entries: 0\n") != NULL);
    CHECK_EQ_INT(write_file("events/trig/h/trigger", "hist:keys=value:vals=value:clear", true),
                 -ENOENT);
    /* A '>' write (append false) removes the event's hists first, as Linux's truncating
     * open: a clear then finds none, and a new spec replaces the one there. */
    CHECK_EQ_INT(write_file("events/trig/h/trigger", "hist:keys=value:clear if value != 9",
                            false), -ENOENT);
    CHECK_EQ_STR(read_file("events/trig/h/hist"), "");
    CHECK_EQ_INT(write_file("events/trig/h/trigger", "hist:keys=value", false), 0);
    CHECK_EQ_INT(write_file("events/trig/h/trigger", "hist:keys=value:vals=value", false), 0);
    CHECK_EQ_STR(read_file("events/trig/h/trigger"),
                 "hist:keys=value:vals=hitcount,value:sort=hitcount:size=2048 [active]\n");
    CHECK_EQ_INT(write_file("events/trig/h/trigger", "!hist:keys=value", true), 0);
    CHECK_EQ_STR(read_file("events/trig/h/hist"), "");
    CHECK_EQ_INT(write_file("events/trig/h/trigger", "hist:keys=value:clear", true), -ENOENT);
    CHECK_EQ_INT(write_file("events/trig/h/trigger", "hist:keys=nosuch", true), -EINVAL);
    CHECK(!a.enabled);
    CHECK_EQ_INT(trace_event_unregister(&a), 0);
}

/* --- issue 18, instances --------------------------------------------------------------------- */

/* The values of the test records in rb, in order, as "v1 v2 ...". */
static const char *values_in(struct ring_buffer *rb)
{
    static char all[256];
    union {
        uint64_t align;
        uint8_t bytes[RB_MAX_EVENT];
    } copy;
    struct rb_iter it;
    struct rb_event ev;
    all[0] = '\0';
    rb_iter_start(rb, 0, &it);
    while (rb_iter_next(&it, copy.bytes, sizeof copy, &ev))
        sprintf(all + strlen(all), "%s%u", all[0] ? " " : "",
                ((const struct test_entry *)copy.bytes)->value);
    return all;
}

TEST(an_event_records_into_every_array_it_is_enabled_in)
{
    syscalls_ready();
    if (!instance_bufs[1])
        instance_bufs[1] = rb_create(&host_env, 1, 4);
    rb_reset(instance_bufs[1]);
    struct fs_node *dir = fs_mkdir_at(tracefs_root(), "instances/t1");
    CHECK(dir && trace_events_create_instance_files(dir, fs_mkdir(dir, "events"), 1));
    struct trace_event_call a = make_field_event("inst");
    CHECK_EQ_INT(trace_event_register(&a), 0);

    /* In the instance only: attached, the top's view off, the fast path left. */
    CHECK_EQ_INT(write_file("instances/t1/set_event", "trig:inst", false), 0);
    CHECK(a.enabled && a.top_off && a.instances == 2 && (a.trigger_flags & TRACE_EVENT_FL_INSTANCES));
    CHECK_EQ_STR(read_file("instances/t1/set_event"), "trig:inst\n");
    CHECK_EQ_STR(read_file("events/trig/inst/enable"), "0\n");
    CHECK_EQ_STR(read_file("set_event"), "");
    fire_event(&a, 7);
    CHECK_EQ_STR(print_buffer(), "");
    CHECK_EQ_STR(values_in(instance_bufs[1]), "7");

    /* In both: each gets the record; the top's filter is the top's only. */
    CHECK_EQ_INT(write_file("events/trig/inst/enable", "1", false), 0);
    CHECK(!a.top_off);
    fire_event(&a, 8);
    CHECK_EQ_STR(print_buffer(), "CTX: inst: value=8\n");
    CHECK_EQ_STR(values_in(instance_bufs[1]), "7 8");
    CHECK_EQ_INT(write_file("events/trig/inst/filter", "value > 100", false), 0);
    fire_event(&a, 9);
    CHECK_EQ_STR(print_buffer(), "CTX: inst: value=8\n");
    CHECK_EQ_STR(values_in(instance_bufs[1]), "7 8 9");
    CHECK_EQ_INT(write_file("events/trig/inst/filter", "0", false), 0);
    /* A trigger that needs no record runs once per event, not again at the copy. */
    CHECK_EQ_INT(write_file("events/trig/inst/trigger", "snapshot:5", false), 0);
    int swaps = snapshot_swaps;
    fire_event(&a, 20);
    CHECK_EQ_INT(snapshot_swaps - swaps, 1);
    CHECK_EQ_STR(read_file("events/trig/inst/trigger"), "snapshot:count=4\n");
    CHECK_EQ_INT(write_file("events/trig/inst/trigger", "!snapshot", false), 0);
    CHECK_EQ_STR(print_buffer(), "CTX: inst: value=8\nCTX: inst: value=20\n");
    CHECK_EQ_STR(values_in(instance_bufs[1]), "7 8 9 20");

    /* Writers nested deeper than the scratch records: the fifth is recorded in the top,
     * and the instance counts it lost instead of missing it silently. */
    struct test_entry *nest[5];
    for (int i = 0; i < 5; i++) {
        nest[i] = (struct test_entry *)trace_event_reserve(&a, sizeof *nest[i]);
        CHECK(nest[i] != 0);
        nest[i]->value = 30 + (uint32_t)i;
    }
    for (int i = 4; i >= 0; i--)
        trace_event_commit(&a, &nest[i]->ent, sizeof *nest[i]);
    struct rb_stats st;
    rb_get_stats(instance_bufs[1], 0, &st);
    CHECK_EQ_INT((int)st.dropped, 1);
    CHECK_EQ_STR(values_in(instance_bufs[1]), "7 8 9 20 33 32 31 30");
    const char *nested_top = "CTX: inst: value=8\nCTX: inst: value=20\nCTX: inst: value=34\n"
                             "CTX: inst: value=33\nCTX: inst: value=32\nCTX: inst: value=31\n"
                             "CTX: inst: value=30\n";
    CHECK_EQ_STR(print_buffer(), nested_top);

    /* Off in the top: still attached for the instance, which cannot be unregistered. */
    CHECK_EQ_INT(write_file("events/trig/inst/enable", "0", false), 0);
    CHECK(a.enabled && a.top_off);
    CHECK_EQ_INT(trace_event_unregister(&a), -EBUSY);
    fire_event(&a, 10);
    CHECK_EQ_STR(print_buffer(), nested_top);
    CHECK_EQ_STR(values_in(instance_bufs[1]), "7 8 9 20 33 32 31 30 10");

    /* A trigger arms it in the top while the instance keeps it; disarmed, the instance still. */
    CHECK_EQ_INT(write_file("events/trig/inst/trigger", "traceoff:1 if value == 99", false), 0);
    CHECK_EQ_STR(read_file("events/trig/inst/enable"), "0*\n");
    fire_event(&a, 11);
    CHECK_EQ_STR(print_buffer(), nested_top);
    CHECK_EQ_STR(values_in(instance_bufs[1]), "7 8 9 20 33 32 31 30 10 11");
    CHECK_EQ_INT(write_file("events/trig/inst/trigger", "!traceoff", false), 0);
    CHECK(a.enabled && a.top_off && a.instances == 2);
    CHECK_EQ_STR(read_file("events/trig/inst/enable"), "0\n");

    /* The instance goes: the event is detached and off everywhere. */
    trace_events_instance_gone(1);
    CHECK(!a.enabled && !a.top_off && a.instances == 0 && a.trigger_flags == 0);
    fire_event(&a, 12);
    CHECK_EQ_STR(values_in(instance_bufs[1]), "7 8 9 20 33 32 31 30 10 11");
    CHECK_EQ_INT(trace_event_unregister(&a), 0);
    while (dir->children) {
        struct fs_node *n = dir->children;
        while (n->children)
            fs_remove(n->children);
        fs_remove(n);
    }
    fs_remove(dir);
}
