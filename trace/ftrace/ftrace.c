/*
 * ftrace.c - dynamic function tracing: the call sites, who wants them, and the function
 * tracer.
 *
 * Every traced function starts with a 5-byte NOP whose address gcc lists in
 * __patchable_function_entries (gcc -fpatchable-function-entry=5 pads it with five 1-byte
 * NOPs; arch/x86/ftrace_arch.c makes them one first thing at boot). Then each listed site is
 * checked to hold exactly that NOP; a site that does not is never touched. Then, whenever the set of users changes (the
 * function tracer, the function_graph tracer, the profiler) or a filter file is written,
 * ftrace_update() patches exactly the sites that should call ftrace_caller and puts the NOP
 * back everywhere else. With no user, every site is a NOP and ftrace_trace_function is
 * ftrace_stub: tracing that is off costs one NOP per call.
 *
 * ftrace_caller calls the single function pointer ftrace_trace_function, which is the
 * handler of whoever listens: ftrace_function_call (ftrace_function.c) for the function
 * tracer alone, ftrace_graph_call for function_graph and the profiler alone, ftrace_dispatch
 * (which hands the call to each user in turn) for any other mix (Linux calls one
 * ftrace_ops' callback directly, and ftrace_ops_list_func for several).
 * A site with an enabled kprobe (trace/kprobes) is patched whatever the filters say;
 * ftrace_dispatch then calls the kprobe hook and hands the call to the tracers only if
 * their filters allow it.
 *
 * On SMP every CPU runs the patched code while it changes: ftrace_update makes one patch
 * round of all the sites that change (ftrace_sites_patch, arch/x86/ftrace_arch.c), so a
 * tracer switch costs three syncs of every CPU, not three per site. Changes are serialized
 * by ftrace_lock (a mutex: a round waits for the other CPUs with interrupts on). What the
 * handlers write on each call (their recursion guard and count) is per CPU.
 */
#include "kernel/fs/fs_layout.h"
#include "trace/ftrace/ftrace_internal.h"

#include "kernel/arch.h"
#include "kernel/lib/errno.h"
#include "kernel/mm/heap.h"
#include "kernel/init.h"
#include "kernel/mutex.h"
#include "kernel/panic.h"
#include "kernel/params.h"
#include "kernel/log/printk.h"
#include "kernel/lib/string.h"
#include "kernel/smp.h"
#include "trace/core/trace_internal.h"

extern const uint32_t mcount_loc_start[], mcount_loc_end[];

volatile ftrace_func_t ftrace_trace_function = (ftrace_func_t)ftrace_stub;

struct ftrace_sites ftrace_sites;
static unsigned users;                 /* FTRACE_USER_* bits */
static bool func_stack_trace;          /* options/func_stack_trace */

/* Serializes every change of users, filters, probed sites and the patched bytes. */
static struct mutex ftrace_lock = MUTEX_INIT("ftrace_lock");

/* A patch round's list (ftrace_update): the sites that change and their new targets. */
static uint32_t *round_sites, *round_targets;

struct ftrace_cpu ftrace_cpu_state[MAX_CPUS];

struct ftrace_func_set ftrace_filter, ftrace_notrace, ftrace_graph_filter, ftrace_graph_notrace;

/* kprobes (issue 18): sites with an enabled entry probe call the hook whatever the function
 * filters say; kprobe_sites counts them, and users has FTRACE_USER_KPROBE while it is not 0. */
static uint32_t *kprobe_wanted;
static uint32_t kprobe_sites;
static ftrace_kprobe_hook_t kprobe_hook;

/* --- the sites ------------------------------------------------------------------------- */

/* Sorts the site addresses (insertion sort: they come nearly sorted, in link order). */
static void sort_sites(uint32_t *a, uint32_t n)
{
    for (uint32_t i = 1; i < n; i++) {
        uint32_t v = a[i], j = i;
        while (j > 0 && a[j - 1] > v) {
            a[j] = a[j - 1];
            j--;
        }
        a[j] = v;
    }
}

int ftrace_site_index(uint32_t ip)
{
    uint32_t lo = 0, hi = ftrace_sites.count;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (ftrace_sites.addr[mid] < ip)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < ftrace_sites.count && ftrace_sites.addr[lo] == ip ? (int)lo : -1;
}

/* Keeps the sites ftrace_arch_prepare_sites left listed; reports the struck ones. The site list and its
 * bitmaps (patched, scratch, the four filter sets, the probed sites) are all allocated before any is
 * used: without memory for them at boot function tracing cannot exist, and the kernel stops
 * saying so rather than run with some of them missing. */
