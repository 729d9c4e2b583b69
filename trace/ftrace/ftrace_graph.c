/*
 * ftrace_graph.c - the function_graph tracer and the function profiler.
 *
 * Both need to know when a traced function returns, so both hijack its return address: at
 * entry the real return address (in the caller) is saved on the return stack and replaced by
 * return_to_handler (arch/x86/ftrace_entry.asm). When the function returns there, the
 * entry is popped, the return is recorded, and execution jumps to the real address.
 *
 * The frame pointer is saved at entry and compared at return (Linux's
 * HAVE_FUNCTION_GRAPH_FP_TEST): the caller's frame pointer is the same at both moments in a
 * correct program. If it is not, the return stack and the real stack disagree, and jumping
 * to the saved address could be jumping anywhere: graph tracing stops and the kernel panics
 * with a report instead.
 *
 * Leaf calls are found while writing, not while printing: an entry is held back (pending)
 * until the function calls something traced; a function that returns with its entry still
 * pending becomes one TRACE_GRAPH_LEAF record, "func();" in the output. So `trace` and
 * `trace_pipe` print the same lines, and no reader needs to look ahead.
 *
 * Controls (Linux's): set_graph_notrace leaves a function and all it calls out (its entry
 * stays on the return stack, marked, so that what it calls is skipped until it returns);
 * max_graph_depth graphs calls only that deep; tracing_thresh (µs) records no entries and
 * only the returns of calls that took at least that long; options/funcgraph-irqs off
 * leaves out what runs in interrupt handlers. Printing options are ftrace_output.c's.
 *
 * The return stack is one per task (interrupt handlers nest on the one of the task they
 * interrupt, in order, since they return before the code they interrupted continues). Each
 * CPU reaches the stack of the task it runs through its own ftrace_cpu_state[] slot
 * (switched with the task on that CPU), so a task that migrates takes its stack along; a
 * CPU's boot or idle context that has no task of its own uses that CPU's context stack.
 *
 * The hot path (docs/ftrace.md section 10 counts it): while graph_plain says no control
 * is set, the entry pushes and hijacks and the return writes one record, each with one
 * test for all the controls; everything else is graph_entry_general's and
 * graph_return_general's. The two handlers the trampolines call are in
 * ftrace_graph_handler.c, built to save no register (Makefile, FTRACE_HANDLER_C); what
 * they share with this file is in ftrace_graph_internal.h.
 *
 * SMP: everything the hot path writes is per CPU (the return stack by way of the task,
 * the overrun count, the profile's counters), each in cache lines of its own. The
 * profile is per CPU, as Linux's trace_stat/function<cpu>, and trace_stat/functions sums
 * the CPUs.
 */
#include "kernel/fs/fs_layout.h"
#include "kernel/arch.h"
#include "kernel/lib/errno.h"
#include "kernel/mm/heap.h"
#include "kernel/panic.h"
#include "kernel/log/printk.h"
#include "kernel/proc/task_internal.h"
#include "kernel/lib/string.h"
#include "kernel/smp.h"
#include "kernel/spinlock.h"
#include "kernel/time.h"
#include "trace/ftrace/ftrace_graph_internal.h"
#include "trace/core/trace_internal.h"


static void graph_stack_init(struct graph_stack *gs)
{
    gs->next = gs->e;
    gs->bottom = (struct ret_entry){ .depth = -1 };
}

struct graph_stack graph_context_stack[MAX_CPUS]; /* ftrace_graph_internal.h */


static bool graph_recording;    /* function_graph is the current tracer */
bool graph_broken;              /* a frame-pointer mismatch stopped it */
static uint32_t graph_max_depth; /* max_graph_depth: 0 is no limit */
static uint32_t graph_thresh_us; /* tracing_thresh: 0 is off */
static bool graph_irqs = true;  /* options/funcgraph-irqs */
/* function_graph records every call and nothing else asks for anything: no
 * set_graph_function, set_graph_notrace, max_graph_depth, tracing_thresh, funcgraph-irqs
 * off, profiler, broken frame. Entry and return then test this alone, and the rest is
 * graph_entry_general's and graph_return_general's. graph_controls_changed keeps it. */
bool graph_plain;

/* Per-function profile (function_profile_enabled), indexed like ftrace_sites: one array
 * per CPU, each starting on a cache line of its own, so CPUs never write the same line. */
