/*
 * user_events.c - events that user programs define and write (Linux's user_events, both
 * ABI generations):
 *
 *   user_events_data    ioctl DIAG_IOCSREG registers "name fields" and answers a write
 *                       index (and a status bit, or with Linux 6.4's struct user_reg keeps a
 *                       bit of the program's own memory equal to "enabled"); DIAG_IOCSDEL
 *                       deletes an unused event; DIAG_IOCSUNREG stops updating a bit.
 *                       write()/writev(): the 4-byte write index, then the payload.
 *   user_events_status  "BIT:NAME [# Used by ftrace]" per event, a blank line, then
 *                       Active/Busy/Max; mmap(): the status page, bit BIT set while enabled.
 *   dynamic_events      "u:NAME FIELDS" creates, "-:NAME" or "!u:NAME" deletes; lists them.
 *   events/user_events/NAME/{enable,format,id}   (trace/events/trace_events.c)
 *
 *   /proc/sys/kernel/user_events_max   the limit on events (Linux's sysctl; root writes)
 *
 * Enable bits belong to a process's memory, as Linux 6.4+ keeps them per mm: a fork's child
 * gets a copy of each (its copy of the word keeps following the event), exec and exit drop
 * them (task.h's hooks); a vfork child borrows its parent's memory and its bits.
 *
 * Commands, payload checks and texts are trace/events/user_events_parse.c. Lifetime: an
 * event is referenced by each open user_events_data that registered it, each enable bit on
 * it, and being enabled (an open file of its events/ directory is not a reference: the
 * delete takes the directory away under it, as Linux's tracefs does). How long an
 * unreferenced event stays depends on how it was created (enum ue_lifetime): through Linux
 * 6.4's struct user_reg without USER_EVENT_REG_PERSIST it is deleted at once, as 6.6+ does;
 * through the pre-6.4 structure it stays until deleted, as 6.1 kept it; with
 * USER_EVENT_REG_PERSIST or through dynamic_events it stays until root deletes it (6.6).
 * Only an unreferenced event can be deleted (-EBUSY).
 *
 * Bounds: at most user_events_max events (default 32768, and no more than the status
 * page's bits 1..32767: bit 0 is never handed out) whose heap memory stays within
 * UE_EVENT_BUDGET, and enable bits and write-index tables within UE_REF_BUDGET: both far
 * below what the heap holds, so a flood meets the limit's errno (EMFILE for events, ENOMEM
 * for the rest) while the kernel still has memory for everything else.
 *
 * Concurrency: ue_lock guards the registry, the open files' tables, the enablers and the
 * status page. The write path takes no lock: a file's table of events is only ever
 * appended to (a full one is replaced by a bigger copy, the old one freed at release), and
 * an event in a table cannot be deleted.
 */
#include "kernel/fs/fs_layout.h"
#include "kernel/lib/bitmap_alloc.h"
#include "kernel/lib/errno.h"
#include "kernel/lib/name_hash.h"
#include "kernel/fs/file.h"
#include "kernel/mm/heap.h"
#include "kernel/init.h"
#include "kernel/mm/page_alloc.h"
#include "kernel/params.h"
#include "kernel/lib/parse.h"
#include "kernel/log/printk.h"
#include "kernel/spinlock.h"
#include "kernel/lib/string.h"
#include "kernel/proc/task.h"
#include "kernel/mm/uaccess.h"
#include "trace/core/trace.h"
#include "trace/events/trace_events.h"
#include "trace/events/user_events_parse.h"
#include "uapi/user_events.h"

#define SYSTEM_NAME "user_events"
#define STATUS_BITS (PAGE_SIZE * 8)
/* Linux's user_events_max default; "Max:" in the user_events_status of Linux before 6.4 */
#define DEFAULT_MAX_EVENTS 32768
/* Heap bytes the events of all programs together may take: under half of the kernel heap's
 * 4 MiB (kernel/mm/heap.c: 64 chunks of 64 KiB), so that a flood leaves the rest to processes,
 * files and IPC. Over 1,000 events of one field fit (the flood of hostile_flood.c needs
 * 1,000, each with its directory of enable, format, id, filter and trigger: issue 18's
 * trigger file took 1 MiB down to 886 events, so the budget grew by half; issue 24's
 * directory index, 28 bytes a node and an index per directory, took 1.5 MiB down to 969,
 * so it grew by an eighth: about 1,130 fit). */
#define UE_EVENT_BUDGET (1792u * 1024)
/* Heap bytes for the enable bits and write-index tables of all registrations: a quarter as
 * much as events may take, about 8,000 enable bits. */
#define UE_REF_BUDGET (256u * 1024)

_Static_assert(UE_NAME_MAX == TRACE_EVENT_NAME_MAX, "an event name fits its trace_event_call");
_Static_assert(USER_EVENT_REG_PERSIST == 1, "ue_lifetime_of tests bit 0");
_Static_assert(UE_HEADER_SIZE == TRACE_EVENT_HEADER_SIZE, "fields start after struct trace_entry");

/* A bit of a process's memory kept equal to "the event is enabled" (struct user_reg). */
struct enabler {
    struct task *task;
    uint32_t addr;
    uint8_t bit;
    struct enabler *next;
};

