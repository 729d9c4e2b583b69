/*
 * kprobe_events.c - the tracefs file kprobe_events and the probe events it creates
 * (Linux's kernel/trace/trace_kprobe.c), and kprobe_profile.
 *
 * A line parsed by kp_parse becomes a struct kprobe: a trace_event_call under
 * events/GRP/EVENT whose fields are __probe_ip and one per fetch arg (a string as
 * __data_loc char[]), so format, filters and triggers see them. A probe sits either
 *   - on a function's entry (SYM, or the ADDR of one): enabling it marks the function's
 *     ftrace site as probed (trace/ftrace: the site calls kprobe_hit whatever the function
 *     tracer's filters say); the hook reads the registers ftrace_caller saved, or
 *   - anywhere else in a traceable function (SYM+OFFS, ADDR): an int3 on the instruction
 *     (arch/x86/kprobe_arch.c), which must start an instruction (EILSEQ otherwise, as
 *     Linux) and be one that can be single-stepped out of line; the hook has every register.
 * A return probe (r) hijacks the return address at the function's ftrace site: the real
 * one is kept in an instance (at most MAXACTIVE pending per probe, default Linux's
 * max(10, 2 * CPUs); a call that finds none counts a miss), the function returns to the
 * arch's trampoline, and the instance matching the return slot gives the real address
 * back and the event is recorded: (caller+off <- func) with $retval. function_graph hijacks
 * the same slot after us (the kprobe hook runs first in ftrace_dispatch): its return_to_handler
 * returns to our trampoline, which returns to the caller.
 * An entry probe whose args need %bx %si %di %flags (which the ftrace site does not save)
 * is an int3 on the instruction after the site instead, where every register is the entry's.
 * Args read memory through arch_call_catching_faults; a read that fails records 0 (a
 * string "(fault)"), as Linux does. Refused for now (EINVAL): args needing other
 * registers than ax cx dx and sp at a return (the trampoline has only those).
 * Refused always (EINVAL, "Failed to register probe event"): code without an ftrace site
 * (notrace: the tracers, the trap and int3/#DB paths, the kprobe machinery) and the
 * functions of kprobe_blacklist below. Every refused line is told to error_log.
 *
 * Concurrency: the list is changed only under kprobe_lock with interrupts off, and the
 * hook runs with interrupts off (ftrace_dispatch, the int3 handler); a probe is only freed
 * while disabled, when its site no longer calls the hook. Hits on several CPUs at once
 * count in each CPU's own nhit and nmissed, and each CPU has its own in_handler and its
 * own buffer for string args. Return probes' instances are one pool for every CPU under
 * kret_lock (see there): an instance belongs to a task, not a CPU, so it is found again
 * wherever the task returns, after migrating or not.
 */
#include "trace/kprobes/kprobe_fetch.h"
#include "trace/kprobes/kprobe_parse.h"

#include "kernel/arch.h"
#include "kernel/fs/fs_layout.h"
#include "kernel/init.h"
#include "kernel/lib/errno.h"
#include "kernel/lib/parse.h"
#include "kernel/lib/string.h"
#include "kernel/lib/symbols.h"
#include "kernel/mm/heap.h"
#include "kernel/panic.h"
#include "kernel/proc/task.h"
#include "kernel/proc/task_internal.h"
#include "kernel/smp.h"
#include "kernel/spinlock.h"
#include "trace/core/error_log.h"
#include "trace/events/trace_events.h"
#include "trace/ftrace/ftrace.h"

#define KP_STRING_MAX 128 /* bytes of one string arg recorded, NUL not included */
#define KP_SITE_REGS                                                                          \
    (1u << KP_REG_AX | 1u << KP_REG_CX | 1u << KP_REG_DX | 1u << KP_REG_BP | 1u << KP_REG_SP | \
     1u << KP_REG_IP)
#define KP_INT3_REGS ((1u << KP_NR_REGS) - 1) /* an int3 knows every register */
#define KP_RETURN_REGS (1u << KP_REG_AX | 1u << KP_REG_CX | 1u << KP_REG_DX | 1u << KP_REG_SP)
#define FTRACE_SITE_SIZE 5 /* gcc's NOP at a traced function's entry */
#define KP_MAXACTIVE_MIN 10 /* the default is Linux's max(10, 2 * CPUs): kp_default_maxactive */
#define KRET_POOL 256           /* returns pending at once, all return probes together */

/* Functions in traced code that the probe path itself calls: an int3 in them would only
 * ever count misses (Linux's NOKPROBE_SYMBOL list, for this kernel). Code without an ftrace
 * site (all of trace/, the trap entry, the int3/#DB handlers) is refused anyway. */
static const char *const kprobe_blacklist[] = {
    "task_current", "task_name", "idt_route_to_handler", "idt_route_to_task",
};

