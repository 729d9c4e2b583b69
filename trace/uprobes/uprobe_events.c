/*
 * uprobe_events.c - the tracefs file uprobe_events and the probe events it creates
 * (Linux's kernel/trace/trace_uprobe.c, Documentation/trace/uprobetracer.rst), and
 * uprobe_profile.
 *
 * A line parsed by kp_parse_uprobe (the kprobe_events parser: the same fetch args) names
 * PATH:OFFSET, a byte of a program file of this kernel's file tree (/bin/NAME, as execve
 * resolves it). uprobe_elf_check turns the offset into the one address it has in every
 * process running the file, or refuses it (EINVAL outside an executable segment or for an
 * instruction that cannot be stepped, EILSEQ off an instruction boundary; ENOENT for a
 * path that is no file, ENOEXEC for a file that is no program), telling error_log why.
 *
 * Enabling a probe writes 0xCC at that address in every process that runs the file now,
 * and uprobe_task_start in every process that starts running it later; a fork copies its
 * parent's text with the int3. Each process has its own private copy of the text
 * (arch/x86/uprobe_arch.h), so nothing else, neither the file nor another program, sees
 * the byte. Disabling writes the original byte back in every process. A hit records
 * __probe_ip (the address) and the fetch args, read from the user's registers and memory
 * with copy_from_user: a bad pointer records 0 (a string "(fault)").
 *
 * Return probes (r) are refused for now (EINVAL, error_log says so).
 *
 * Concurrency (one CPU): the list and the probes' enabled state change only under
 * uprobe_lock with interrupts off; the hit runs with interrupts off (vector 3), so it never
 * sees a half-changed list; a probe is freed only while disabled, when no process has its
 * int3. The kernel is not preempted, so no exec or fork runs while a probe is being armed
 * or disarmed in every process.
 */
#include "trace/uprobes/uprobe_events.h"

#include "kernel/arch.h"
#include "kernel/fs/fs_layout.h"
#include "kernel/fs/fs_task.h"
#include "kernel/init.h"
#include "kernel/lib/errno.h"
#include "kernel/lib/parse.h"
#include "kernel/lib/string.h"
#include "kernel/mm/heap.h"
#include "kernel/smp.h"
#include "kernel/mm/uaccess.h"
#include "kernel/proc/programs.h"
#include "kernel/proc/task.h"
#include "kernel/proc/task_internal.h"
#include "kernel/spinlock.h"
#include "trace/core/error_log.h"
#include "trace/events/trace_events.h"
#include "trace/kprobes/kprobe_fetch.h"
#include "trace/kprobes/kprobe_parse.h"
#include "trace/uprobes/uprobe_elf.h"

#define UP_STRING_MAX 128 /* bytes of one string arg recorded, NUL not included */
#define UP_REGS ((1u << KP_NR_REGS) - 1) /* an int3 knows every register */
#define INT3 0xcc

struct uprobe {
    struct trace_event_call call;
    struct kp_command cmd;
    char system[KP_NAME_MAX];
    const struct program *prog;       /* the file PATH names */
    uint32_t vaddr;                   /* where OFFSET is in a process running it */
    uint8_t orig;                     /* the file's byte there */
    uint64_t nhit;                    /* uprobe_profile */
    struct trace_event_field *fields; /* __probe_ip, then one per arg */
    char (*field_types)[8];
    uint32_t fixed_size;              /* the record without its strings */
    struct uprobe *next;
};

static struct uprobe *probes; /* newest first */
static struct spinlock uprobe_lock = SPINLOCK_INIT("uprobe_events");

/* --- the hit ------------------------------------------------------------------------------ */

/* kp_site's reader: the current process's memory, through copy_from_user (never faults). */
static bool read_user(void *ctx, uint32_t addr, void *buf, uint32_t len)
{
    (void)ctx;
    return copy_from_user(buf, addr, len) == 0;
}

/* Copies the NUL-terminated user text at addr (at most max bytes): its length, or -1. */
static int read_user_string(uint32_t addr, char *buf, uint32_t max)
{
    for (uint32_t n = 0; n < max; n++) {
        if (copy_from_user(&buf[n], addr + n, 1) != 0)
            return -1;
        if (!buf[n])
            return (int)n;
    }
    return (int)max;
}