struct user_event {
    struct trace_event_call call;
    struct ue_desc *desc;
    uint32_t status_bit;
    uint32_t file_refs;       /* entries in the tables of open user_events_data files */
    struct enabler *enablers;
    bool used_by_ftrace;      /* enabled through the events tree */
    enum ue_lifetime lifetime; /* fixed by its creator (user_events_parse.h) */
    uint32_t charged;         /* heap bytes charged to the budget for it */
    struct user_event *next;  /* the registry, in creation order */
    struct user_event *prev;  /* ... and back, so a delete unlinks in O(1) */
    struct name_hash_link name_link; /* in event_names, under call.name */
    struct trace_event_field *fields; /* issue 18, event filters: call.fields' room, after
                                       * the struct in the same allocation */
};

/* What an open user_events_data can write, by write index (its struct file's private_data). */
struct ref_table {
    uint32_t count;           /* entries in use; the write path reads it with acquire */
    uint32_t capacity;
    struct ref_table *older;  /* the outgrown table, still read by writers already in it */
    struct event_ref {
        struct user_event *ev;
        /* Registered through Linux 6.4's struct user_reg: a write while the event is
         * disabled is EBADF, as 6.4+ answers; through the pre-6.4 structure it returns its
         * length, as 6.1 did (its selftests write to disabled events and expect that). */
        bool badf_when_disabled;
    } events[];
};

static struct spinlock ue_lock = SPINLOCK_INIT("user_events");
static struct user_event *events;
static struct user_event *events_tail; /* the last created: a new event is linked after it */
static struct name_hash event_names;   /* the events by name: find_event in O(1) */
static uint32_t event_count;
static uint32_t max_events = DEFAULT_MAX_EVENTS;
static size_t event_bytes; /* charged against UE_EVENT_BUDGET */
static size_t ref_bytes;   /* charged against UE_REF_BUDGET */
static uint8_t *status_page; /* one page, mapped read-only into programs */
static uint32_t status_words[STATUS_BITS / 32];
static struct bitmap_alloc status_bits;

static void delete_if_unused(struct user_event *ev);

/* --- the registry ------------------------------------------------------------------------ */

/* The event of this name, or NULL: one probe of the name hash, however many events there
 * are (Linux's register_table). Called with ue_lock held. */
static struct user_event *find_event(const char *name)
{
    struct name_hash_link *l = name_hash_find(&event_names, name, strlen(name));
    return l ? (struct user_event *)((char *)l - offsetof(struct user_event, name_link)) : NULL;
}

/* Sets or clears a bit of the status page, atomically: programs read it at any time. */
static void set_status_bit(uint32_t bit, bool on)
{
    uint8_t mask = (uint8_t)(1u << (bit % 8));
    if (on)
        __atomic_fetch_or(&status_page[bit / 8], mask, __ATOMIC_RELEASE);
    else
        __atomic_fetch_and(&status_page[bit / 8], (uint8_t)~mask, __ATOMIC_RELEASE);
}

/* The event's record line in `trace`: "test: count=5". */
static void print_event(struct fs_writer *out, const struct trace_event_call *call,
                        const struct trace_event_view *ev)
{
    const struct user_event *ue = call->data;
    ue_print_record(out, ue->desc, ev->entry, ev->length);
}

/* The event's own lines of events/user_events/NAME/format. */
static void print_event_format(struct fs_writer *out, const struct trace_event_call *call)
{
    const struct user_event *ue = call->data;
    if (call->fields)
        ue_print_format_tail(out, ue->desc); /* the core printed the field lines */
    else
        ue_print_format(out, ue->desc);
}

/* Enabling through the events tree: the status page bit and every process's enable bit
 * follow at once. */
static int enable_event(struct trace_event_call *call, bool on)
{
    struct user_event *ev = call->data;
    unsigned long flags = spin_lock_irqsave(&ue_lock);
    ev->used_by_ftrace = on;
    set_status_bit(ev->status_bit, on);
    for (struct enabler *en = ev->enablers; en; en = en->next)
        task_update_user_bit(en->task, en->addr, en->bit, on); /* a word unmapped since: its loss */
    spin_unlock_irqrestore(&ue_lock, flags);
    return 0;
}

/* The events tree no longer holds the event (disabled): it goes if
 * nothing else does. */
static void event_unused(struct trace_event_call *call)
{
    unsigned long flags = spin_lock_irqsave(&ue_lock);
    delete_if_unused(call->data);
    spin_unlock_irqrestore(&ue_lock, flags);
}

static const struct trace_event_ops event_ops = {
    .print = print_event,
    .print_format = print_event_format,
    .enable = enable_event,
    .unused = event_unused,
};

/* --- the memory budget ------------------------------------------------------------------ */

/* Whether another event, or another enable bit or table, may take heap: false once its
 * budget is used up. Checked before each allocation a program asks for, so a budget is
 * overshot by one allocation at most. Called with ue_lock held. */
static bool event_budget_left(void) { return event_bytes < UE_EVENT_BUDGET; }
static bool ref_budget_left(void) { return ref_bytes < UE_REF_BUDGET; }

/* The heap an event occupies: itself, its description and its events/ directory's nodes
 * (with the directory's index of them), counted whether or not a reader made them yet. */
static uint32_t event_cost(const struct user_event *ev)
{
    return (uint32_t)(kmalloc_cost(ev) + kmalloc_cost(ev->desc) + trace_event_dir_cost());
}