static void collect_sites(void)
{
    uint32_t listed = (uint32_t)(mcount_loc_end - mcount_loc_start);
    uint32_t *addr = kmalloc((listed ? listed : 1) * sizeof *addr);
    round_sites = kmalloc((listed ? listed : 1) * sizeof *round_sites);
    round_targets = kmalloc((listed ? listed : 1) * sizeof *round_targets);
    if (!addr || !round_sites || !round_targets)
        panic("ftrace: no memory for %u call sites", listed);
    ftrace_patch_init(listed);
    uint32_t good = 0, bad = 0;
    for (uint32_t i = 0; i < listed; i++) { /* a struck site is 0 (ftrace_arch_prepare_sites) */
        if (mcount_loc_start[i])
            addr[good++] = mcount_loc_start[i];
        else
            bad++;
    }
    sort_sites(addr, good);
    enum { PATCHED, SCRATCH, FILTER, NOTRACE, GRAPH_FILTER, KPROBE, GRAPH_NOTRACE, BITMAPS };
    uint32_t *bitmap[BITMAPS];
    uint32_t words = (good + 31) / 32 + 1;
    bool complete = true;
    for (int i = 0; i < BITMAPS; i++)
        complete &= (bitmap[i] = kzalloc(words * 4)) != NULL;
    if (!complete) {
        for (int i = 0; i < BITMAPS; i++)
            kfree(bitmap[i]);
        kfree(addr);
        panic("ftrace: no memory for the bitmaps of %u call sites", good);
    }
    ftrace_sites.addr = addr;
    ftrace_sites.count = good;
    ftrace_sites.patched = bitmap[PATCHED];
    ftrace_sites.scratch = bitmap[SCRATCH];
    kprobe_wanted = bitmap[KPROBE];
    ftrace_func_set_init(&ftrace_filter, bitmap[FILTER], good);
    ftrace_func_set_init(&ftrace_notrace, bitmap[NOTRACE], good);
    ftrace_func_set_init(&ftrace_graph_filter, bitmap[GRAPH_FILTER], good);
    ftrace_func_set_init(&ftrace_graph_notrace, bitmap[GRAPH_NOTRACE], good);
    if (bad)
        printk("ftrace: %u of %u call sites do not hold the expected NOP; left alone\n", bad,
               listed);
}

static bool site_patched(uint32_t i) { return ftrace_sites.patched[i / 32] >> (i % 32) & 1; }

static bool kprobe_site(uint32_t i) { return kprobe_wanted[i / 32] >> (i % 32) & 1; }

/* Whether site i should call the tracer now: a tracer wants it and the filters allow it,
 * or an entry probe is on it. */
static bool site_wanted(uint32_t i)
{
    return ((users & ~FTRACE_USER_KPROBE) &&
            ftrace_filter_allows(&ftrace_filter, &ftrace_notrace, i)) ||
           ((users & FTRACE_USER_KPROBE) && kprobe_site(i));
}

void ftrace_set_kprobe_hook(ftrace_kprobe_hook_t hook) { kprobe_hook = hook; }

bool ftrace_is_site(uint32_t ip) { return ftrace_site_index(ip) >= 0; }

/* The handler for the users who: one of its own for a single tracer, which tests nothing
 * about the others (nor, for the function tracer, func_stack_trace). */
static ftrace_func_t dispatcher_for(unsigned who)
{
    if (who == FTRACE_USER_FUNCTION && !func_stack_trace)
        return ftrace_function_call;
    if (!(who & ~(FTRACE_USER_GRAPH | FTRACE_USER_PROFILE)))
        return ftrace_graph_call;
    return ftrace_dispatch;
}

/* Patches every site whose wanted state changed, in one round; ftrace_lock held. */
static void update_locked(void)
{
    /* The handler goes in first and out last, so a patched site never calls a stub that
     * drops an event a user asked for. */
    if (users)
        ftrace_trace_function = dispatcher_for(users);
    uint32_t n = 0;
    for (uint32_t i = 0; i < ftrace_sites.count; i++) {
        bool want = site_wanted(i);
        if (want == site_patched(i))
            continue;
        round_sites[n] = ftrace_sites.addr[i]; /* in address order, as the round needs */
        round_targets[n++] = want ? (uint32_t)(uintptr_t)ftrace_caller : 0;
        ftrace_sites.patched[i / 32] ^= 1u << (i % 32);
    }
    ftrace_sites_patch(round_sites, round_targets, n);
    ftrace_graph_controls_changed(); /* the graph's filter sets may have changed */
    if (!users)
        ftrace_trace_function = (ftrace_func_t)ftrace_stub;
}