struct kprobe {
    struct trace_event_call call;
    struct kp_command cmd;
    char system[KP_NAME_MAX];
    uint32_t addr;                    /* the probed address: a function's ftrace site, or
                                       * the instruction with the int3 */
    uint32_t ip;                      /* the address its events show (__probe_ip): addr,
                                       * or the function's for an int3 just after its site */
    bool int3;                        /* an int3 probe (else the ftrace site's) */
    uint32_t nfixed;                  /* __probe_ip, or __probe_func and __probe_ret_ip */
    uint32_t maxactive, nactive;      /* return probes: instances allowed, pending */
    uint64_t nhit[MAX_CPUS];          /* kprobe_profile, per CPU (summed there) */
    uint64_t nmissed[MAX_CPUS];
    uint32_t *sym_addr;               /* per arg: @SYM's address (without its offset) */
    struct trace_event_field *fields; /* __probe_ip, then one per arg */
    char (*field_types)[8];           /* the type names fields point at */
    uint32_t fixed_size;              /* the record without its strings */
    struct kprobe *next;
};

static struct kprobe *probes; /* in creation order */
static struct spinlock kprobe_lock = SPINLOCK_INIT("kprobe_events");

/* A return pending through the trampoline (Linux's kretprobe_instance). It outlives its
 * probe: a deleted probe's pending returns still need their real address (kp NULL). */
struct kret_instance {
    bool used;
    struct kprobe *kp;  /* whose event it records at the return; NULL: none */
    struct task *task;  /* whose stack the slot is on */
    uint32_t slot;      /* where the return address was */
    uint32_t ret;       /* the real return address */
    uint32_t func;
    uint32_t seq;       /* hijack order: the later of two on one slot returns first */
};
static struct kret_instance *kret_pool; /* KRET_POOL of them, from the first return probe on */
/* The pool, kret_seq and every probe's nactive, and a pending return's kp pointer: taken
 * with interrupts off (the hooks have them off already) by a hijack, a return (held while
 * it records, so delete_probe, which clears kp under it, never frees a probe a return on
 * another CPU is recording), a task's release and a probe's deletion. One lock for every
 * CPU rather than per-CPU pools: a task may leave the CPU it was hijacked on before the
 * function returns, and its instance must be found from any CPU; the lock is taken once at
 * the entry and once at the return, never nested (a hit inside the recording is only a
 * miss: in_handler). */
static struct spinlock kret_lock = SPINLOCK_INIT("kretprobe_pool");
static uint32_t kret_seq;
/* A probe's event is being recorded on that CPU: a probe hit from inside that (the
 * recording code probed) only counts a miss. Per CPU, so a hit on one CPU does not count a
 * miss because another CPU is recording at the same time. */
static bool in_handler[MAX_CPUS];

/* --- the hit ------------------------------------------------------------------------------ */

/* One more hit or miss on this CPU. Several CPUs hit the same probe at once, so each
 * counts in its own slot (Linux's per-CPU nhit): the hooks run with interrupts off, so
 * nothing else on this CPU adds between the load and the store. A 64-bit atomic add is
 * no option here: -mgeneral-regs-only leaves gcc only libatomic's, which this kernel lacks. */
static inline void count(uint64_t counter[MAX_CPUS]) { counter[arch_cpu_id()]++; }

/* A counter's total over every CPU, for kprobe_profile. */
static uint64_t count_total(const uint64_t counter[MAX_CPUS])
{
    uint64_t sum = 0;
    for (unsigned cpu = 0; cpu < MAX_CPUS; cpu++)
        sum += *(const volatile uint64_t *)&counter[cpu];
    return sum;
}

struct copy_job {
    uint32_t addr;
    void *buf;
    uint32_t len;
};

static void copy_bytes(void *p)
{
    struct copy_job *j = p;
    memcpy(j->buf, (const void *)(uintptr_t)j->addr, j->len);
}

/* kp_site's reader: a copy that fails, instead of faulting, on memory that is not there. */
static bool read_kernel(void *ctx, uint32_t addr, void *buf, uint32_t len)
{
    (void)ctx;
    if (addr + len < addr)
        return false;
    struct copy_job job = { addr, buf, len };
    struct caught_fault fault;
    return !arch_call_catching_faults(copy_bytes, &job, &fault);
}

/* Copies the NUL-terminated text at addr (at most max bytes); the length copied, or -1
 * when the memory cannot be read. */
static int read_string(uint32_t addr, char *buf, uint32_t max)
{
    for (uint32_t n = 0; n < max; n++) {
        if (!read_kernel(0, addr + n, &buf[n], 1))
            return -1;
        if (!buf[n])
            return (int)n;
    }
    return (int)max;
}