struct profile {
    uint32_t hits;
    uint64_t time_ns;
    uint64_t time_sq_us; /* sum of squared durations in us^2, for the variance */
};
static struct profile *profile[MAX_CPUS]; /* NULL: that CPU was not online when enabled */
static bool profiling;

/* Serializes the recomputations of graph_plain: the last one reads every control as it
 * was written, whichever file was written on whichever CPU. */
static struct spinlock graph_plain_lock = SPINLOCK_INIT("graph_plain");

/* Recomputes graph_plain after any of its controls changed. A call on another CPU at that
 * moment follows the controls as they were or as they are. */
static void graph_controls_changed(void)
{
    unsigned long flags = spin_lock_irqsave(&graph_plain_lock);
    graph_plain = graph_recording && !graph_broken && !profiling &&
                  ftrace_graph_filter.count == 0 && ftrace_graph_notrace.count == 0 &&
                  graph_max_depth == 0 && graph_thresh_us == 0 && graph_irqs;
    spin_unlock_irqrestore(&graph_plain_lock, flags);
}

void ftrace_graph_controls_changed(void) { graph_controls_changed(); }

/* --- records --------------------------------------------------------------------------- */

/* Both with interrupts off on cpu (this CPU, read once by the entry or return hook); the
 * records show the traced code's interrupt flag, RET_IRQS. */
void graph_write_entry(unsigned cpu, const struct ret_entry *e)
{
    struct ftrace_graph_entry *r = (struct ftrace_graph_entry *)trace_reserve_cpu(
        cpu, TRACE_GRAPH_ENT, sizeof *r, e->state & RET_IRQS);
    if (!r)
        return;
    r->func = e->func;
    r->depth = e->depth;
    r->calltime = e->calltime;
    trace_commit_cpu(cpu);
}


/* --- entry and return ------------------------------------------------------------------ */

/* A call not followed: the return stack was full. */
__attribute__((noinline)) void graph_overrun(unsigned cpu)
{
    ftrace_cpu_state[cpu].ret_overrun++;
}


/* Whether function ip (under the entry on top of the stack) is to be graphed:
 * set_graph_function empty, or ip in it, or called from inside one that is. */
static bool graph_wanted(const struct graph_stack *gs, uint32_t ip, bool *inside)
{
    if (ftrace_graph_filter.count == 0) {
        *inside = true;
        return true;
    }
    int i = ftrace_site_index(ip);
    *inside = (stack_top(gs)->state & RET_INSIDE) ||
              (i >= 0 && ftrace_func_set_has(&ftrace_graph_filter, (uint32_t)i));
    return *inside;
}

/* Whether function ip starts a set_graph_notrace subtree. */
static bool graph_notrace(uint32_t ip)
{
    if (ftrace_graph_notrace.count == 0)
        return false;
    int i = ftrace_site_index(ip);
    return i >= 0 && ftrace_func_set_has(&ftrace_graph_notrace, (uint32_t)i);
}

/* The entry when graph_plain is not set: the profiler's count, set_graph_function,
 * set_graph_notrace (a call under such a function stays on the stack, marked, without
 * being graphed, so that what it calls is skipped until it returns; without the profiler
 * nothing at all is done for a call under it), max_graph_depth, funcgraph-irqs off and
 * tracing_thresh (no entries: the pending mark stays off). */
__attribute__((noinline)) void graph_entry_general(unsigned cpu, struct ftrace_frame *f)
{
    if (graph_broken)
        return;
    uint32_t ip = ftrace_frame_ip(f);
    struct graph_stack *gs = this_stack(cpu);
    if (profiling && profile[cpu]) {
        int site = ftrace_site_index(ip);
        if (site >= 0)
            profile[cpu][site].hits++;
    }
    bool inside = false;
    bool record = graph_recording && graph_wanted(gs, ip, &inside);
    bool under_notrace = stack_top(gs)->state & RET_NOTRACE;
    if (under_notrace && !profiling)
        return;
    bool notrace = under_notrace || (graph_recording && graph_notrace(ip));
    record = record && !notrace &&
             (graph_max_depth == 0 || (uint32_t)stack_depth(gs) < graph_max_depth) &&
             (graph_irqs || !arch_in_hardirq_on(cpu));
    if (!record && !profiling && !notrace)
        return;
    uint32_t state = (record && graph_thresh_us == 0 ? RET_PENDING : 0) | /* thresh: returns only */
                     (record && inside ? RET_INSIDE : 0) | (notrace ? RET_NOTRACE : 0);
    graph_push(cpu, gs, f, state, record);
}