/* Publishes a new event for desc (which it takes): -EMFILE past user_events_max, when the
 * status page is full, or when UE_EVENT_BUDGET is used up (Linux's errno for a full
 * table), -EPERM for a UE_PERSISTENT event asked by a non-root task (as Linux without
 * CAP_PERFMON), -ENOMEM, or the events tree's error. Fields larger than one trace buffer event
 * are accepted, as Linux accepts them: such writes are dropped and counted (record_event).
 * Called with ue_lock held. */
static int create_event(struct ue_desc *desc, enum ue_lifetime lifetime, struct user_event **out)
{
    if (ue_delete_needs_root(lifetime) && !task_privileged(task_current())) { /* Linux: CAP_PERFMON */
        ue_desc_free(desc);
        return -EPERM;
    }
    uint32_t bit = BITMAP_NONE;
    struct user_event *ev = NULL;
    int err = -EMFILE;
    if (event_count < max_events && event_budget_left())
        bit = bitmap_alloc_run(&status_bits, 1, 1);
    if (bit != BITMAP_NONE) {
        err = -ENOMEM;
        ev = kzalloc(sizeof *ev + desc->nfields * sizeof(struct trace_event_field));
    }
    if (ev) {
        ev->desc = desc;
        ev->status_bit = bit;
        ev->call.system = SYSTEM_NAME;
        memcpy(ev->call.name, desc->name, strlen(desc->name) + 1);
        ev->call.ops = &event_ops;
        ev->call.data = ev;
        /* issue 18, event filters: fields for filters, when they can all be described */
        ev->fields = (struct trace_event_field *)(ev + 1);
        if (desc->nfields && ue_describe_fields(desc, ev->fields)) {
            ev->call.fields = ev->fields;
            ev->call.nr_fields = (uint16_t)desc->nfields;
        }
        err = trace_event_register(&ev->call);
    }
    if (err) {
        if (bit != BITMAP_NONE)
            bitmap_set_free(&status_bits, bit, 1);
        kfree(ev);
        ue_desc_free(desc);
        return err;
    }
    ev->lifetime = lifetime;
    ev->charged = event_cost(ev);
    event_bytes += ev->charged;
    ev->prev = events_tail;
    if (events_tail)
        events_tail->next = ev;
    else
        events = ev;
    events_tail = ev;
    name_hash_add(&event_names, &ev->name_link, ev->call.name);
    event_count++;
    *out = ev;
    return 0;
}

/* The event desc describes: the existing one of its name if its fields are the same
 * (-EADDRINUSE if not), else a new one with that lifetime (it counts only when it creates
 * the event, as Linux's flags do). Takes desc. Called with ue_lock held. */
static int find_or_create(struct ue_desc *desc, enum ue_lifetime lifetime, struct user_event **out)
{
    struct user_event *ev = find_event(desc->name);
    if (!ev)
        return create_event(desc, lifetime, out);
    bool same = ue_same_fields(ev->desc, desc);
    ue_desc_free(desc);
    if (!same)
        return -EADDRINUSE;
    *out = ev;
    return 0;
}

/* In use: held by an open user_events_data, a process's enable bit, or enabled (Linux's
 * refcount). A program holding its enable or format file open does not count: as on Linux,
 * the delete goes ahead and that file answers ENODEV (trace_event_unregister). */
static bool event_busy(const struct user_event *ev)
{
    return ev->file_refs || ev->enablers || ev->used_by_ftrace;
}

/* Removes an unused event: 0 or -EBUSY. Called with ue_lock held. */
static int delete_event(struct user_event *ev)
{
    if (event_busy(ev))
        return -EBUSY;
    int err = trace_event_unregister(&ev->call);
    if (err)
        return err;
    if (ev->prev)
        ev->prev->next = ev->next;
    else
        events = ev->next;
    if (ev->next)
        ev->next->prev = ev->prev;
    else
        events_tail = ev->prev;
    name_hash_del(&event_names, &ev->name_link);
    event_count--;
    event_bytes -= ev->charged;
    set_status_bit(ev->status_bit, false);
    bitmap_set_free(&status_bits, ev->status_bit, 1);
    ue_desc_free(ev->desc);
    kfree(ev);
    return 0;
}

/* Called whenever a reference to ev went: an event registered through struct user_reg
 * without USER_EVENT_REG_PERSIST dies with its last one. Linux 6.6+ deletes it from a work
 * item moments later; here it is deleted before the call that dropped the reference
 * returns, so such a program that exits leaves nothing behind. Called with ue_lock held. */
static void delete_if_unused(struct user_event *ev)
{
    if (ue_goes_unused(ev->lifetime) && !event_busy(ev))
        delete_event(ev);
}

/* Deletes every event, or none with -EBUSY if one is in use (Linux's O_TRUNC open of
 * dynamic_events). Called with ue_lock held. */
static int delete_all_events(void)
{
    for (struct user_event *ev = events; ev; ev = ev->next)
        if (event_busy(ev))
            return -EBUSY;
    while (events) {
        int err = delete_event(events);
        if (err)
            return err;
    }
    return 0;
}

/* --- enablers ---------------------------------------------------------------------------- */

/* The link pointing at t's enabler for (addr, bit) on any event, or NULL; *owner gets its
 * event. */