/* Records one event of kp for the call described by site; fixed[] holds its __probe_*
 * fields' values (kp->nfixed of them). */
static void record_hit(const struct kprobe *kp, const struct kp_site *site, unsigned long irqs,
                       const uint32_t *fixed)
{
    /* One buffer per CPU: the hook never runs twice at once on one CPU (interrupts off,
     * in_handler), but several CPUs record at once. */
    static char cpu_strings[MAX_CPUS][KP_MAX_ARGS * (KP_STRING_MAX + 8)];
    char *strings = cpu_strings[arch_cpu_id()];
    uint32_t used = 0;
    uint32_t loc[KP_MAX_ARGS];
    for (uint32_t i = 0; i < kp->cmd.nargs; i++) {
        const struct kp_fetch_arg *a = &kp->cmd.args[i];
        if (a->type != KP_TYPE_STRING)
            continue;
        char *dst = strings + used;
        int n;
        if (a->base == KP_FETCH_COMM) {
            const char *name = task_name(task_current());
            n = (int)strlen(name);
            memcpy(dst, name, (size_t)n);
        } else {
            uint32_t addr;
            n = kp_fetch_string_addr(a, site, kp->sym_addr[i], &addr) == KP_FETCH_OK
                    ? read_string(addr, dst, KP_STRING_MAX)
                    : -1;
            if (n < 0) {
                n = 7;
                memcpy(dst, "(fault)", 7);
            }
        }
        dst[n] = '\0';
        loc[i] = (uint32_t)(n + 1) << 16 | (kp->fixed_size + used);
        used += (uint32_t)n + 1;
    }
    struct trace_entry *e = trace_event_reserve(&kp->call, kp->fixed_size + used);
    if (!e)
        return;
    /* The hook runs with interrupts off; the event shows the probed code's state. */
    e->flags = (uint8_t)((e->flags & ~TRACE_FLAG_IRQS_OFF) | (irqs ? 0 : TRACE_FLAG_IRQS_OFF));
    uint8_t *rec = (uint8_t *)e;
    memcpy(rec + TRACE_EVENT_HEADER_SIZE, fixed, 4 * kp->nfixed);
    for (uint32_t i = 0; i < kp->cmd.nargs; i++) {
        const struct kp_fetch_arg *a = &kp->cmd.args[i];
        const struct trace_event_field *f = &kp->fields[i + kp->nfixed];
        if (a->type == KP_TYPE_STRING) {
            memcpy(rec + f->offset, &loc[i], 4);
            continue;
        }
        uint64_t v = 0;
        if (kp_fetch_value(a, site, kp->sym_addr[i], &v) != KP_FETCH_OK)
            v = 0;
        memcpy(rec + f->offset, &v, f->size); /* little-endian: the low bytes */
    }
    memcpy(rec + kp->fixed_size, strings, used);
    trace_event_commit(&kp->call, e, kp->fixed_size + used); /* its filter, if any */
}

/* A return probe's MAXACTIVE when its line gives none: Linux's max(10, 2 * CPUs), so that
 * each CPU can have two calls of the function pending (a recursion, an interrupt). */
static uint32_t kp_default_maxactive(void)
{
    uint32_t cpus2 = 2 * arch_cpu_count();
    return cpus2 > KP_MAXACTIVE_MIN ? cpus2 : KP_MAXACTIVE_MIN;
}

/* Under kret_lock. */
static void free_instance(struct kret_instance *in)
{
    if (in->kp)
        in->kp->nactive--;
    *in = (struct kret_instance){ 0 };
}

/* A return probe's entry: the return address at parent_slot is kept in a free instance and
 * replaced by the trampoline's; none free (MAXACTIVE pending, or the pool full): a miss. */
static void hijack_return(struct kprobe *kp, uint32_t func, uint32_t *parent_slot)
{
    struct kret_instance *in = 0;
    unsigned long flags = spin_lock_irqsave(&kret_lock);
    for (uint32_t i = 0; kp->nactive < kp->maxactive && i < KRET_POOL && !in; i++)
        if (!kret_pool[i].used)
            in = &kret_pool[i];
    if (in) {
        *in = (struct kret_instance){ true, kp, current, (uint32_t)(uintptr_t)parent_slot,
                                      *parent_slot, func, ++kret_seq };
        kp->nactive++;
    }
    spin_unlock_irqrestore(&kret_lock, flags);
    if (!in) {
        count(kp->nmissed);
        return;
    }
    /* Only this task returns through the slot, and it is here: no other CPU reads it. */
    *parent_slot = kprobe_arch_trampoline();
}