void ftrace_graph_entry(unsigned cpu, struct ftrace_frame *f) { graph_entry(cpu, f); }


/* tracing_thresh: whether the call of e, returning now, took at least that long. */
static bool graph_long_enough(const struct ret_entry *e, uint64_t now)
{
    return time_cycles_to_ns(now) - time_cycles_to_ns(e->calltime) >= graph_thresh_us * 1000ull;
}

/* The return when graph_plain is not set: graphed calls (a leaf when its entry is still
 * pending; with tracing_thresh, only a call that took at least that long), and the
 * profiler's time. */
__attribute__((noinline)) void graph_return_general(unsigned cpu, const struct ret_entry *e)
{
    uint64_t now = arch_cycles();
    if (graph_recording && (e->state & (RET_PENDING | RET_INSIDE)) &&
        (graph_thresh_us == 0 || graph_long_enough(e, now)))
        write_return(cpu, e, e->state & RET_IRQS, now);
    if (profiling && profile[cpu]) {
        int site = ftrace_site_index(e->func);
        if (site >= 0) {
            uint64_t ns = time_cycles_to_ns(now) - time_cycles_to_ns(e->calltime), us = ns / 1000;
            profile[cpu][site].time_ns += ns;
            profile[cpu][site].time_sq_us += us * us;
        }
    }
}


/* The unwinder's unwind: pops the entries whose return slot lies below sp. */
static void graph_unwind(uintptr_t sp)
{
    unsigned long flags = arch_irq_save();
    struct graph_stack *gs = this_stack(arch_cpu_id());
    while (gs->next != gs->e && (uintptr_t)gs->next[-1].slot < sp)
        gs->next--;
    arch_irq_restore(flags);
}

/* The unwinder's real_return: the k-th entry from the top of the running task's stack. */
static uintptr_t graph_real_return(int k)
{
    unsigned long flags = arch_irq_save();
    const struct graph_stack *gs = this_stack(arch_cpu_id());
    int i = stack_depth(gs) - 1 - k;
    uintptr_t ret = i >= 0 ? gs->e[i].ret : 0;
    arch_irq_restore(flags);
    return ret;
}

/* Installed at boot and never removed: returns hijacked while the tracer was on stay on
 * the stacks of sleeping tasks after it is switched off. */
static const struct ftrace_graph_unwinder graph_unwinder = { graph_real_return, graph_unwind };

/* A new task gets an empty return stack of its own. A task without a kernel stack of its
 * own (the boot task, a CPU's idle task: they run on their CPU's boot stack and never
 * migrate) gets none: it keeps using its CPU's context stack (this_stack). */
static int graph_stack_create(struct task *t)
{
    if (!t->kstack) {
        t->graph_stack = 0;
        return 0;
    }
    struct graph_stack *gs = kzalloc(sizeof *gs);
    if (!gs)
        return -ENOMEM;
    graph_stack_init(gs);
    t->graph_stack = gs;
    return 0;
}

static void graph_stack_release(struct task *t)
{
    kfree(t->graph_stack);
    t->graph_stack = 0;
}

static struct task_create_hook graph_stack_hook = { graph_stack_create, graph_stack_release, 0 };

/* --- the tracer -------------------------------------------------------------------------- */

static int graph_init(void)
{
    if (graph_broken)
        return -EIO;
    graph_recording = true;
    graph_controls_changed();
    ftrace_set_user(FTRACE_USER_GRAPH, true);
    return 0;
}

static void graph_reset(void)
{
    graph_recording = false;
    graph_controls_changed();
    ftrace_set_user(FTRACE_USER_GRAPH, false);
}

/* Prints a graph record, its times in nanoseconds (converted on a copy). */
static bool graph_print(struct fs_writer *out, const struct trace_event_view *ev)
{
    uint16_t type = ev->entry->type;
    uint32_t size = type == TRACE_GRAPH_ENT ? sizeof(struct ftrace_graph_entry)
                                            : sizeof(struct ftrace_graph_return);
    if ((type != TRACE_GRAPH_ENT && type != TRACE_GRAPH_RET && type != TRACE_GRAPH_LEAF) ||
        ev->length < size)
        return false;
    union {
        struct ftrace_graph_entry call;
        struct ftrace_graph_return ret;
    } r;
    memcpy(&r, ev->entry, size);
    trace_record_cycles_to_ns(&r, size);
    struct trace_event_view v = { &r.call.ent, size, ev->ts, ev->cpu };
    ftrace_print_graph(out, &v);
    return true;
}