/* Records one event of up for the hit described by site. */
static void record_hit(const struct uprobe *up, const struct kp_site *site, bool irqs)
{
    /* One buffer per CPU: hits run with interrupts off, one at a time on each CPU. */
    static char cpu_strings[MAX_CPUS][KP_MAX_ARGS * (UP_STRING_MAX + 8)];
    char *strings = cpu_strings[arch_cpu_id()];
    uint32_t used = 0;
    uint32_t loc[KP_MAX_ARGS];
    for (uint32_t i = 0; i < up->cmd.nargs; i++) {
        const struct kp_fetch_arg *a = &up->cmd.args[i];
        if (a->type != KP_TYPE_STRING)
            continue;
        char *dst = strings + used;
        int n;
        if (a->base == KP_FETCH_COMM) {
            const char *name = task_name(current);
            n = (int)strlen(name);
            memcpy(dst, name, (size_t)n);
        } else {
            uint32_t addr;
            n = kp_fetch_string_addr(a, site, 0, &addr) == KP_FETCH_OK
                    ? read_user_string(addr, dst, UP_STRING_MAX)
                    : -1;
            if (n < 0) {
                n = 7;
                memcpy(dst, "(fault)", 7);
            }
        }
        dst[n] = '\0';
        loc[i] = (uint32_t)(n + 1) << 16 | (up->fixed_size + used);
        used += (uint32_t)n + 1;
    }
    struct trace_entry *e = trace_event_reserve(&up->call, up->fixed_size + used);
    if (!e)
        return;
    /* The hit runs with interrupts off; the event shows the program's state (on). */
    e->flags = (uint8_t)((e->flags & ~TRACE_FLAG_IRQS_OFF) | (irqs ? 0 : TRACE_FLAG_IRQS_OFF));
    uint8_t *rec = (uint8_t *)e;
    memcpy(rec + TRACE_EVENT_HEADER_SIZE, &up->vaddr, 4);
    for (uint32_t i = 0; i < up->cmd.nargs; i++) {
        const struct kp_fetch_arg *a = &up->cmd.args[i];
        const struct trace_event_field *f = &up->fields[i + 1];
        if (a->type == KP_TYPE_STRING) {
            memcpy(rec + f->offset, &loc[i], 4);
            continue;
        }
        uint64_t v = 0;
        if (kp_fetch_value(a, site, 0, &v) != KP_FETCH_OK)
            v = 0;
        memcpy(rec + f->offset, &v, f->size); /* little-endian: the low bytes */
    }
    memcpy(rec + up->fixed_size, strings, used);
    trace_event_commit(&up->call, e, up->fixed_size + used); /* its filter, if any */
}

/* The int3 hook (arch/x86/uprobe_arch.c): every enabled probe on the current process's
 * program at addr records an event. */
static bool uprobe_hit(uint32_t addr, const uint32_t regs[KPROBE_ARCH_NREGS], uint8_t *orig)
{
    const struct program *prog = current->program;
    struct kp_site site = { .known_regs = UP_REGS, .read = read_user };
    for (int r = 0; r < KP_NR_REGS; r++)
        site.regs[r] = regs[r];
    bool ours = false;
    for (struct uprobe *up = probes; up; up = up->next) {
        if (!prog || up->prog != prog || up->vaddr != addr || !up->call.enabled)
            continue;
        ours = true;
        *orig = up->orig;
        up->nhit++;
        record_hit(up, &site, regs[KP_REG_FLAGS] & (1u << 9));
    }
    return ours;
}

/* --- arming ------------------------------------------------------------------------------- */

/* Whether another enabled probe than up has an int3 at up's place. */
static bool place_shared(const struct uprobe *up)
{
    for (const struct uprobe *p = probes; p; p = p->next)
        if (p != up && p->call.enabled && p->prog == up->prog && p->vaddr == up->vaddr)
            return true;
    return false;
}

/* Writes the int3 (arm) or the original byte back in every process running up's file.
 * Those processes may be running on other CPUs: every CPU is synced before this returns,
 * so none still executes the old byte (and, for QEMU, each byte is written a second time
 * between two syncs: uprobe_arch_rewrite). */
static void poke_all(const struct uprobe *up, bool arm)
{
    unsigned long flags = arch_irq_save();
    for (struct task *t = task_list(); t; t = t->next)
        if (t->as && t->program == up->prog)
            uprobe_arch_poke(t->as, up->vaddr, arm ? up->orig : INT3, arm ? INT3 : up->orig);
    smp_sync_cores();
    for (struct task *t = task_list(); t; t = t->next)
        if (t->as && t->program == up->prog)
            uprobe_arch_rewrite(t->as, up->vaddr);
    smp_sync_cores();
    arch_irq_restore(flags);
}