/* ftrace's hook: every enabled probe on the function at ip records an event. */
static void kprobe_hit(uint32_t ip, struct ftrace_frame *f, unsigned long irqs)
{
    uint32_t *parent_slot = ftrace_frame_parent_slot(f);
    struct kp_site site = { .known_regs = KP_SITE_REGS, .read = read_kernel };
    site.regs[KP_REG_AX] = f->eax;
    site.regs[KP_REG_CX] = f->ecx;
    site.regs[KP_REG_DX] = f->edx;
    site.regs[KP_REG_BP] = f->ebp;
    site.regs[KP_REG_SP] = (uint32_t)(uintptr_t)parent_slot;
    site.regs[KP_REG_IP] = ip;
    if (in_handler[arch_cpu_id()]) {
        for (struct kprobe *kp = probes; kp; kp = kp->next)
            if (kp->addr == ip && !kp->int3 && kp->call.enabled)
                count(kp->nmissed);
        return;
    }
    in_handler[arch_cpu_id()] = true;
    for (struct kprobe *kp = probes; kp; kp = kp->next) {
        if (kp->addr != ip || kp->int3 || !kp->call.enabled)
            continue;
        if (kp->cmd.is_return) {
            hijack_return(kp, ip, parent_slot); /* a hit counts at the return, as Linux's */
        } else {
            count(kp->nhit);
            record_hit(kp, &site, irqs, &kp->ip);
        }
    }
    in_handler[arch_cpu_id()] = false;
}

/* The trampoline's hook (arch/x86/kprobe_arch.c): the instance of the running task whose
 * slot the return came from (the latest hijack of that slot) gives the real address back,
 * and its probe records (caller+off <- func) with $retval. The task's instances below the
 * slot are for frames that are gone (a non-local exit skipped their returns): freed. */
static uint32_t kret_return(uint32_t slot, uint32_t retval, bool irqs)
{
    struct kret_instance *hit = 0;
    unsigned long flags = spin_lock_irqsave(&kret_lock);
    for (uint32_t i = 0; i < KRET_POOL; i++) {
        struct kret_instance *in = &kret_pool[i];
        if (!in->used || in->task != current)
            continue;
        if (in->slot == slot && (!hit || in->seq > hit->seq))
            hit = in;
        else if (in->slot < slot)
            free_instance(in);
    }
    if (!hit)
        panic("kretprobe: a return to the trampoline from slot %#x that no probe hijacked",
              slot);
    uint32_t ret = hit->ret;
    struct kprobe *kp = hit->kp;
    if (kp && kp->call.enabled && !in_handler[arch_cpu_id()]) {
        in_handler[arch_cpu_id()] = true;
        struct kp_site site = { .known_regs = KP_RETURN_REGS, .read = read_kernel,
                                .retval = retval, .has_retval = true };
        site.regs[KP_REG_AX] = retval;
        site.regs[KP_REG_SP] = slot + 4;
        uint32_t fixed[2] = { hit->func, ret };
        count(kp->nhit);
        record_hit(kp, &site, irqs, fixed);
        in_handler[arch_cpu_id()] = false;
    } else if (kp && kp->call.enabled) {
        count(kp->nmissed);
    }
    free_instance(hit);
    spin_unlock_irqrestore(&kret_lock, flags);
    return ret;
}

/* A task that is gone left its pending returns behind (a function that never returned,
 * such as exit): their instances are free again. */
static void kret_task_release(struct task *t)
{
    if (!kret_pool)
        return;
    unsigned long flags = spin_lock_irqsave(&kret_lock);
    for (uint32_t i = 0; i < KRET_POOL; i++)
        if (kret_pool[i].used && kret_pool[i].task == t)
            free_instance(&kret_pool[i]);
    spin_unlock_irqrestore(&kret_lock, flags);
}

static int kret_task_create(struct task *t)
{
    (void)t;
    return 0;
}

static struct task_create_hook kret_task_hook = { kret_task_create, kret_task_release, 0 };

/* The int3 hook (arch/x86/kprobe_arch.c): every enabled probe at addr records an event; a
 * nested hit (a probe in code the probe path runs) only counts a miss, as Linux's. */
static void kprobe_int3_hit(uint32_t addr, const uint32_t regs[KPROBE_ARCH_NREGS], bool nested)
{
    struct kp_site site = { .known_regs = KP_INT3_REGS, .read = read_kernel };
    for (int r = 0; r < KP_NR_REGS; r++)
        site.regs[r] = regs[r];
    for (struct kprobe *kp = probes; kp; kp = kp->next) {
        if (kp->addr != addr || !kp->int3 || !kp->call.enabled)
            continue;
        if (nested || in_handler[arch_cpu_id()]) {
            count(kp->nmissed);
            continue;
        }
        count(kp->nhit);
        in_handler[arch_cpu_id()] = true;
        site.regs[KP_REG_IP] = kp->ip;
        record_hit(kp, &site, regs[KP_REG_FLAGS] & (1u << 9), &kp->ip);
        in_handler[arch_cpu_id()] = false;
    }
}