static struct tracer graph_tracer = {
    .name = "function_graph",
    .init = graph_init,
    .reset = graph_reset,
    .print_header = ftrace_print_graph_header,
    .print_event = graph_print,
    .entry_size = sizeof(struct ftrace_graph_return),
};

/* --- the profiler -------------------------------------------------------------------------- */

static bool profile_get(void) { return profiling; }

static const struct fs_file_ops profile_ops;
static struct fs_node *profile_dir; /* trace_stat/ */
static bool profile_file_made[MAX_CPUS];

/* Makes trace_stat/function<cpu> if it is not there yet. */
static void profile_file(unsigned cpu)
{
    if (profile_file_made[cpu])
        return;
    char name[16] = "function";
    size_t n = strlen(name);
    if (cpu >= 10)
        name[n++] = (char)('0' + cpu / 10);
    name[n++] = (char)('0' + cpu % 10);
    name[n] = '\0';
    profile_file_made[cpu] =
        fs_create(profile_dir, name, &profile_ops, (void *)(uintptr_t)(cpu + 1)) != 0;
}

/* Gives cpu its counters (on a cache line of their own; kept once made) and its file:
 * false without memory. */
static bool profile_cpu_ready(unsigned cpu)
{
    if (!profile[cpu]) {
        char *raw = kzalloc(ftrace_sites.count * sizeof(struct profile) + 64);
        if (!raw)
            return false;
        profile[cpu] = (struct profile *)(((uintptr_t)raw + 63) & ~(uintptr_t)63);
    }
    profile_file(cpu);
    return true;
}

/* Turning it on starts counting from zero, as Linux does, on every CPU online now. */
static void profile_set(bool on)
{
    if (on == profiling)
        return;
    if (on) {
        for (unsigned cpu = 0; cpu < arch_cpu_count() && cpu < MAX_CPUS; cpu++) {
            if (!profile_cpu_ready(cpu))
                return;
            memset(profile[cpu], 0, ftrace_sites.count * sizeof(struct profile));
        }
    }
    profiling = on;
    graph_controls_changed();
    ftrace_set_user(FTRACE_USER_PROFILE, on);
}

static const struct trace_flag profile_flag = { .get = profile_get, .set = profile_set };

/* Prints ns as Linux's profile does: microseconds with three decimals. */
static void print_us(struct fs_writer *out, uint64_t ns)
{
    fs_printf(out, "%9llu.%03u us", (unsigned long long)(ns / 1000), (unsigned)(ns % 1000));
}

/* Function i's counts: one CPU's (cpu < MAX_CPUS) or every CPU's summed. Read while the
 * CPUs count: each number is one that was true a moment ago. */
static struct profile profile_of(unsigned cpu, uint32_t i)
{
    struct profile sum = { 0, 0, 0 };
    for (unsigned c = 0; c < MAX_CPUS; c++) {
        if (!profile[c] || (cpu < MAX_CPUS && c != cpu))
            continue;
        sum.hits += profile[c][i].hits;
        sum.time_ns += profile[c][i].time_ns;
        sum.time_sq_us += profile[c][i].time_sq_us;
    }
    return sum;
}

/* trace_stat/function<cpu> (f->data is cpu + 1) and trace_stat/functions (0: every CPU
 * summed): the functions hit, most total time first, as Linux prints it. */