/* task_on_program_start's hook: t starts running a program (uprobe_events.h). */
void uprobe_task_start(struct task *t)
{
    unsigned long flags = spin_lock_irqsave(&uprobe_lock);
    for (const struct uprobe *up = probes; up; up = up->next)
        if (up->call.enabled && t->as && up->prog == t->program)
            uprobe_arch_poke(t->as, up->vaddr, up->orig, INT3);
    spin_unlock_irqrestore(&uprobe_lock, flags);
}

/* --- the event ---------------------------------------------------------------------------- */

/* "EVENT: (0xADDR) name=value ...", as Linux's uprobe events print. */
static void print_probe(struct fs_writer *out, const struct trace_event_call *call,
                        const struct trace_event_view *ev)
{
    const struct uprobe *up = call->data;
    const uint8_t *rec = (const uint8_t *)ev->entry;
    int64_t ip = 0;
    trace_field_read_int(&up->fields[0], rec, ev->length, &ip);
    fs_printf(out, "%s: (0x%x)", call->name, (uint32_t)ip);
    for (uint32_t i = 0; i < up->cmd.nargs; i++) {
        const struct kp_fetch_arg *a = &up->cmd.args[i];
        const struct trace_event_field *f = &up->fields[i + 1];
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
        else
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

/* The blank line and "print fmt: ..." (the core printed the fields), as Linux's. */
static void print_probe_format(struct fs_writer *out, const struct trace_event_call *call)
{
    const struct uprobe *up = call->data;
    fs_printf(out, "\nprint fmt: \"(%%lx)");
    for (uint32_t i = 0; i < up->cmd.nargs; i++)
        fs_printf(out, " %s=%s", up->cmd.args[i].name,
                  type_conversion((enum kp_type)up->cmd.args[i].type));
    fs_printf(out, "\", REC->__probe_ip");
    for (uint32_t i = 0; i < up->cmd.nargs; i++) {
        if (up->cmd.args[i].type == KP_TYPE_STRING)
            fs_printf(out, ", __get_str(%s)", up->cmd.args[i].name);
        else
            fs_printf(out, ", REC->%s", up->cmd.args[i].name);
    }
    fs_printf(out, "\n");
}

/* Enabling writes the int3 into every process running the file, disabling takes it out
 * (unless another enabled probe is at the same place: place_shared looks only at the
 * others, so it does not matter that the core sets call.enabled after this returns).
 * Each enabled probe holds vector 3 on its interrupt gate. */
static int enable_probe(struct trace_event_call *call, bool on)
{
    struct uprobe *up = call->data;
    if (!place_shared(up))
        poke_all(up, on);
    uprobe_arch_hold_int3(on);
    return 0;
}

static const struct trace_event_ops probe_ops = {
    .print = print_probe,
    .print_format = print_probe_format,
    .enable = enable_probe,
};

/* --- creating and deleting ---------------------------------------------------------------- */

static void free_probe(struct uprobe *up)
{
    kp_command_free(&up->cmd);
    kfree(up->fields);
    kfree(up->field_types);
    kfree(up);
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

/* Why build_probe refused: the message and the word it points at (0: the probe word,
 * 1: PATH:OFFSET, n + 1: the n-th fetch arg). */
struct build_error {
    const char *msg;
    uint32_t word;
};

/* The program PATH names, resolved as execve resolves it: 0, or -errno. */
static int find_file(const char *path, const struct program **out)
{
    int err;
    struct fs_node *node = task_resolve(path, 0, &err);
    if (!node)
        return err;
    if (fs_is_dir(node))
        return -EISDIR;
    *out = program_of_node(node);
    return *out ? 0 : -ENOEXEC;
}

/* Checks the line against the file and builds the event's fields; 0 or -errno. */
static int build_probe(struct uprobe *up, struct build_error *berr)
{
    struct kp_command *c = &up->cmd;
    berr->word = 1;
    if (c->is_return) {
        berr->word = 0;
        berr->msg = "Return uprobes are not supported yet";
        return -EINVAL;
    }
    int err = find_file(c->path, &up->prog);
    if (err) {
        berr->msg = err == -ENOEXEC ? "Not an executable program" : "Failed to find the given file";
        return err;
    }
    const char *why = 0;
    err = uprobe_elf_check(up->prog->image, up->prog->size, c->offset, &up->vaddr, &why);
    if (err) {
        berr->msg = why;
        return err;
    }
    up->orig = ((const uint8_t *)up->prog->image)[c->offset];
    uint32_t n = c->nargs;
    up->fields = kzalloc((n + 1) * sizeof *up->fields);
    up->field_types = kzalloc((n + 1) * sizeof *up->field_types);
    if (!up->fields || !up->field_types)
        return -ENOMEM;
    up->fields[0] = (struct trace_event_field){ "unsigned long", "__probe_ip",
                                                TRACE_EVENT_HEADER_SIZE, 4, 0, false,
                                                TRACE_FIELD_INT };
    uint32_t offset = TRACE_EVENT_HEADER_SIZE + 4;
    for (uint32_t i = 0; i < n; i++) {
        struct kp_fetch_arg *a = &c->args[i];
        berr->word = i + 2;
        if (a->base == KP_FETCH_FILE) {
            /* @+OFFSET: the file offset's address in every process running the file. */
            uint32_t addr;
            err = uprobe_elf_address(up->prog->image, up->prog->size, a->addr, false, &addr,
                                     &why);
            if (err) {
                berr->msg = "Invalid file offset";
                return -EINVAL;
            }
            a->base = KP_FETCH_MEMORY;
            a->addr = addr;
        }
        if (a->type == KP_TYPE_SYMBOL) {
            berr->msg = "Symbol type is not available with uprobe";
            return -EINVAL;
        }
        enum kp_type t = (enum kp_type)a->type;
        field_type_name(t, up->field_types[i]);
        bool str = t == KP_TYPE_STRING;
        up->fields[i + 1] = (struct trace_event_field){
            up->field_types[i], a->name, (uint16_t)offset, (uint16_t)kp_type_size(t), 0,
            t >= KP_TYPE_S8 && t <= KP_TYPE_S64, str ? TRACE_FIELD_DATA_LOC : TRACE_FIELD_INT,
        };
        offset += kp_type_size(t);
    }
    berr->word = 1;
    berr->msg = "Too many arguments are specified";
    if (offset > 0xffff)
        return -E2BIG;
    up->fixed_size = offset;
    memcpy(up->system, c->group, sizeof up->system);
    up->call.system = up->system;
    memcpy(up->call.name, c->event, sizeof up->call.name);
    up->call.ops = &probe_ops;
    up->call.data = up;
    up->call.fields = up->fields;
    up->call.nr_fields = (uint16_t)(n + 1);
    return 0;
}

static struct uprobe *find_probe(const char *group, const char *event)
{
    for (struct uprobe *p = probes; p; p = p->next)
        if (strcmp(p->call.name, event) == 0 && (!*group || strcmp(p->system, group) == 0))
            return p;
    return NULL;
}

/* Unlinks and frees up: 0, or -EBUSY while enabled. */
static int delete_probe(struct uprobe *up)
{
    int err = trace_event_unregister(&up->call);
    if (err)
        return err;
    for (struct uprobe **link = &probes; *link; link = &(*link)->next)
        if (*link == up) {
            *link = up->next;
            break;
        }
    free_probe(up);
    return 0;
}

/* What error_log is told of a refused line. */
struct refusal {
    const char *line;
    size_t len;
    const char *msg;
    uint32_t pos;
};

/* "trace_uprobe: error: MSG\n  Command: LINE\n" and the caret under pos, as Linux's
 * tracing_log_err prints a probe's error. */
static void print_refusal(struct fs_writer *out, const void *arg)
{
    const struct refusal *r = arg;
    size_t len = r->len > 256 ? 256 : r->len;
    fs_printf(out, "trace_uprobe: error: %s\n  Command: ", r->msg);
    for (size_t i = 0; i < len; i++) {
        char c = r->line[i];
        char shown = ((unsigned char)c < ' ' || (unsigned char)c > '~') ? '.' : c;
        out->emit(out, &shown, 1);
    }
    fs_puts(out, "\n           ");
    for (uint32_t i = 0; i < r->pos && i < len; i++)
        out->emit(out, " ", 1);
    fs_puts(out, "^\n");
}

/* Where the n-th word (from 0) of line starts, for the caret. */
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
    struct uprobe *up = kzalloc(sizeof *up);
    if (!up)
        return -ENOMEM;
    struct kp_error perr;
    int err = kp_parse_uprobe(line, len, &up->cmd, &perr);
    if (err) {
        if (perr.msg)
            log_refusal(line, len, perr.msg, perr.pos);
        kfree(up);
        return err;
    }
    if (up->cmd.op != KP_OP_ADD) {
        if (up->cmd.op == KP_OP_DELETE) {
            struct uprobe *old = find_probe(up->cmd.group, up->cmd.event);
            err = old ? delete_probe(old) : -ENOENT;
            if (err == -EBUSY)
                log_refusal(line, len, "This event is enabled", word_start(line, len, 0));
            else if (err)
                log_refusal(line, len, "No such event", word_start(line, len, 0));
        }
        free_probe(up);
        return err;
    }
    struct build_error berr = { 0, 0 };
    err = build_probe(up, &berr);
    if (err && berr.msg)
        log_refusal(line, len, berr.msg, word_start(line, len, berr.word));
    if (!err) {
        err = trace_event_register(&up->call);
        if (err == -EEXIST)
            log_refusal(line, len, "Given group/event name is already used by another event",
                        word_start(line, len, 0));
    }
    if (err) {
        free_probe(up);
        return err;
    }
    up->next = probes;
    probes = up;
    return 0;
}

/* Deletes every probe, or none with -EBUSY when one is enabled (Linux's O_TRUNC open). */
static int delete_all(void)
{
    for (const struct uprobe *p = probes; p; p = p->next)
        if (p->call.enabled)
            return -EBUSY;
    while (probes) {
        int err = delete_probe(probes);
        if (err)
            return err;
    }
    return 0;
}

/* --- the files ---------------------------------------------------------------------------- */

/* The n-th probe in creation order (the list is newest first). */
static const struct uprobe *nth_oldest(uint32_t count, uint32_t n)
{
    const struct uprobe *p = probes;
    for (uint32_t j = n + 1; j < count; j++)
        p = p->next;
    return p;
}

static uint32_t count_probes(void)
{
    uint32_t n = 0;
    for (const struct uprobe *p = probes; p; p = p->next)
        n++;
    return n;
}

static int read_uprobe_events(struct fs_node *node, struct fs_writer *out)
{
    (void)node;
    unsigned long flags = spin_lock_irqsave(&uprobe_lock);
    uint32_t n = count_probes();
    for (uint32_t i = 0; i < n; i++)
        kp_print_command(out, &nth_oldest(n, i)->cmd);
    spin_unlock_irqrestore(&uprobe_lock, flags);
    return 0;
}

/* Lines in order; '>' (append false) first deletes every probe (EBUSY if one is enabled).
 * An error stops at its line, the lines before it done, as on Linux. */
static int write_uprobe_events(struct fs_node *node, const char *data, size_t len, bool append)
{
    (void)node;
    unsigned long flags = spin_lock_irqsave(&uprobe_lock);
    int err = append ? 0 : delete_all();
    while (!err && len > 0) {
        const char *nl = memchr(data, '\n', len);
        size_t line = nl ? (size_t)(nl - data) : len;
        err = apply_line(data, line);
        size_t step = nl ? line + 1 : line;
        data += step;
        len -= step;
    }
    spin_unlock_irqrestore(&uprobe_lock, flags);
    return err;
}

/* uprobe_profile: "PATH EVENT HITS" per probe in creation order (Linux's
 * "  %s %-44s %15lu\n"). */
static int read_uprobe_profile(struct fs_node *node, struct fs_writer *out)
{
    (void)node;
    unsigned long flags = spin_lock_irqsave(&uprobe_lock);
    uint32_t n = count_probes();
    for (uint32_t i = 0; i < n; i++) {
        const struct uprobe *p = nth_oldest(n, i);
        fs_printf(out, "  %s %-44s %15llu\n", p->cmd.path, p->call.name,
                  (unsigned long long)p->nhit);
    }
    spin_unlock_irqrestore(&uprobe_lock, flags);
    return 0;
}

static const struct fs_file_ops uprobe_profile_ops = { .read = read_uprobe_profile };

static const struct fs_file_ops uprobe_events_ops = {
    .read = read_uprobe_events,
    .write = write_uprobe_events,
    .truncates = true,
};

static void uprobe_events_setup(void)
{
    uprobe_arch_set_hook(uprobe_hit);
    task_on_program_start(uprobe_task_start);
    fs_create(tracefs_root(), "uprobe_events", &uprobe_events_ops, NULL);
    fs_create(tracefs_root(), "uprobe_profile", &uprobe_profile_ops, NULL);
}
INITCALL(trace, uprobe_events_setup);