static struct enabler **find_enabler(struct task *t, uint32_t addr, uint8_t bit,
                                     struct user_event **owner)
{
    for (struct user_event *ev = events; ev; ev = ev->next)
        for (struct enabler **link = &ev->enablers; *link; link = &(*link)->next)
            if ((*link)->task == t && (*link)->addr == addr && (*link)->bit == bit) {
                *owner = ev;
                return link;
            }
    return NULL;
}

/* A new enabler of ev for t's bit at addr, linked and charged to UE_REF_BUDGET: 0, or
 * -ENOMEM (no heap, or the budget is used up). Writes nothing. Called with ue_lock held. */
static int link_enabler(struct user_event *ev, struct task *t, uint32_t addr, uint8_t bit)
{
    struct enabler *en = ref_budget_left() ? kmalloc(sizeof *en) : NULL;
    if (!en)
        return -ENOMEM;
    *en = (struct enabler){ t, addr, bit, ev->enablers };
    ev->enablers = en;
    ref_bytes += kmalloc_cost(en);
    return 0;
}

/* Starts keeping t's bit at addr equal to ev's state, writing the state now: 0, -EFAULT
 * (the word is not writable) or -ENOMEM (no heap, or UE_REF_BUDGET is used up). Called with
 * ue_lock held. */
static int add_enabler(struct user_event *ev, struct task *t, uint32_t addr, uint8_t bit)
{
    if (!ref_budget_left())
        return -ENOMEM;
    int err = task_update_user_bit(t, addr, bit, ev->used_by_ftrace);
    return err ? err : link_enabler(ev, t, addr, bit);
}

/* Unlinks and frees the enabler *link points at. Called with ue_lock held. */
static void remove_enabler(struct enabler **link)
{
    struct enabler *en = *link;
    *link = en->next;
    ref_bytes -= kmalloc_cost(en);
    kfree(en);
}

/* Forgets every enabler of t, deleting events nothing holds any more. Called with ue_lock
 * held. */
static void drop_enablers_locked(struct task *t)
{
    struct user_event *next;
    for (struct user_event *ev = events; ev; ev = next) {
        next = ev->next;
        bool dropped = false;
        struct enabler **link = &ev->enablers;
        while (*link) {
            if ((*link)->task == t) {
                remove_enabler(link);
                dropped = true;
            } else {
                link = &(*link)->next;
            }
        }
        if (dropped)
            delete_if_unused(ev);
    }
}

/* Exit and exec hook: a process's enable bits die with its memory (at exec the new program
 * has other things at those addresses, and Linux's user_events_execve drops them too), and
 * with them the references they held. */
static void drop_enablers_of(struct task *t)
{
    unsigned long flags = spin_lock_irqsave(&ue_lock);
    drop_enablers_locked(t);
    spin_unlock_irqrestore(&ue_lock, flags);
}

static struct task_exit_hook exit_hook = { drop_enablers_of, NULL };
static struct task_exec_hook exec_hook = { drop_enablers_of, NULL };

/* Fork function: the child's copy of each of the parent's enable words keeps following its
 * event, as Linux 6.4+'s user_event_mm_dup makes it. Each copy is written with the event's
 * state now, in case it changed after the memory was copied. All or nothing: 0, or -ENOMEM
 * (no heap, or UE_REF_BUDGET used up, as a registration would meet) with no copy kept, and
 * the fork fails with it as Linux's does. */
static int copy_enablers(struct task *parent, struct task *child)
{
    int err = 0;
    unsigned long flags = spin_lock_irqsave(&ue_lock);
    for (struct user_event *ev = events; ev && !err; ev = ev->next)
        for (struct enabler *en = ev->enablers; en && !err; en = en->next) {
            if (en->task != parent)
                continue;
            err = link_enabler(ev, child, en->addr, en->bit); /* in front of en: not seen again */
            if (!err) /* a word the parent has unmapped since: its loss, as in enable_event */
                task_update_user_bit(child, en->addr, en->bit, ev->used_by_ftrace);
        }
    if (err)
        drop_enablers_locked(child);
    spin_unlock_irqrestore(&ue_lock, flags);
    return err;
}

/* --- user_events_data: the per-file table -------------------------------------------------- */

/* ev's write index in f, adding it if needed: the index, or -ENOMEM (no heap, or the
 * budget is used up when the table must grow). abi_6_4: the registration used Linux 6.4's
 * struct user_reg (writes while disabled are then EBADF). Called with ue_lock held. */
static int add_ref(struct file *f, struct user_event *ev, bool abi_6_4)
{
    struct ref_table *t = f->private_data;
    for (uint32_t i = 0; t && i < t->count; i++)
        if (t->events[i].ev == ev) {
            if (abi_6_4) /* once registered the 6.4 way, the index answers as 6.4 */
                __atomic_store_n(&t->events[i].badf_when_disabled, true, __ATOMIC_RELAXED);
            return (int)i;
        }
    if (!t || t->count == t->capacity) {
        uint32_t capacity = t ? t->capacity * 2 : 4;
        struct ref_table *bigger =
            ref_budget_left() ? kmalloc(sizeof *bigger + capacity * sizeof bigger->events[0]) : NULL;
        if (!bigger)
            return -ENOMEM;
        ref_bytes += kmalloc_cost(bigger);
        bigger->count = t ? t->count : 0;
        bigger->capacity = capacity;
        bigger->older = t;
        if (t)
            memcpy(bigger->events, t->events, t->count * sizeof t->events[0]);
        __atomic_store_n(&f->private_data, bigger, __ATOMIC_RELEASE);
        t = bigger;
    }
    uint32_t index = t->count;
    t->events[index].ev = ev;
    t->events[index].badf_when_disabled = abi_6_4;
    __atomic_store_n(&t->count, index + 1, __ATOMIC_RELEASE);
    ev->file_refs++;
    return (int)index;
}