static int read_profile(struct fs_node *f, struct fs_writer *out)
{
    unsigned cpu = f->data ? (unsigned)(uintptr_t)f->data - 1 : MAX_CPUS;
    fs_puts(out, "  Function                               Hit    Time            Avg             s^2\n"
                 "  --------                               ---    ----            ---             ---\n");
    /* Selection by total time, without sorting memory: each round prints the largest not
     * yet printed. Hit functions are few compared with all sites. */
    uint64_t last = UINT64_MAX;
    int last_index = -1;
    for (;;) {
        int best = -1;
        struct profile bp = { 0, 0, 0 };
        for (uint32_t i = 0; i < ftrace_sites.count; i++) {
            struct profile p = profile_of(cpu, i);
            if (!p.hits)
                continue;
            uint64_t t = p.time_ns;
            bool after_last = t < last || (t == last && (int)i > last_index);
            if (after_last && (best < 0 || t > bp.time_ns)) {
                best = (int)i;
                bp = p;
            }
        }
        if (best < 0 || out->interrupted(out))
            break;
        const struct profile *p = &bp;
        const char *name = symbol_lookup(kernel_symbols(), ftrace_sites.addr[best], 0, 0);
        uint64_t avg = p->time_ns / p->hits;
        uint64_t avg_us = avg / 1000;
        uint64_t mean_sq = p->hits * avg_us * avg_us;
        uint64_t var = p->hits > 1 && p->time_sq_us > mean_sq
                           ? (p->time_sq_us - mean_sq) / (p->hits - 1) : 0;
        fs_printf(out, "  %-30s %10u    ", name ? name : "?", p->hits);
        print_us(out, p->time_ns);
        fs_puts(out, "     ");
        print_us(out, avg);
        fs_printf(out, "     %llu us\n", (unsigned long long)var);
        last = p->time_ns;
        last_index = best;
    }
    return 0;
}

static const struct fs_file_ops profile_ops = { .read = read_profile };

/* --- the controls: max_graph_depth, tracing_thresh, options/funcgraph-irqs ---------------- */

/* max_graph_depth and tracing_thresh (microseconds, as Linux's tracing_nsecs_read/_write
 * show and take them): "%u", as Linux's. f->data is the uint32_t the file holds. */
static int read_u32_control(struct fs_node *f, struct fs_writer *out)
{
    fs_printf(out, "%u\n", *(const uint32_t *)f->data);
    return 0;
}

/* Takes what i386 Linux's kstrtoul_from_user(..., 10) takes: a number an unsigned long (32
 * bits) holds; past it -ERANGE, kstrtoul's answer. A refused write changes nothing. */
static int write_u32_control(struct fs_node *f, const char *data, size_t len, bool append)
{
    (void)append;
    uint64_t v;
    int err = parse_kstrtoul_user(data, len, &v);
    if (err)
        return err;
    if (v > UINT32_MAX)
        return -ERANGE;
    *(uint32_t *)f->data = (uint32_t)v;
    graph_controls_changed();
    return 0;
}

static bool irqs_get(void) { return graph_irqs; }

static void irqs_set(bool on)
{
    graph_irqs = on;
    graph_controls_changed();
}

static const struct trace_flag irqs_flag = { .get = irqs_get, .set = irqs_set };

static const struct fs_file_ops u32_control_ops = { .read = read_u32_control,
                                                    .write = write_u32_control };

void ftrace_graph_setup(void)
{
    for (unsigned cpu = 0; cpu < MAX_CPUS; cpu++)
        graph_stack_init(&graph_context_stack[cpu]);
    task_on_create(&graph_stack_hook);
    ftrace_graph_unwinder = &graph_unwinder;
    register_tracer(&graph_tracer);
    if (trace_declare_cycle_field(TRACE_GRAPH_ENT, offsetof(struct ftrace_graph_entry, calltime)) ||
        trace_declare_cycle_field(TRACE_GRAPH_RET, offsetof(struct ftrace_graph_return, calltime)) ||
        trace_declare_cycle_field(TRACE_GRAPH_RET, offsetof(struct ftrace_graph_return, rettime)) ||
        trace_declare_cycle_field(TRACE_GRAPH_LEAF, offsetof(struct ftrace_graph_return, calltime)) ||
        trace_declare_cycle_field(TRACE_GRAPH_LEAF, offsetof(struct ftrace_graph_return, rettime)))
        panic("ftrace: the graph records' cycle fields are declared already");
    trace_create_flag_file(tracefs_root(), "function_profile_enabled", &profile_flag);
    profile_dir = fs_mkdir_at(tracefs_root(), "trace_stat");
    fs_create(profile_dir, "functions", &profile_ops, 0);
    profile_file(0); /* function0 from boot; the other CPUs' when profiling starts */
    fs_create(tracefs_root(), "max_graph_depth", &u32_control_ops, &graph_max_depth);
    fs_create(tracefs_root(), "tracing_thresh", &u32_control_ops, &graph_thresh_us);
    trace_create_flag_file(fs_mkdir_at(tracefs_root(), "options"), "funcgraph-irqs", &irqs_flag);
}