/* --- the event ------------------------------------------------------------------------------ */

/* "EVENT: (SYM+0x0/0xSIZE) name=value ...", as Linux's kprobe events print. */
static void print_probe(struct fs_writer *out, const struct trace_event_call *call,
                        const struct trace_event_view *ev)
{
    const struct kprobe *kp = call->data;
    const uint8_t *rec = (const uint8_t *)ev->entry;
    int64_t ip = 0;
    trace_field_read_int(&kp->fields[kp->cmd.is_return ? 1 : 0], rec, ev->length, &ip);
    uint32_t off = 0, size = 0;
    const char *sym = symbol_lookup(kernel_symbols(), (uint32_t)ip, &off, &size);
    fs_printf(out, "%s: (%s+0x%x/0x%x", call->name, sym ? sym : "?", off, size);
    if (kp->cmd.is_return) {
        int64_t func = 0;
        trace_field_read_int(&kp->fields[0], rec, ev->length, &func);
        const char *fname = symbol_lookup(kernel_symbols(), (uint32_t)func, 0, 0);
        fs_printf(out, " <- %s", fname ? fname : "?");
    }
    fs_puts(out, ")");
    for (uint32_t i = 0; i < kp->cmd.nargs; i++) {
        const struct kp_fetch_arg *a = &kp->cmd.args[i];
        const struct trace_event_field *f = &kp->fields[i + kp->nfixed];
        fs_printf(out, " %s=", a->name);
        if (a->type == KP_TYPE_STRING) {
            const char *text;
            uint32_t len;
            if (trace_field_read_string(f, rec, ev->length, &text, &len))
                fs_printf(out, "\"%.*s\"", (int)len, text);
            continue;
        }
        int64_t v = 0;
        trace_field_read_int(f, rec, ev->length, &v);
        uint64_t u = f->size == 8 ? (uint64_t)v : (uint64_t)v & ((1ull << (f->size * 8)) - 1);
        if (a->type >= KP_TYPE_S8 && a->type <= KP_TYPE_S64)
            fs_printf(out, "%lld", (long long)v);
        else if (a->type <= KP_TYPE_U64)
            fs_printf(out, "%llu", (unsigned long long)u);
        else if (a->type == KP_TYPE_SYMBOL) {
            const char *s = symbol_lookup(kernel_symbols(), (uint32_t)u, &off, &size);
            if (s)
                fs_printf(out, "%s+0x%x/0x%x", s, off, size);
            else
                fs_printf(out, "0x%llx", (unsigned long long)u);
        } else
            fs_printf(out, "0x%llx", (unsigned long long)u);
    }
}

/* The printf conversion of a type in print fmt. */
static const char *type_conversion(enum kp_type t)
{
    static const char *const conv[KP_NR_TYPES] = {
        "%u", "%u", "%u", "%Lu", "%d", "%d", "%d", "%Ld",
        "0x%x", "0x%x", "0x%x", "0x%Lx", "\\\"%s\\\"", "%pS",
    };
    return conv[t];
}

/* The blank line and "print fmt: ..." (the core printed the fields). */
static void print_probe_format(struct fs_writer *out, const struct trace_event_call *call)
{
    const struct kprobe *kp = call->data;
    fs_printf(out, kp->cmd.is_return ? "\nprint fmt: \"(%%lx <- %%lx)" : "\nprint fmt: \"(%%lx)");
    for (uint32_t i = 0; i < kp->cmd.nargs; i++)
        fs_printf(out, " %s=%s", kp->cmd.args[i].name,
                  type_conversion((enum kp_type)kp->cmd.args[i].type));
    fs_printf(out, kp->cmd.is_return ? "\", REC->__probe_func, REC->__probe_ret_ip"
                                     : "\", REC->__probe_ip");
    for (uint32_t i = 0; i < kp->cmd.nargs; i++) {
        if (kp->cmd.args[i].type == KP_TYPE_STRING)
            fs_printf(out, ", __get_str(%s)", kp->cmd.args[i].name);
        else
            fs_printf(out, ", REC->%s", kp->cmd.args[i].name);
    }
    fs_printf(out, "\n");
}

/* Enabling patches the function's site to call the hook; disabling puts it back (unless
 * another enabled probe is on the same function). */
static int enable_probe(struct trace_event_call *call, bool on)
{
    struct kprobe *kp = call->data;
    if (kp->int3) {
        if (!on) {
            kprobe_arch_disarm(kp->addr);
            return 0;
        }
        return kprobe_arch_arm(kp->addr);
    }
    bool others = false;
    for (const struct kprobe *p = probes; p; p = p->next)
        if (p != kp && p->addr == kp->addr && !p->int3 && p->call.enabled)
            others = true;
    return others ? 0 : ftrace_kprobe_site(kp->addr, on);
}

