/*
 * sched_events.c - the sched/ events (sched_events.h): their records, fields and print
 * formats as Linux 6.1's include/trace/events/sched.h declares them for i386 (a long is 4
 * bytes), and their recorders.
 *
 * prev_state is Linux's report bits: 0 (R) for a task switched out while runnable, S for
 * a sleep, Z for a task switched out as it exits. tracekern's sleeps do not record whether
 * they are interruptible and a switch does not record whether it was a preemption, so D
 * and the "+" of a preempted task never show.
 */
#include "trace/events/sched_events.h"

#include <stddef.h>

#include "kernel/init.h"
#include "kernel/proc/task_internal.h"

#define PRIO_NORMAL 120 /* Linux's prio of a nice-0 task: every tracekern task */

/* Linux's report bits for prev_state (TASK_INTERRUPTIBLE, EXIT_ZOMBIE). */
#define STATE_INTERRUPTIBLE 0x01
#define STATE_ZOMBIE 0x20
#define STATE_REPORT_MAX 0x100 /* the bit for "preempted", printed as "+" */

/* Field lines as Linux declares them: char arrays are signed on x86; pid_t and int too. */
#define COMM_FIELD(name, off) { "char", name, off, TASK_NAME_MAX, TASK_NAME_MAX, true, TRACE_FIELD_CHARS }
#define INT_FIELD(type, name, off) { type, name, off, 4, 0, true, TRACE_FIELD_INT }

/* --- sched_switch -------------------------------------------------------------------------- */

struct switch_entry {
    struct trace_entry ent;
    char prev_comm[TASK_NAME_MAX];
    int32_t prev_pid, prev_prio, prev_state;
    char next_comm[TASK_NAME_MAX];
    int32_t next_pid, next_prio;
};

enum { SW_PREV_COMM, SW_PREV_PID, SW_PREV_PRIO, SW_PREV_STATE, SW_NEXT_COMM, SW_NEXT_PID,
       SW_NEXT_PRIO, SW_FIELDS };

static const struct trace_event_field switch_fields[SW_FIELDS] = {
    COMM_FIELD("prev_comm", offsetof(struct switch_entry, prev_comm)),
    INT_FIELD("pid_t", "prev_pid", offsetof(struct switch_entry, prev_pid)),
    INT_FIELD("int", "prev_prio", offsetof(struct switch_entry, prev_prio)),
    INT_FIELD("long", "prev_state", offsetof(struct switch_entry, prev_state)),
    COMM_FIELD("next_comm", offsetof(struct switch_entry, next_comm)),
    INT_FIELD("pid_t", "next_pid", offsetof(struct switch_entry, next_pid)),
    INT_FIELD("int", "next_prio", offsetof(struct switch_entry, next_prio)),
};

/* The state Linux's __trace_sched_switch_state() would report for t as it leaves the CPU. */
static int32_t switch_state(const struct task *t)
{
    switch (t->state) {
    case TASK_SLEEPING: return STATE_INTERRUPTIBLE;
    case TASK_ZOMBIE: return STATE_ZOMBIE;
    default: return 0;
    }
}

static void record_sched_switch(const struct task *prev, const struct task *next)
{
    struct switch_entry *e =
        tracepoint_reserve_about(&event_sched_switch, sizeof *e, next->pid);
    if (!e)
        return;
    tracepoint_copy_comm(e->prev_comm, prev->name);
    e->prev_pid = prev->pid;
    e->prev_prio = PRIO_NORMAL;
    e->prev_state = switch_state(prev);
    tracepoint_copy_comm(e->next_comm, next->name);
    e->next_pid = next->pid;
    e->next_prio = PRIO_NORMAL;
    tracepoint_commit(&event_sched_switch, e, sizeof *e);
}

static void attach_switch(bool on) { trace_hook_sched_switch = on ? record_sched_switch : 0; }

/* prev_state as Linux's print fmt shows it: the report bits' letters joined by '|', or R
 * when none is set; then '+' when the preempted bit is. */