/* The last close of a user_events_data: it drops its reference to each event it
 * registered, and those nobody else holds go (those that go with their last reference). */
static void release_data(struct file *f)
{
    unsigned long flags = spin_lock_irqsave(&ue_lock);
    struct ref_table *t = f->private_data;
    for (uint32_t i = 0; t && i < t->count; i++) {
        t->events[i].ev->file_refs--;
        delete_if_unused(t->events[i].ev);
    }
    f->private_data = NULL;
    for (struct ref_table *old = t; old; old = old->older)
        ref_bytes -= kmalloc_cost(old);
    spin_unlock_irqrestore(&ue_lock, flags);
    while (t) {
        struct ref_table *older = t->older;
        kfree(t);
        t = older;
    }
}

/* --- user_events_data: ioctl ----------------------------------------------------------------- */

/* Copies a user structure of usize bytes into k[ksize], as Linux's copy_struct_from_user:
 * bytes past ksize must be zero. 0, -EFAULT or -E2BIG. */
static int copy_struct(void *k, uint32_t ksize, uint32_t uaddr, uint32_t usize)
{
    if (copy_from_user(k, uaddr, ksize) != 0)
        return -EFAULT;
    uint8_t chunk[64];
    for (uint32_t at = ksize; at < usize; at += sizeof chunk) {
        uint32_t n = usize - at < sizeof chunk ? usize - at : (uint32_t)sizeof chunk;
        if (copy_from_user(chunk, uaddr + at, n) != 0)
            return -EFAULT;
        for (uint32_t i = 0; i < n; i++)
            if (chunk[i])
                return -E2BIG;
    }
    return 0;
}

/* Copies a NUL-terminated string of at most USER_EVENTS_MAX_DESC bytes from the program
 * into a new buffer: its length, -EFAULT, -EINVAL (too long, as Linux's strndup_user) or
 * -ENOMEM. */
static int copy_user_text(uint64_t uaddr, char **out)
{
    char *text = kmalloc(USER_EVENTS_MAX_DESC);
    if (!text)
        return -ENOMEM;
    int n = copy_string_from_user(text, (uint32_t)uaddr, USER_EVENTS_MAX_DESC);
    if (n < 0) {
        kfree(text);
        return n == -E2BIG ? -EINVAL : n;
    }
    *out = text;
    return n;
}

/* Reads and parses the command at uaddr. */
static int copy_command(uint64_t uaddr, struct ue_desc **desc)
{
    char *text;
    int n = copy_user_text(uaddr, &text);
    if (n < 0)
        return n;
    int err = ue_parse(text, (size_t)n, desc);
    kfree(text);
    return err;
}

/* Whether the program's structure at arg can take the answer. Checked before the event
 * is registered, so that a registration whose answer could not be written back leaves no
 * reference behind (the process is single-threaded: nothing unmaps it meanwhile). */
static bool answer_writable(uint32_t arg, uint32_t size)
{
    return user_range_ok(arg, size, true);
}

/* DIAG_IOCSREG with struct user_reg_status, the pre-6.4 status-page ABI (Linux's struct
 * user_reg before 6.4, in Documentation/trace/user_events.rst): answers status_bit and
 * write_index. */
static long register_with_status_bit(struct file *f, uint32_t arg)
{
    struct user_reg_status reg;
    struct ue_desc *desc;
    struct user_event *ev;
    if (copy_from_user(&reg, arg, sizeof reg) != 0 || !answer_writable(arg, sizeof reg))
        return -EFAULT;
    int err = copy_command(reg.name_args, &desc);
    if (err)
        return err;
    unsigned long flags = spin_lock_irqsave(&ue_lock);
    /* Linux 6.1, this structure's kernel, kept every event until it was deleted. */
    err = find_or_create(desc, ue_lifetime_of(UE_FROM_STATUS_REG, 0), &ev);
    int index = err ? err : add_ref(f, ev, false);
    uint32_t bit = index >= 0 ? ev->status_bit : 0;
    if (!err && index < 0)
        delete_if_unused(ev); /* created for a reference that could not be added */
    spin_unlock_irqrestore(&ue_lock, flags);
    if (index < 0)
        return index;
    uint32_t answer[2] = { bit, (uint32_t)index }; /* status_bit, write_index */
    return copy_to_user(arg + offsetof(struct user_reg_status, status_bit), answer, sizeof answer);
}

/* Checks a struct user_reg as Linux 6.6's user_reg_get does (a 32-bit kernel: enable_size
 * must be 4; USER_EVENT_REG_PERSIST is the only flag). enable_addr counts by its low 32
 * bits, as a 32-bit Linux's (uintptr_t) cast and unsigned long enabler address keep it:
 * an i386 program's (__u64)&variable sign-extends a stack address to 0xffffffffbeff....,
 * and registers that variable. */