static const struct trace_event_ops probe_ops = {
    .print = print_probe,
    .print_format = print_probe_format,
    .enable = enable_probe,
};

/* --- creating and deleting -------------------------------------------------------------------- */

static void free_probe(struct kprobe *kp)
{
    kp_command_free(&kp->cmd);
    kfree(kp->sym_addr);
    kfree(kp->fields);
    kfree(kp->field_types);
    kfree(kp);
}

/* The format type of an integer type: Linux shows x* as the unsigned type of that size. */
static void field_type_name(enum kp_type t, char *buf)
{
    static const char *const names[KP_NR_TYPES] = {
        "u8", "u16", "u32", "u64", "s8", "s16", "s32", "s64",
        "u8", "u16", "u32", "u64", "char", "u32",
    };
    memcpy(buf, names[t], strlen(names[t]) + 1);
}

/* Why build_probe refused, for error_log: the message and whether it points at the place
 * word (else at the fetch arg `arg`). */
struct build_error {
    const char *msg;
    uint32_t arg; /* the fetch arg, from 1; 0: the place word */
};

static bool blacklisted(const char *name)
{
    for (size_t i = 0; i < sizeof kprobe_blacklist / sizeof kprobe_blacklist[0]; i++)
        if (strcmp(name, kprobe_blacklist[i]) == 0)
            return true;
    return false;
}

/* Whether every fetch arg of c needs only the registers in known. */
static bool args_fit(const struct kp_command *c, uint32_t known)
{
    for (uint32_t i = 0; i < c->nargs; i++)
        if (!kp_fetch_possible(&c->args[i], known, c->is_return))
            return false;
    return true;
}

/* Where the probe goes: an entry probe on an ftrace site, or an int3 probe on an
 * instruction of a traceable function that can be stepped out of line; 0 or -errno. */
static int place_probe(struct kprobe *kp, struct build_error *berr)
{
    struct kp_command *c = &kp->cmd;
    berr->msg = "Invalid probed address or symbol";
    if (c->has_symbol) {
        uint32_t sym = symbol_address(kernel_symbols(), c->symbol);
        if (!sym)
            return -ENOENT;
        uint32_t sym_size = 0;
        symbol_lookup(kernel_symbols(), sym, 0, &sym_size);
        if (c->offset >= sym_size && c->offset != 0)
            return -EINVAL; /* past the function's end */
        kp->addr = sym + c->offset;
    } else {
        kp->addr = c->addr;
    }
    kp->ip = kp->addr;
    if (ftrace_is_site(kp->addr)) {
        if (c->is_return || args_fit(c, KP_SITE_REGS))
            return 0; /* a traceable function's entry: its ftrace site */
        /* %bx %si %di %flags at the entry: the site does not save them, but an int3 on the
         * instruction after it (the NOP changed nothing) sees every register as at the
         * entry, and the stack too. The event still says the function's address. */
        kp->addr += FTRACE_SITE_SIZE;
    }
    if (c->is_return) {
        berr->msg = "Retprobe address must be an function entry"; /* Linux's words */
        return -EINVAL;
    }
    uint32_t off = 0, size = 0;
    const char *func = symbol_lookup(kernel_symbols(), kp->addr, &off, &size);
    if (!func || off >= size)
        return -EINVAL;
    berr->msg = "Failed to register probe event";
    if (!ftrace_is_site(kp->addr - off) || blacklisted(func))
        return -EINVAL; /* notrace code, or the probe path's own */
    const char *why;
    int err = kprobe_arch_prepare(kp->addr - off, size, kp->addr, &why);
    if (err == -EILSEQ)
        berr->msg = "Probe point is not an instruction boundary";
    else if (err && why)
        berr->msg = why;
    kp->int3 = true;
    return err;
}

/* Checks cmd against what this kernel can probe and builds its fields; 0 or -errno, with
 * berr saying why. */