static void print_switch_state(struct fs_writer *out, int64_t state)
{
    static const char letters[] = "SDTtXZPI"; /* bits 0x01 .. 0x80 */
    if (!(state & (STATE_REPORT_MAX - 1))) {
        fs_puts(out, "R");
    } else {
        bool first = true;
        for (unsigned bit = 0; bit < 8; bit++)
            if (state & (1 << bit)) {
                fs_printf(out, "%s%c", first ? "" : "|", letters[bit]);
                first = false;
            }
    }
    if (state & STATE_REPORT_MAX)
        fs_puts(out, "+");
}

static void print_switch(struct fs_writer *out, const struct trace_event_call *call,
                         const struct trace_event_view *ev)
{
    fs_puts(out, "prev_comm=");
    tracepoint_print_str(out, call, ev, SW_PREV_COMM);
    fs_printf(out, " prev_pid=%d prev_prio=%d prev_state=", (int)tracepoint_int(call, ev, SW_PREV_PID),
              (int)tracepoint_int(call, ev, SW_PREV_PRIO));
    print_switch_state(out, tracepoint_int(call, ev, SW_PREV_STATE));
    fs_puts(out, " ==> next_comm=");
    tracepoint_print_str(out, call, ev, SW_NEXT_COMM);
    fs_printf(out, " next_pid=%d next_prio=%d", (int)tracepoint_int(call, ev, SW_NEXT_PID),
              (int)tracepoint_int(call, ev, SW_NEXT_PRIO));
}

/* Linux 6.1's TASK_REPORT, TASK_REPORT_MAX and TASK_REPORT_MAX - 1 expanded as its format
 * file shows them. */
#define REPORT "(0x00000000 | 0x00000001 | 0x00000002 | 0x00000004 | 0x00000008 | 0x00000010 | 0x00000020 | 0x00000040)"
#define REPORT_MAX "((" REPORT " + 1) << 1)"
#define REPORT_MASK "(" REPORT_MAX " - 1)"

static const struct tracepoint_info switch_info = {
    "\"prev_comm=%s prev_pid=%d prev_prio=%d prev_state=%s%s ==> next_comm=%s next_pid=%d "
    "next_prio=%d\", REC->prev_comm, REC->prev_pid, REC->prev_prio, (REC->prev_state & "
    REPORT_MASK ") ? __print_flags(REC->prev_state & " REPORT_MASK ", \"|\", { 0x00000001, "
    "\"S\" }, { 0x00000002, \"D\" }, { 0x00000004, \"T\" }, { 0x00000008, \"t\" }, { "
    "0x00000010, \"X\" }, { 0x00000020, \"Z\" }, { 0x00000040, \"P\" }, { 0x00000080, "
    "\"I\" }) : \"R\", REC->prev_state & " REPORT_MAX " ? \"+\" : \"\", REC->next_comm, "
    "REC->next_pid, REC->next_prio",
    print_switch,
    attach_switch,
};

struct trace_event_call event_sched_switch = {
    .system = "sched", .name = "sched_switch", .ops = &tracepoint_ops,
    .data = (void *)&switch_info, .fields = switch_fields, .nr_fields = SW_FIELDS,
};

/* --- sched_wakeup, sched_wakeup_new ------------------------------------------------------- */

struct wakeup_entry {
    struct trace_entry ent;
    char comm[TASK_NAME_MAX];
    int32_t pid, prio, target_cpu;
};

enum { WK_COMM, WK_PID, WK_PRIO, WK_TARGET_CPU, WK_FIELDS };

static const struct trace_event_field wakeup_fields[WK_FIELDS] = {
    COMM_FIELD("comm", offsetof(struct wakeup_entry, comm)),
    INT_FIELD("pid_t", "pid", offsetof(struct wakeup_entry, pid)),
    INT_FIELD("int", "prio", offsetof(struct wakeup_entry, prio)),
    INT_FIELD("int", "target_cpu", offsetof(struct wakeup_entry, target_cpu)),
};

/* One sched_wakeup or sched_wakeup_new record (the same fields). */
static void record_wakeup(struct trace_event_call *call, const struct task *t)
{
    struct wakeup_entry *e = tracepoint_reserve_about(call, sizeof *e, t->pid);
    if (!e)
        return;
    tracepoint_copy_comm(e->comm, t->name);
    e->pid = t->pid;
    e->prio = PRIO_NORMAL;
    e->target_cpu = (int32_t)task_cpu(t); /* the CPU it was queued on */
    tracepoint_commit(call, e, sizeof *e);
}