static int check_user_reg(const struct user_reg *reg)
{
    if ((reg->flags & ~(USER_EVENT_REG_MAX - 1)) || reg->enable_size != 4 || reg->enable_addr % 4 != 0 ||
        reg->enable_bit > 31)
        return -EINVAL;
    if (!user_range_ok((uint32_t)reg->enable_addr, 4, true))
        return -EFAULT;
    return 0;
}

/* DIAG_IOCSREG with Linux 6.4's struct user_reg (usize bytes): the enable bit is written
 * now and on every change; answers write_index. -EADDRINUSE when this process already
 * registered that address and bit. */
static long register_with_enable_bit(struct file *f, uint32_t arg, uint32_t usize)
{
    struct user_reg reg;
    struct ue_desc *desc;
    struct user_event *ev;
    int err = copy_struct(&reg, sizeof reg, arg, usize);
    if (!err)
        err = check_user_reg(&reg); /* Linux's order: EINVAL for bad fields comes first */
    if (!err && !answer_writable(arg, sizeof reg))
        err = -EFAULT;
    if (err)
        return err;
    /* Linux's order again: a bit already registered is EADDRINUSE before the command is
     * read. A process has one thread, so nothing registers it between here and below. */
    uint32_t addr = (uint32_t)reg.enable_addr;
    struct task *t = task_current();
    unsigned long flags = spin_lock_irqsave(&ue_lock);
    bool in_use = find_enabler(t, addr, reg.enable_bit, &ev) != NULL;
    spin_unlock_irqrestore(&ue_lock, flags);
    if (in_use)
        return -EADDRINUSE;
    err = copy_command(reg.name_args, &desc);
    if (err)
        return err;
    flags = spin_lock_irqsave(&ue_lock);
    err = find_or_create(desc, ue_lifetime_of(UE_FROM_USER_REG, reg.flags), &ev);
    int index = err ? err : add_ref(f, ev, true);
    if (index >= 0)
        err = add_enabler(ev, t, addr, reg.enable_bit);
    else if (!err)
        delete_if_unused(ev); /* created for a reference that could not be added */
    spin_unlock_irqrestore(&ue_lock, flags);
    if (index < 0)
        return index;
    if (err)
        return err;
    uint32_t answer = (uint32_t)index;
    return copy_to_user(arg + offsetof(struct user_reg, write_index), &answer, sizeof answer);
}

/* DIAG_IOCSREG: the size field tells the two structures apart (uapi/user_events.h). */
static long ioctl_register(struct file *f, uint32_t arg)
{
    uint32_t size;
    if (copy_from_user(&size, arg, sizeof size) != 0)
        return -EFAULT;
    if (size > PAGE_SIZE)
        return -E2BIG;
    if (size == sizeof(struct user_reg_status))
        return register_with_status_bit(f, arg);
    if (size < sizeof(struct user_reg))
        return -EINVAL;
    return register_with_enable_bit(f, arg, size);
}

/* DIAG_IOCSDEL: arg is the event's name. -ENOENT if none, -EBUSY while in use, -EPERM for
 * a persistent one unless root (6.6); the pre-6.4 structure's, anyone's, as in 6.1. */
static long ioctl_delete(uint32_t arg)
{
    char *name;
    int n = copy_user_text(arg, &name);
    if (n < 0)
        return n;
    unsigned long flags = spin_lock_irqsave(&ue_lock);
    struct user_event *ev = find_event(name);
    int err = -ENOENT;
    if (ev) /* a persistent event is root's to delete, as Linux asks CAP_PERFMON */
        err = ue_delete_needs_root(ev->lifetime) && !task_privileged(task_current())
                  ? -EPERM
                  : delete_event(ev);
    spin_unlock_irqrestore(&ue_lock, flags);
    kfree(name);
    return err;
}

/* DIAG_IOCSUNREG: forgets this process's enabler(s) at (disable_addr, disable_bit) and
 * clears the bit; -ENOENT when there is none. */
static long ioctl_unregister(uint32_t arg)
{
    uint32_t size;
    struct user_unreg unreg;
    if (copy_from_user(&size, arg, sizeof size) != 0)
        return -EFAULT;
    if (size > PAGE_SIZE)
        return -E2BIG;
    if (size < sizeof unreg)
        return -EINVAL;
    int err = copy_struct(&unreg, sizeof unreg, arg, size);
    if (err)
        return err;
    if (unreg.__reserved || unreg.__reserved2)
        return -EINVAL;
    /* The low 32 bits, as registration kept them (check_user_reg): the same (__u64)&var
     * unregisters what it registered (docs/user_events.md: departures). */
    uint32_t addr = (uint32_t)unreg.disable_addr;
    struct task *t = task_current();
    struct user_event *ev;
    bool found = false;
    unsigned long flags = spin_lock_irqsave(&ue_lock);
    for (struct enabler **link; (link = find_enabler(t, addr, unreg.disable_bit, &ev)) != NULL;) {
        remove_enabler(link);
        delete_if_unused(ev); /* its registering file usually still holds it */
        found = true;
    }
    spin_unlock_irqrestore(&ue_lock, flags);
    if (!found)
        return -ENOENT;
    return task_update_user_bit(t, addr, unreg.disable_bit, false);
}