static int build_probe(struct kprobe *kp, struct build_error *berr)
{
    struct kp_command *c = &kp->cmd;
    int perr = place_probe(kp, berr);
    if (perr)
        return perr;
    uint32_t n = c->nargs;
    kp->sym_addr = kzalloc((n ? n : 1) * sizeof *kp->sym_addr);
    kp->nfixed = c->is_return ? 2 : 1;
    kp->fields = kzalloc((n + kp->nfixed) * sizeof *kp->fields);
    kp->field_types = kzalloc((n + 1) * sizeof *kp->field_types);
    if (!kp->sym_addr || !kp->fields || !kp->field_types)
        return -ENOMEM;
    if (c->is_return && !kret_pool && !(kret_pool = kzalloc(KRET_POOL * sizeof *kret_pool)))
        return -ENOMEM; /* kept for good: returns may be pending whenever probes exist */
    kp->maxactive = c->maxactive ? c->maxactive : kp_default_maxactive();
    static const char *const fixed_names[2][2] = { { "__probe_ip", 0 },
                                                   { "__probe_func", "__probe_ret_ip" } };
    for (uint32_t i = 0; i < kp->nfixed; i++)
        kp->fields[i] = (struct trace_event_field){ "unsigned long",
                                                    fixed_names[c->is_return][i],
                                                    (uint16_t)(TRACE_EVENT_HEADER_SIZE + 4 * i),
                                                    4, 0, false, TRACE_FIELD_INT };
    uint32_t offset = TRACE_EVENT_HEADER_SIZE + 4 * kp->nfixed;
    for (uint32_t i = 0; i < n; i++) {
        struct kp_fetch_arg *a = &c->args[i];
        berr->arg = i + 1;
        berr->msg = "This register is not available at a function's return";
        uint32_t known = c->is_return ? KP_RETURN_REGS : kp->int3 ? KP_INT3_REGS : KP_SITE_REGS;
        if (!kp_fetch_possible(a, known, c->is_return))
            return -EINVAL; /* %bx %si %di %flags: the ftrace site does not save them */
        if (a->base == KP_FETCH_SYMBOL) {
            uint32_t s = symbol_address(kernel_symbols(), a->symbol);
            berr->msg = "Invalid symbol name";
            if (!s)
                return -ENOENT;
            kp->sym_addr[i] = s; /* kp_fetch_value adds the +|-OFFS */
        }
        enum kp_type t = (enum kp_type)a->type;
        field_type_name(t, kp->field_types[i]);
        bool str = t == KP_TYPE_STRING;
        kp->fields[i + kp->nfixed] = (struct trace_event_field){
            kp->field_types[i], a->name, (uint16_t)offset, (uint16_t)kp_type_size(t), 0,
            t >= KP_TYPE_S8 && t <= KP_TYPE_S64, str ? TRACE_FIELD_DATA_LOC : TRACE_FIELD_INT,
        };
        offset += kp_type_size(t);
    }
    berr->arg = 0;
    berr->msg = "Too many arguments are specified";
    if (offset > 0xffff)
        return -E2BIG;
    kp->fixed_size = offset;
    memcpy(kp->system, c->group, sizeof kp->system);
    kp->call.system = kp->system;
    memcpy(kp->call.name, c->event, sizeof kp->call.name);
    kp->call.ops = &probe_ops;
    kp->call.data = kp;
    kp->call.fields = kp->fields;
    kp->call.nr_fields = (uint16_t)(n + kp->nfixed);
    return 0;
}

static struct kprobe *find_probe(const char *group, const char *event)
{
    for (struct kprobe *p = probes; p; p = p->next)
        if (strcmp(p->call.name, event) == 0 && (!*group || strcmp(p->system, group) == 0))
            return p;
    return NULL;
}

/* Unlinks and frees kp: 0, or -EBUSY while enabled. */
static int delete_probe(struct kprobe *kp)
{
    int err = trace_event_unregister(&kp->call);
    if (err)
        return err;
    for (struct kprobe **link = &probes; *link; link = &(*link)->next)
        if (*link == kp) {
            *link = kp->next;
            break;
        }
    /* Its pending returns still come back through the trampoline: they record nothing. A
     * return recording it on another CPU holds kret_lock: it is done once this has it. */
    unsigned long flags = spin_lock_irqsave(&kret_lock);
    for (uint32_t i = 0; kret_pool && i < KRET_POOL; i++)
        if (kret_pool[i].kp == kp)
            kret_pool[i].kp = 0;
    spin_unlock_irqrestore(&kret_lock, flags);
    free_probe(kp);
    return 0;
}

/* What error_log is told of a refused line. */
struct refusal {
    const char *line;
    size_t len;
    const char *msg;
    uint32_t pos;
};

/* "trace_kprobe: error: MSG\n  Command: LINE\n" and the caret under pos, as Linux's
 * tracing_log_err prints a probe's error. */
static void print_refusal(struct fs_writer *out, const void *arg)
{
    const struct refusal *r = arg;
    size_t len = r->len > 256 ? 256 : r->len;
    fs_printf(out, "trace_kprobe: error: %s\n", r->msg);
    trace_error_log_print_command(out, r->line, len, r->pos);
}

/* Where the n-th word (from 0) of line starts, for the caret; len when there is none. */
static uint32_t word_start(const char *line, size_t len, uint32_t n)
{
    size_t i = 0;
    for (uint32_t w = 0;; w++) {
        while (i < len && is_space(line[i]))
            i++;
        if (w == n || i >= len)
            return (uint32_t)i;
        while (i < len && !is_space(line[i]))
            i++;
    }
}