int ftrace_kprobe_site(uint32_t ip, bool on)
{
    int i = ftrace_site_index(ip);
    if (i < 0)
        return -EINVAL;
    uint32_t n = (uint32_t)i;
    mutex_lock(&ftrace_lock);
    if (kprobe_site(n) != on) {
        kprobe_wanted[n / 32] ^= 1u << (n % 32);
        kprobe_sites = on ? kprobe_sites + 1 : kprobe_sites - 1;
    }
    users = kprobe_sites ? users | FTRACE_USER_KPROBE : users & ~FTRACE_USER_KPROBE;
    update_locked();
    mutex_unlock(&ftrace_lock);
    return 0;
}

void ftrace_update(void)
{
    mutex_lock(&ftrace_lock);
    update_locked();
    mutex_unlock(&ftrace_lock);
}

void ftrace_set_user(unsigned user, bool on)
{
    mutex_lock(&ftrace_lock);
    users = on ? users | user : users & ~user;
    update_locked();
    mutex_unlock(&ftrace_lock);
}

/* --- the handlers and the function tracer ---------------------------------------------- */

/* Records a stack trace after an event: the callers above the traced function. */
__attribute__((noinline)) void ftrace_record_stack(unsigned cpu, uint32_t fp, bool irqs)
{
    struct ftrace_stack_entry *e =
        (struct ftrace_stack_entry *)trace_reserve_cpu(cpu, TRACE_STACK, sizeof *e, irqs);
    if (!e)
        return;
    e->nr = (uint32_t)arch_save_stack_trace(fp, e->caller, FTRACE_STACK_DEPTH);
    trace_commit_cpu(cpu);
}

/* A call at a site that may be patched for a kprobe alone: the hook first, then whether
 * the tracers' filters let them see it. */
static __attribute__((noinline)) bool kprobe_call(struct ftrace_frame *f)
{
    uint32_t ip = ftrace_frame_ip(f);
    int i = ftrace_site_index(ip);
    if (i >= 0 && kprobe_site((uint32_t)i) && kprobe_hook)
        kprobe_hook(ip, f, f->eflags & FTRACE_FRAME_IF);
    return i >= 0 && ftrace_filter_allows(&ftrace_filter, &ftrace_notrace, (uint32_t)i);
}

void __attribute__((regparm(1))) ftrace_dispatch(struct ftrace_frame *f)
{
    unsigned cpu = arch_cpu_id();
    struct ftrace_cpu *c = &ftrace_cpu_state[cpu];
    if (!ftrace_enter(c))
        return;
    unsigned who = users;
    /* Only with a probe somewhere: kprobes follow set_event_pid, not set_ftrace_pid. */
    if ((who & FTRACE_USER_KPROBE) && !kprobe_call(f))
        who = 0;
    if (who && !ftrace_pid_skips()) {
        if (who & FTRACE_USER_FUNCTION)
            ftrace_function_record(cpu, f, f->eflags & FTRACE_FRAME_IF, func_stack_trace);
        if (who & (FTRACE_USER_GRAPH | FTRACE_USER_PROFILE))
            ftrace_graph_entry(cpu, f);
    }
    ftrace_exit(c);
}

uint32_t ftrace_recursion_skipped(void)
{
    uint32_t sum = 0;
    for (unsigned cpu = 0; cpu < MAX_CPUS; cpu++)
        sum += ftrace_cpu_state[cpu].recursion_skipped;
    return sum;
}

static int function_init(void)
{
    ftrace_set_user(FTRACE_USER_FUNCTION, true);
    return 0;
}

static void function_reset(void) { ftrace_set_user(FTRACE_USER_FUNCTION, false); }

static void function_header(struct fs_writer *out, const struct trace_header_info *info)
{
    trace_print_default_header(out, "function", info);
}

/* Prints the function tracer's and the shared stack events. */
static bool function_print(struct fs_writer *out, const struct trace_event_view *ev)
{
    if (ev->entry->type == TRACE_FN) {
        ftrace_print_function(out, ev);
        return true;
    }
    if (ev->entry->type == TRACE_STACK) {
        ftrace_print_stack(out, ev);
        return true;
    }
    return false;
}

static struct tracer function_tracer = {
    .name = "function",
    .init = function_init,
    .reset = function_reset,
    .print_header = function_header,
    .print_event = function_print,
    .entry_size = sizeof(struct ftrace_entry),
};

/* --- files ----------------------------------------------------------------------------- */