static void record_sched_wakeup(const struct task *t) { record_wakeup(&event_sched_wakeup, t); }

static void record_sched_wakeup_new(const struct task *t)
{
    record_wakeup(&event_sched_wakeup_new, t);
}

static void attach_wakeup(bool on) { trace_hook_sched_wakeup = on ? record_sched_wakeup : 0; }

static void attach_wakeup_new(bool on)
{
    trace_hook_sched_wakeup_new = on ? record_sched_wakeup_new : 0;
}

static void print_wakeup(struct fs_writer *out, const struct trace_event_call *call,
                         const struct trace_event_view *ev)
{
    fs_puts(out, "comm=");
    tracepoint_print_str(out, call, ev, WK_COMM);
    fs_printf(out, " pid=%d prio=%d target_cpu=%03d", (int)tracepoint_int(call, ev, WK_PID),
              (int)tracepoint_int(call, ev, WK_PRIO),
              (int)tracepoint_int(call, ev, WK_TARGET_CPU));
}

#define WAKEUP_FMT "\"comm=%s pid=%d prio=%d target_cpu=%03d\", REC->comm, REC->pid, " \
                   "REC->prio, REC->target_cpu"

static const struct tracepoint_info wakeup_info = { WAKEUP_FMT, print_wakeup, attach_wakeup };
static const struct tracepoint_info wakeup_new_info = { WAKEUP_FMT, print_wakeup,
                                                        attach_wakeup_new };

struct trace_event_call event_sched_wakeup = {
    .system = "sched", .name = "sched_wakeup", .ops = &tracepoint_ops,
    .data = (void *)&wakeup_info, .fields = wakeup_fields, .nr_fields = WK_FIELDS,
};

struct trace_event_call event_sched_wakeup_new = {
    .system = "sched", .name = "sched_wakeup_new", .ops = &tracepoint_ops,
    .data = (void *)&wakeup_new_info, .fields = wakeup_fields, .nr_fields = WK_FIELDS,
};

/* --- sched_process_fork ------------------------------------------------------------------- */

struct fork_entry {
    struct trace_entry ent;
    char parent_comm[TASK_NAME_MAX];
    int32_t parent_pid;
    char child_comm[TASK_NAME_MAX];
    int32_t child_pid;
};

enum { FK_PARENT_COMM, FK_PARENT_PID, FK_CHILD_COMM, FK_CHILD_PID, FK_FIELDS };

static const struct trace_event_field fork_fields[FK_FIELDS] = {
    COMM_FIELD("parent_comm", offsetof(struct fork_entry, parent_comm)),
    INT_FIELD("pid_t", "parent_pid", offsetof(struct fork_entry, parent_pid)),
    COMM_FIELD("child_comm", offsetof(struct fork_entry, child_comm)),
    INT_FIELD("pid_t", "child_pid", offsetof(struct fork_entry, child_pid)),
};

static void record_sched_process_fork(const struct task *parent, const struct task *child)
{
    struct fork_entry *e = tracepoint_reserve(&event_sched_process_fork, sizeof *e);
    if (!e)
        return;
    tracepoint_copy_comm(e->parent_comm, parent->name);
    e->parent_pid = parent->pid;
    tracepoint_copy_comm(e->child_comm, child->name);
    e->child_pid = child->pid;
    tracepoint_commit(&event_sched_process_fork, e, sizeof *e);
}

static void attach_fork(bool on)
{
    trace_hook_sched_process_fork = on ? record_sched_process_fork : 0;
}

static void print_fork(struct fs_writer *out, const struct trace_event_call *call,
                       const struct trace_event_view *ev)
{
    fs_puts(out, "comm=");
    tracepoint_print_str(out, call, ev, FK_PARENT_COMM);
    fs_printf(out, " pid=%d child_comm=", (int)tracepoint_int(call, ev, FK_PARENT_PID));
    tracepoint_print_str(out, call, ev, FK_CHILD_COMM);
    fs_printf(out, " child_pid=%d", (int)tracepoint_int(call, ev, FK_CHILD_PID));
}

static const struct tracepoint_info fork_info = {
    "\"comm=%s pid=%d child_comm=%s child_pid=%d\", REC->parent_comm, REC->parent_pid, "
    "REC->child_comm, REC->child_pid",
    print_fork,
    attach_fork,
};