/* The three ioctls of uapi/user_events.h; anything else is -ENOTTY, as on Linux. */
static long data_ioctl(struct file *f, uint32_t cmd, uint32_t arg)
{
    switch (cmd) {
    case DIAG_IOCSREG:
        return ioctl_register(f, arg);
    case DIAG_IOCSDEL:
        return ioctl_delete(arg);
    case DIAG_IOCSUNREG:
        return ioctl_unregister(arg);
    default:
        return -ENOTTY;
    }
}

/* --- user_events_data: write -------------------------------------------------------------- */

/* Records a checked payload as ev's event. -EFAULT when a __data_loc/__rel_loc is bad. */
static long record_event(const struct user_event *ev, const uint8_t *payload, uint32_t len)
{
    if (ev->desc->nlocs) {
        int err = ue_validate(ev->desc, payload, len);
        if (err)
            return err;
    }
    struct trace_entry *e = trace_event_reserve(&ev->call, TRACE_EVENT_HEADER_SIZE + len);
    if (!e)
        return 0; /* tracing is off, or the event is lost (and counted) */
    memcpy((uint8_t *)e + TRACE_EVENT_HEADER_SIZE, payload, len);
    trace_event_commit(&ev->call, e, TRACE_EVENT_HEADER_SIZE + len);
    return 0;
}

/*
 * write()/writev(): the write index, then the payload. Returns len (recorded, or lost to a
 * full buffer or tracing off), -EFAULT without a whole index, -EINVAL for a negative index
 * or a payload shorter than the fields, -ENOENT for an index this file was not given,
 * and, while the event is disabled, -EBADF for an index registered with Linux 6.4's
 * struct user_reg (as 6.4+ answers) or len for one of the pre-6.4 structure (as 6.1 did;
 * nothing is recorded). The fast path: no lock, one table lookup.
 */
static long write_data(struct file *f, const void *data, size_t len)
{
    int32_t index;
    if (len < sizeof index)
        return -EFAULT;
    memcpy(&index, data, sizeof index);
    if (index < 0)
        return -EINVAL;
    struct ref_table *t = __atomic_load_n(&f->private_data, __ATOMIC_ACQUIRE);
    if (!t || (uint32_t)index >= __atomic_load_n(&t->count, __ATOMIC_ACQUIRE))
        return -ENOENT;
    const struct user_event *ev = t->events[index].ev;
    uint32_t payload_len = (uint32_t)(len - sizeof index);
    if (payload_len < ev->desc->min_size)
        return -EINVAL;
    if (!ev->call.enabled)
        return __atomic_load_n(&t->events[index].badf_when_disabled, __ATOMIC_RELAXED)
                   ? -EBADF : (long)len;
    long err = record_event(ev, (const uint8_t *)data + sizeof index, payload_len);
    return err ? err : (long)len;
}

static const struct fs_file_ops data_ops = {
    .release = release_data,
    .write_data = write_data,
    .ioctl = data_ioctl,
};

/* --- user_events_status --------------------------------------------------------------------- */

/* One line per event ("1:test # Used by ftrace"), a blank line, then the counts, as Linux
 * 5.18's user_seq_show prints them. */
static int read_status(struct fs_node *node, struct fs_writer *out)
{
    (void)node;
    uint32_t active = 0, busy = 0;
    unsigned long flags = spin_lock_irqsave(&ue_lock);
    for (struct user_event *ev = events; ev; ev = ev->next) {
        fs_printf(out, "%u:%s%s\n", ev->status_bit, ev->call.name,
                  ev->used_by_ftrace ? " # Used by ftrace" : "");
        active++;
        busy += ev->used_by_ftrace;
    }
    fs_printf(out, "\nActive: %u\nBusy: %u\nMax: %u\n", active, busy, max_events);
    spin_unlock_irqrestore(&ue_lock, flags);
    return 0;
}

/* The status page, read-only: one page only (Linux refuses other sizes with EINVAL). */
static int mmap_status(struct file *f, uint32_t offset, uintptr_t *phys, bool *writable)
{
    (void)f;
    if (offset != 0)
        return -EINVAL;
    *phys = virt_to_phys(status_page);
    *writable = false;
    return 0;
}

static const struct fs_file_ops status_ops = {
    .read = read_status,
    .mmap = mmap_status,
};

/* --- dynamic_events ------------------------------------------------------------------------- */

/* One "u:NAME FIELDS" line per event, in creation order. */
static int read_dynamic(struct fs_node *node, struct fs_writer *out)
{
    (void)node;
    unsigned long flags = spin_lock_irqsave(&ue_lock);
    for (struct user_event *ev = events; ev; ev = ev->next)
        ue_print_command(out, ev->desc);
    spin_unlock_irqrestore(&ue_lock, flags);
    return 0;
}

/* Checks that a dynamic_events line is well formed, u: command included. */
static int check_dynamic_line(const char *line, size_t len)
{
    struct ue_dyn_cmd cmd;
    struct ue_desc *desc;
    int err = ue_dyn_parse(line, len, &cmd);
    if (err || cmd.op != UE_DYN_CREATE)
        return err;
    err = ue_parse(cmd.text, cmd.text_len, &desc);
    if (!err)
        ue_desc_free(desc);
    return err;
}