/* An empty set says what it means, in Linux's words. */
static int read_func_set(struct fs_node *f, struct fs_writer *out)
{
    bool notrace = f->data == &ftrace_notrace || f->data == &ftrace_graph_notrace;
    const char *empty = notrace ? "#### no functions disabled ####\n"
                                : "#### all functions enabled ####\n";
    ftrace_filter_print(f->data, out, ftrace_sites.addr, kernel_symbols(), empty);
    return 0;
}

/* The new set is built in the shared scratch bitmap and the sites patched, all under
 * ftrace_lock. Dispatchers on other CPUs read the set while it is copied in: a call in
 * that instant is traced under the old set or the new one. */
static int write_func_set(struct fs_node *f, const char *data, size_t len, bool append)
{
    mutex_lock(&ftrace_lock);
    int err = ftrace_filter_write(f->data, ftrace_sites.scratch, data, len, append,
                                  ftrace_sites.addr, kernel_symbols());
    if (!err)
        update_locked();
    mutex_unlock(&ftrace_lock);
    return err;
}

static int read_available(struct fs_node *f, struct fs_writer *out)
{
    (void)f;
    for (uint32_t i = 0; i < ftrace_sites.count; i++) {
        const char *name = symbol_lookup(kernel_symbols(), ftrace_sites.addr[i], 0, 0);
        fs_printf(out, "%s\n", name ? name : "?");
        if (out->interrupted(out))
            return -EINTR;
    }
    return 0;
}

/* enabled_functions: the sites that call the tracer now, as Linux lists them. */
static int read_enabled(struct fs_node *f, struct fs_writer *out)
{
    (void)f;
    for (uint32_t i = 0; i < ftrace_sites.count; i++)
        if (site_patched(i)) {
            const char *name = symbol_lookup(kernel_symbols(), ftrace_sites.addr[i], 0, 0);
            fs_printf(out, "%s (1)\n", name ? name : "?");
        }
    return 0;
}

static bool stack_trace_get(void) { return func_stack_trace; }

/* options/func_stack_trace: the function tracer's handler changes with it (dispatcher_for).
 * A call under way meanwhile is recorded with or without its stack trace. */
static void stack_trace_set(bool on)
{
    mutex_lock(&ftrace_lock);
    func_stack_trace = on;
    update_locked();
    mutex_unlock(&ftrace_lock);
}

static const struct trace_flag stack_trace_flag = { .get = stack_trace_get,
                                                    .set = stack_trace_set };

static const struct fs_file_ops func_set_ops = { .read = read_func_set,
                                                 .write = write_func_set,
                                                 .truncates = true };
static const struct fs_file_ops available_ops = { .read = read_available };
static const struct fs_file_ops enabled_ops = { .read = read_enabled };

/* ftrace_filter= and ftrace_notrace= on the command line, as on Linux: comma-separated. */
static void apply_boot_filter(const char *param, struct ftrace_func_set *set)
{
    const char *value = kernel_param(param);
    if (!value)
        return;
    char words[256];
    size_t n = 0;
    for (; value[n] && n < sizeof words - 1; n++)
        words[n] = value[n] == ',' ? ' ' : value[n];
    words[n] = '\0';
    if (ftrace_filter_write(set, ftrace_sites.scratch, words, n, false, ftrace_sites.addr,
                            kernel_symbols()))
        printk("ftrace: %s=%s matches no traceable function; ignored\n", param, value);
}

static void ftrace_setup(void)
{
    ftrace_arch_init();
    collect_sites();
    ftrace_output_set_symbols(kernel_symbols());
    register_tracer(&function_tracer);
    struct fs_node *root = tracefs_root();
    fs_create(root, "set_ftrace_filter", &func_set_ops, &ftrace_filter);
    fs_create(root, "set_ftrace_notrace", &func_set_ops, &ftrace_notrace);
    fs_create(root, "set_graph_function", &func_set_ops, &ftrace_graph_filter);
    fs_create(root, "set_graph_notrace", &func_set_ops, &ftrace_graph_notrace);
    fs_create(root, "available_filter_functions", &available_ops, 0);
    fs_create(root, "enabled_functions", &enabled_ops, 0);
    trace_create_flag_file(fs_mkdir_at(root, "options"), "func_stack_trace", &stack_trace_flag);
    apply_boot_filter("ftrace_filter", &ftrace_filter);
    apply_boot_filter("ftrace_notrace", &ftrace_notrace);
    apply_boot_filter("ftrace_graph_filter", &ftrace_graph_filter);
    ftrace_graph_setup();
    printk("ftrace: %u functions can be traced\n", ftrace_sites.count);
}
INITCALL(trace, ftrace_setup);