struct trace_event_call event_sched_process_fork = {
    .system = "sched", .name = "sched_process_fork", .ops = &tracepoint_ops,
    .data = (void *)&fork_info, .fields = fork_fields, .nr_fields = FK_FIELDS,
};

/* --- sched_process_exec ------------------------------------------------------------------- */

struct exec_entry {
    struct trace_entry ent;
    uint32_t filename; /* __data_loc: the string follows the fixed part */
    int32_t pid, old_pid;
};

enum { EX_FILENAME, EX_PID, EX_OLD_PID, EX_FIELDS };

static const struct trace_event_field exec_fields[EX_FIELDS] = {
    { "char", "filename", offsetof(struct exec_entry, filename), 4, 0, true, TRACE_FIELD_DATA_LOC },
    INT_FIELD("pid_t", "pid", offsetof(struct exec_entry, pid)),
    INT_FIELD("pid_t", "old_pid", offsetof(struct exec_entry, old_pid)),
};

static void record_sched_process_exec(const struct task *t, const char *filename, int old_pid)
{
    uint32_t size = (uint32_t)sizeof(struct exec_entry) + tracepoint_string_size(filename);
    struct exec_entry *e = tracepoint_reserve(&event_sched_process_exec, size);
    if (!e)
        return;
    tracepoint_put_string(e, &e->filename, sizeof *e, filename);
    e->pid = t->pid;
    e->old_pid = old_pid;
    tracepoint_commit(&event_sched_process_exec, e, size);
}

static void attach_exec(bool on)
{
    trace_hook_sched_process_exec = on ? record_sched_process_exec : 0;
}

static void print_exec(struct fs_writer *out, const struct trace_event_call *call,
                       const struct trace_event_view *ev)
{
    fs_puts(out, "filename=");
    tracepoint_print_str(out, call, ev, EX_FILENAME);
    fs_printf(out, " pid=%d old_pid=%d", (int)tracepoint_int(call, ev, EX_PID),
              (int)tracepoint_int(call, ev, EX_OLD_PID));
}

static const struct tracepoint_info exec_info = {
    "\"filename=%s pid=%d old_pid=%d\", __get_str(filename), REC->pid, REC->old_pid",
    print_exec,
    attach_exec,
};

struct trace_event_call event_sched_process_exec = {
    .system = "sched", .name = "sched_process_exec", .ops = &tracepoint_ops,
    .data = (void *)&exec_info, .fields = exec_fields, .nr_fields = EX_FIELDS,
};

/* --- sched_process_exit, sched_process_wait (Linux's sched_process_template) ---------------- */

struct process_entry {
    struct trace_entry ent;
    char comm[TASK_NAME_MAX];
    int32_t pid, prio;
};

enum { PR_COMM, PR_PID, PR_PRIO, PR_FIELDS };

static const struct trace_event_field process_fields[PR_FIELDS] = {
    COMM_FIELD("comm", offsetof(struct process_entry, comm)),
    INT_FIELD("pid_t", "pid", offsetof(struct process_entry, pid)),
    INT_FIELD("int", "prio", offsetof(struct process_entry, prio)),
};

/* One sched_process_template record: comm and prio of t, and pid. */
static void record_process(struct trace_event_call *call, const struct task *t, int pid)
{
    struct process_entry *e = tracepoint_reserve(call, sizeof *e);
    if (!e)
        return;
    tracepoint_copy_comm(e->comm, t->name);
    e->pid = pid;
    e->prio = PRIO_NORMAL;
    tracepoint_commit(call, e, sizeof *e);
}

static void record_sched_process_exit(const struct task *t)
{
    record_process(&event_sched_process_exit, t, t->pid);
}

static void record_sched_process_wait(const struct task *waiter, int pid)
{
    record_process(&event_sched_process_wait, waiter, pid);
}

static void attach_exit(bool on)
{
    trace_hook_sched_process_exit = on ? record_sched_process_exit : 0;
}

static void attach_wait(bool on)
{
    trace_hook_sched_process_wait = on ? record_sched_process_wait : 0;
}

static void print_process(struct fs_writer *out, const struct trace_event_call *call,
                          const struct trace_event_view *ev)
{
    fs_puts(out, "comm=");
    tracepoint_print_str(out, call, ev, PR_COMM);
    fs_printf(out, " pid=%d prio=%d", (int)tracepoint_int(call, ev, PR_PID),
              (int)tracepoint_int(call, ev, PR_PRIO));
}