static void log_refusal(const char *line, size_t len, const char *msg, uint32_t pos)
{
    struct refusal r = { line, len, msg, pos };
    trace_error_log_add(print_refusal, &r);
}

/* One line: add or delete a probe; 0 or -errno (error_log says why). */
static int apply_line(const char *line, size_t len)
{
    struct kprobe *kp = kzalloc(sizeof *kp);
    if (!kp)
        return -ENOMEM;
    struct kp_error perr;
    int err = kp_parse(line, len, &kp->cmd, &perr);
    if (err) {
        if (perr.msg)
            log_refusal(line, len, perr.msg, perr.pos);
        kfree(kp);
        return err;
    }
    if (kp->cmd.op != KP_OP_ADD) {
        if (kp->cmd.op == KP_OP_DELETE) {
            struct kprobe *old = find_probe(kp->cmd.group, kp->cmd.event);
            err = old ? delete_probe(old) : -ENOENT;
            if (err == -EBUSY)
                log_refusal(line, len, "This event is enabled", word_start(line, len, 0));
            else if (err)
                log_refusal(line, len, "No such event", word_start(line, len, 0));
        }
        free_probe(kp);
        return err;
    }
    struct build_error berr = { 0, 0 };
    err = build_probe(kp, &berr);
    if (err && berr.msg)
        log_refusal(line, len, berr.msg, word_start(line, len, berr.arg + 1));
    if (!err) {
        err = trace_event_register(&kp->call);
        if (err == -EEXIST)
            log_refusal(line, len, "Given group/event name is already used by another event",
                        word_start(line, len, 0));
    }
    if (err) {
        free_probe(kp);
        return err;
    }
    struct kprobe **tail = &probes; /* kept in creation order, as Linux lists them */
    while (*tail)
        tail = &(*tail)->next;
    *tail = kp;
    return 0;
}

/* Deletes every probe, or none with -EBUSY when one is enabled (Linux's O_TRUNC open). */
static int delete_all(void)
{
    for (const struct kprobe *p = probes; p; p = p->next)
        if (p->call.enabled)
            return -EBUSY;
    while (probes) {
        int err = delete_probe(probes);
        if (err)
            return err;
    }
    return 0;
}

/* --- the file ------------------------------------------------------------------------------------ */

static int read_kprobe_events(struct fs_node *node, struct fs_writer *out)
{
    (void)node;
    unsigned long flags = spin_lock_irqsave(&kprobe_lock);
    for (const struct kprobe *p = probes; p; p = p->next)
        kp_print_command(out, &p->cmd);
    spin_unlock_irqrestore(&kprobe_lock, flags);
    return 0;
}

/* Lines in order; '>' (append false) first deletes every probe (EBUSY if one is enabled).
 * An error stops at its line, the lines before it done, as on Linux. */
static int write_kprobe_events(struct fs_node *node, const char *data, size_t len, bool append)
{
    (void)node;
    unsigned long flags = spin_lock_irqsave(&kprobe_lock);
    int err = append ? 0 : delete_all();
    while (!err && len > 0) {
        const char *nl = memchr(data, '\n', len);
        size_t line = nl ? (size_t)(nl - data) : len;
        err = apply_line(data, line);
        size_t step = nl ? line + 1 : line;
        data += step;
        len -= step;
    }
    spin_unlock_irqrestore(&kprobe_lock, flags);
    return err;
}

/* kprobe_profile: each probe's event name, hits and misses, in creation order (Linux's
 * "%-44s %15lu %15lu\n"). */
static int read_kprobe_profile(struct fs_node *node, struct fs_writer *out)
{
    (void)node;
    unsigned long flags = spin_lock_irqsave(&kprobe_lock);
    for (const struct kprobe *p = probes; p; p = p->next)
        fs_printf(out, "  %-44s %15llu %15llu\n", p->call.name,
                  (unsigned long long)count_total(p->nhit),
                  (unsigned long long)count_total(p->nmissed));
    spin_unlock_irqrestore(&kprobe_lock, flags);
    return 0;
}

static const struct fs_file_ops kprobe_profile_ops = { .read = read_kprobe_profile };

static const struct fs_file_ops kprobe_events_ops = {
    .read = read_kprobe_events,
    .write = write_kprobe_events,
    .truncates = true,
};

static void kprobe_events_setup(void)
{
    ftrace_set_kprobe_hook(kprobe_hit);
    kprobe_arch_set_hook(kprobe_int3_hit);
    kprobe_arch_set_return_hook(kret_return);
    task_on_create(&kret_task_hook);
    fs_create(tracefs_root(), "kprobe_events", &kprobe_events_ops, NULL);
    fs_create(tracefs_root(), "kprobe_profile", &kprobe_profile_ops, NULL);
}
INITCALL(trace, kprobe_events_setup);