/* Carries out one checked line. Called with ue_lock held. */
static int apply_dynamic_line(const char *line, size_t len)
{
    struct ue_dyn_cmd cmd;
    struct ue_desc *desc;
    struct user_event *ev;
    int err = ue_dyn_parse(line, len, &cmd);
    if (err || cmd.op == UE_DYN_NOTHING)
        return err;
    if (cmd.op == UE_DYN_CREATE) {
        err = ue_parse(cmd.text, cmd.text_len, &desc);
        /* Persistent, as Linux 6.6 makes them: nothing else would hold them. */
        return err ? err : find_or_create(desc, ue_lifetime_of(UE_FROM_DYNAMIC, 0), &ev);
    }
    for (ev = events; ev; ev = ev->next)
        if (ue_dyn_matches(&cmd, ev->desc))
            return delete_event(ev);
    return -ENOENT;
}

/* Calls fn on each line of data (without its newline); stops at the first error. */
static int for_each_line(const char *data, size_t len, int (*fn)(const char *, size_t))
{
    while (len > 0) {
        const char *nl = memchr(data, '\n', len);
        size_t line = nl ? (size_t)(nl - data) : len;
        int err = fn(data, line);
        if (err)
            return err;
        size_t step = nl ? line + 1 : line;
        data += step;
        len -= step;
    }
    return 0;
}

/*
 * Lines of "u:NAME FIELDS", "-:NAME [FIELDS]", "!u:NAME [FIELDS]". A malformed line
 * rejects the whole write with nothing changed. Then '>' (append false) first deletes every
 * event, or fails with -EBUSY deleting none (Linux's O_TRUNC open), and the lines run in
 * order: an error stops there, the lines before it done (as on Linux).
 */
static int write_dynamic(struct fs_node *node, const char *data, size_t len, bool append)
{
    (void)node;
    int err = for_each_line(data, len, check_dynamic_line);
    if (err)
        return err;
    unsigned long flags = spin_lock_irqsave(&ue_lock);
    err = append ? 0 : delete_all_events();
    if (!err)
        err = for_each_line(data, len, apply_dynamic_line);
    spin_unlock_irqrestore(&ue_lock, flags);
    return err;
}

static const struct fs_file_ops dynamic_ops = {
    .read = read_dynamic,
    .write = write_dynamic,
    .truncates = true,
};

/* --- /proc/sys/kernel/user_events_max ---------------------------------------------------- */

static int read_max_events(struct fs_node *node, struct fs_writer *out)
{
    (void)node;
    fs_printf(out, "%u\n", max_events);
    return 0;
}

/* A new limit, as Linux's proc_douintvec takes it: an unsigned 32-bit decimal, else EINVAL.
 * Lowering it below the events that exist deletes none; it only refuses new ones. */
static int write_max_events(struct fs_node *node, const char *data, size_t len, bool append)
{
    (void)node;
    (void)append;
    uint64_t n;
    if (parse_uint(data, len, &n) != 0 || n > UINT32_MAX)
        return -EINVAL;
    unsigned long flags = spin_lock_irqsave(&ue_lock);
    max_events = (uint32_t)n;
    spin_unlock_irqrestore(&ue_lock, flags);
    return 0;
}

static const struct fs_file_ops max_events_ops = {
    .read = read_max_events,
    .write = write_max_events,
};

/* --- start-up ------------------------------------------------------------------------------- */

/* The user_events_max= boot option (the start value of /proc/sys/kernel/user_events_max),
 * or the default. */
static uint32_t boot_max_events(void)
{
    const char *value = kernel_param("user_events_max");
    uint64_t n;
    if (!value)
        return DEFAULT_MAX_EVENTS;
    if (parse_uint(value, strlen(value), &n) != 0 || n > UINT32_MAX) {
        printk("user_events: bad user_events_max=%s, using %u\n", value, DEFAULT_MAX_EVENTS);
        return DEFAULT_MAX_EVENTS;
    }
    return (uint32_t)n;
}

/* Sets up the status page and its bits, the exit, exec and fork hooks and the files. */
static void user_events_init(void)
{
    max_events = boot_max_events();
    status_page = (uint8_t *)page_alloc(1);
    if (!status_page) {
        printk("user_events: no memory for the status page\n");
        return;
    }
    bitmap_init_all_used(&status_bits, status_words, STATUS_BITS);
    bitmap_set_free(&status_bits, 1, STATUS_BITS - 1); /* bit 0 is never an event's */
    task_on_exit(&exit_hook);
    task_on_exec(&exec_hook);
    task_on_fork(copy_enablers);
    /* Both TRACE_MODE_WRITE, as Linux creates them: the status page is mapped shared,
     * which needs a descriptor open for writing. user_events_max is a sysctl: 0644. */
    if (!fs_set_mode(fs_create(tracefs_root(), "user_events_data", &data_ops, NULL), 0640, 0, 0) ||
        !fs_set_mode(fs_create(tracefs_root(), "user_events_status", &status_ops, NULL), 0640, 0, 0) ||
        !fs_create(tracefs_root(), "dynamic_events", &dynamic_ops, NULL) ||
        !fs_set_mode(fs_create(fs_mkdir_path("proc/sys/kernel"), "user_events_max",
                               &max_events_ops, NULL), 0644, 0, 0))
        printk("user_events: could not create its files\n");
}
INITCALL(trace, user_events_init);