#define PROCESS_FMT "\"comm=%s pid=%d prio=%d\", REC->comm, REC->pid, REC->prio"

static const struct tracepoint_info exit_info = { PROCESS_FMT, print_process, attach_exit };
static const struct tracepoint_info wait_info = { PROCESS_FMT, print_process, attach_wait };

struct trace_event_call event_sched_process_exit = {
    .system = "sched", .name = "sched_process_exit", .ops = &tracepoint_ops,
    .data = (void *)&exit_info, .fields = process_fields, .nr_fields = PR_FIELDS,
};

struct trace_event_call event_sched_process_wait = {
    .system = "sched", .name = "sched_process_wait", .ops = &tracepoint_ops,
    .data = (void *)&wait_info, .fields = process_fields, .nr_fields = PR_FIELDS,
};

/* --- sched_migrate_task ------------------------------------------------------------------- */

struct migrate_entry {
    struct trace_entry ent;
    char comm[TASK_NAME_MAX];
    int32_t pid, prio, orig_cpu, dest_cpu;
};

enum { MG_COMM, MG_PID, MG_PRIO, MG_ORIG_CPU, MG_DEST_CPU, MG_FIELDS };

static const struct trace_event_field migrate_fields[MG_FIELDS] = {
    COMM_FIELD("comm", offsetof(struct migrate_entry, comm)),
    INT_FIELD("pid_t", "pid", offsetof(struct migrate_entry, pid)),
    INT_FIELD("int", "prio", offsetof(struct migrate_entry, prio)),
    INT_FIELD("int", "orig_cpu", offsetof(struct migrate_entry, orig_cpu)),
    INT_FIELD("int", "dest_cpu", offsetof(struct migrate_entry, dest_cpu)),
};

static void record_sched_migrate_task(const struct task *t, unsigned from, unsigned to)
{
    struct migrate_entry *e = tracepoint_reserve_about(&event_sched_migrate_task, sizeof *e, t->pid);
    if (!e)
        return;
    tracepoint_copy_comm(e->comm, t->name);
    e->pid = t->pid;
    e->prio = PRIO_NORMAL;
    e->orig_cpu = (int32_t)from;
    e->dest_cpu = (int32_t)to;
    tracepoint_commit(&event_sched_migrate_task, e, sizeof *e);
}

static void attach_migrate(bool on)
{
    trace_hook_sched_migrate_task = on ? record_sched_migrate_task : 0;
}

static void print_migrate(struct fs_writer *out, const struct trace_event_call *call,
                          const struct trace_event_view *ev)
{
    fs_puts(out, "comm=");
    tracepoint_print_str(out, call, ev, MG_COMM);
    fs_printf(out, " pid=%d prio=%d orig_cpu=%d dest_cpu=%d", (int)tracepoint_int(call, ev, MG_PID),
              (int)tracepoint_int(call, ev, MG_PRIO), (int)tracepoint_int(call, ev, MG_ORIG_CPU),
              (int)tracepoint_int(call, ev, MG_DEST_CPU));
}

static const struct tracepoint_info migrate_info = {
    "\"comm=%s pid=%d prio=%d orig_cpu=%d dest_cpu=%d\", REC->comm, REC->pid, REC->prio, "
    "REC->orig_cpu, REC->dest_cpu",
    print_migrate,
    attach_migrate,
};

struct trace_event_call event_sched_migrate_task = {
    .system = "sched", .name = "sched_migrate_task", .ops = &tracepoint_ops,
    .data = (void *)&migrate_info, .fields = migrate_fields, .nr_fields = MG_FIELDS,
};

static void sched_events_init(void)
{
    tracepoint_register(&event_sched_switch);
    tracepoint_register(&event_sched_wakeup);
    tracepoint_register(&event_sched_wakeup_new);
    tracepoint_register(&event_sched_process_fork);
    tracepoint_register(&event_sched_process_exec);
    tracepoint_register(&event_sched_process_exit);
    tracepoint_register(&event_sched_process_wait);
    tracepoint_register(&event_sched_migrate_task);
}
INITCALL(trace, sched_events_init);
