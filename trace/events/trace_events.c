/*
 * trace_events.c - named trace events (trace_events.h): the registry and its ids, the
 * events/ tree, available_events and set_event, and printing records by id.
 *
 *   events/enable                all events: reads 0, 1, X (mixed) or ? (none); takes 0/1
 *   events/SYSTEM/enable         the same for one system
 *   events/SYSTEM/NAME/enable    one event: 0/1
 *   events/SYSTEM/NAME/format    the record's layout, as Linux prints it
 *   events/SYSTEM/NAME/id        the id, also the trace_entry type of its records
 *   available_events             "system:name" for every event
 *   set_event                    "system:name" for every enabled event; takes Linux's forms
 *
 * Ids are handed out in order. Records of an unregistered event may stay in the buffer,
 * and their id must not come to mean another event while they do: so an id is reused only
 * once every id has been given out, and only if its event was unregistered before the
 * oldest record still in the buffer was written (the lowest such id first). A boot that
 * keeps creating and deleting events (user_events) thus runs out of ids only while the
 * buffer holds records from before the oldest deletion: ENOSPC, until it is read or reset.
 *
 * Concurrency: printing may run in the timer interrupt (the COM2 stream), so the id table
 * is guarded by events_lock, and an event being printed is marked busy: unregister waits
 * for such printers before its caller may free the event.
 * The list `events` has no lock, and is safe for these reasons only, on one CPU:
 *  - it is changed (trace_event_register/unregister: user_events under its ue_lock, and
 *    init code) and walked (the files below) only in thread context, never in an
 *    interrupt; printing by id does not touch it;
 *  - the kernel does not preempt thread context (kernel/proc/sched.h) and no walk sleeps: the
 *    writers they print into only copy (console, a program's read buffer), and the ops
 *    they call take spinlocks and return; so no other change of the list can come in the
 *    middle of a walk;
 *  - the only change a walk makes itself is through an unused op, which may unregister
 *    and free the event it is given and nothing else (trace_events.h); offer_unused,
 *    the one walk that calls it, saves the next link before the call. An enable op never
 *    unregisters.
 * A second CPU breaks the second point: then the list needs a lock of its own, which the
 * walks must drop around the ops (the owner's lock comes first: user_events calls
 * register/unregister holding ue_lock, and its ops take ue_lock).
 */
#include "kernel/fs/fs_layout.h"
#include "trace/events/trace_events.h"
#include "trace/events/event_trigger.h" /* issue 18, triggers */
#include "trace/core/trace_instance.h" /* issue 18, instances */

#include "kernel/lib/errno.h"
#include "kernel/fs/file.h"
#include "kernel/mm/heap.h"
#include "kernel/lib/parse.h"
#include "kernel/spinlock.h"
#include "kernel/lib/string.h"

/* What the table holds for one id: the event while it is registered, how many printers
 * are using it at this moment, and when the event was unregistered (arch_cycles(), the
 * buffer's clock). */
struct event_slot {
    struct trace_event_call *call;
    uint32_t printing;
    uint64_t retired_at;
};

static struct spinlock events_lock = SPINLOCK_INIT("trace_events");
static struct event_slot *slots; /* slots[id - TRACE_EVENT_ID_FIRST], under events_lock */
static uint32_t slots_capacity;
static uint32_t next_id = TRACE_EVENT_ID_FIRST;
static struct trace_event_call *events;       /* registration order */
static struct trace_event_call *events_last; /* the list's tail: registration appends in O(1),
                                              * and with each call's prev, removal unlinks */
static struct fs_node *events_dir;            /* created with the first event */

/* True when s is exactly the len bytes at p. */
static bool equals(const char *s, const char *p, size_t len)
{
    return strlen(s) == len && strncmp(s, p, len) == 0;
}

/* issue 18, instances: whether call is enabled in the top array (its writers may be
 * attached for instances only: top_off). */
static bool top_on(const struct trace_event_call *call)
{
    return call->enabled && !call->top_off;
}

/* A system or event name must be one path component and one word of set_event: not
 * empty, not "." or "..", not "enable" (a system directory's own file), and free of '/',
 * ':', blanks and control characters. */
static bool valid_name(const char *name)
{
    size_t len = strlen(name);
    if (len == 0 || len >= FS_NAME_MAX || strcmp(name, ".") == 0 || strcmp(name, "..") == 0 ||
        strcmp(name, "enable") == 0)
        return false;
    for (const char *p = name; *p; p++)
        if (*p == '/' || *p == ':' || (unsigned char)*p <= ' ' || *p == 0x7f)
            return false;
    return true;
}

/* --- the id table ---------------------------------------------------------------------- */

/* Makes room in the table for the next id. Only registration grows it, and printers reach
 * it only under the lock, so the old table can be freed at once. Returns 0 or -ENOMEM. */
static int grow_slots(void)
{
    uint32_t index = next_id - TRACE_EVENT_ID_FIRST;
    if (index < slots_capacity)
        return 0;
    uint32_t capacity = slots_capacity ? slots_capacity * 2 : 64;
    struct event_slot *bigger = kzalloc(capacity * sizeof *bigger);
    if (!bigger)
        return -ENOMEM;
    unsigned long flags = spin_lock_irqsave(&events_lock);
    struct event_slot *old = slots;
    if (old)
        memcpy(bigger, old, slots_capacity * sizeof *old);
    slots = bigger;
    slots_capacity = capacity;
    spin_unlock_irqrestore(&events_lock, flags);
    kfree(old);
    return 0;
}

/* The time of the oldest record in the trace buffer, over all CPUs; UINT64_MAX when it
 * holds none. */
static uint64_t oldest_record_time(void)
{
    uint64_t oldest = trace_instances_oldest_record(), ts; /* issue 18, instances */
    for (unsigned cpu = 0; trace_buf && cpu < arch_cpu_count(); cpu++)
        if (rb_peek_ts(trace_buf, cpu, &ts) && ts < oldest)
            oldest = ts;
    return oldest;
}

/* The id for a new event: the next never used, or once they are all used, the lowest
 * whose event was unregistered before the oldest record in the buffer was written.
 * 0 when there is none. */
static uint32_t free_id(void)
{
    if (next_id <= TRACE_EVENT_ID_LAST)
        return next_id;
    uint64_t oldest = oldest_record_time();
    for (uint32_t i = 0; i < next_id - TRACE_EVENT_ID_FIRST; i++)
        if (!slots[i].call && slots[i].retired_at < oldest)
            return TRACE_EVENT_ID_FIRST + i;
    return 0;
}

/* The slot of id, or NULL for an id never given out. Call with events_lock held. */
static struct event_slot *slot_of(uint16_t id)
{
    if (id < TRACE_EVENT_ID_FIRST || id >= next_id)
        return 0;
    return &slots[id - TRACE_EVENT_ID_FIRST];
}

const struct trace_event_call *trace_event_by_id(uint16_t id)
{
    unsigned long flags = spin_lock_irqsave(&events_lock);
    struct event_slot *s = slot_of(id);
    struct trace_event_call *call = s ? s->call : 0;
    spin_unlock_irqrestore(&events_lock, flags);
    return call;
}

/* The registered event with this id, marked busy until print_end(id); or NULL. */
static struct trace_event_call *print_begin(uint16_t id)
{
    unsigned long flags = spin_lock_irqsave(&events_lock);
    struct event_slot *s = slot_of(id);
    struct trace_event_call *call = s ? s->call : 0;
    if (call)
        s->printing++;
    spin_unlock_irqrestore(&events_lock, flags);
    return call;
}

static void print_end(uint16_t id)
{
    unsigned long flags = spin_lock_irqsave(&events_lock);
    slot_of(id)->printing--;
    spin_unlock_irqrestore(&events_lock, flags);
}

/* Takes id's event out of the table and returns once nobody is printing it any more:
 * from then on its records print as unknown, and its owner may free it. */
static void retire_id(uint16_t id)
{
    unsigned long flags = spin_lock_irqsave(&events_lock);
    struct event_slot *s = slot_of(id);
    s->call = 0;
    s->retired_at = arch_cycles();
    while (s->printing) { /* a printer on another CPU: let it finish */
        spin_unlock_irqrestore(&events_lock, flags);
        arch_cpu_relax();
        flags = spin_lock_irqsave(&events_lock);
        s = slot_of(id);
    }
    spin_unlock_irqrestore(&events_lock, flags);
}

/* --- printing records -------------------------------------------------------------------- */

void trace_event_print(struct fs_writer *out, const struct trace_event_view *ev)
{
    uint16_t id = ev->entry->type;
    trace_print_context(out, ev);
    struct trace_event_call *call = print_begin(id);
    if (!call) {
        fs_printf(out, "[UNKNOWN EVENT %u]\n", (unsigned)id);
        return;
    }
    call->ops->print(out, call, ev);
    fs_puts(out, "\n");
    print_end(id);
}

/* The common fields as Linux's trace_define_common_fields() declares them (the layout of
 * struct trace_entry), and the blank line that ends the block. */
void trace_event_print_common_fields(struct fs_writer *out)
{
    for (unsigned i = 0; i < TRACE_COMMON_FIELDS; i++)
        trace_field_print_format(out, &trace_common_fields[i]);
    fs_puts(out, "\n");
}

/* --- enabling ------------------------------------------------------------------------------ */

int trace_event_set_enabled(struct trace_event_call *call, bool on)
{
    if (!call->registered)
        return -ENOENT; /* it has no id to record with */
    if (call->soft_refs) { /* issue 18, triggers: armed, it stays attached */
        if (on)
            __atomic_and_fetch(&call->trigger_flags, (uint8_t)~TRACE_EVENT_FL_SOFT_DISABLED,
                               __ATOMIC_RELEASE);
        else
            __atomic_or_fetch(&call->trigger_flags, TRACE_EVENT_FL_SOFT_DISABLED, __ATOMIC_RELEASE);
        return 0;
    }
    if (top_on(call) == on)
        return 0;
    if (call->enabled && (on || call->instances)) { /* issue 18: attached for instances */
        call->top_off = !on;
        return 0;
    }
    if (call->ops->enable) {
        int err = call->ops->enable(call, on);
        if (err)
            return err;
    }
    call->enabled = on;
    return 0;
}

/* issue 18, instances: INSTANCES in trigger_flags follows call->instances. Cleared, it
 * sends no new writer to the slow path; a writer holding a scratch record taken under it
 * commits before anything else runs (one CPU: a writer never sleeps or is preempted
 * between reserve and commit, as event_trigger.c's wait_for_trigger_writers says). */
static void update_instances_flag(struct trace_event_call *call)
{
    if (call->instances)
        __atomic_or_fetch(&call->trigger_flags, TRACE_EVENT_FL_INSTANCES, __ATOMIC_RELEASE);
    else
        __atomic_and_fetch(&call->trigger_flags, (uint8_t)~TRACE_EVENT_FL_INSTANCES,
                           __ATOMIC_RELEASE);
}

/* Turns call on or off in instance slot: the first instance attaches its writers (with the
 * top's view off: top_off), the last one detaches them unless the top or a trigger uses
 * them. Records reach the instance only through scratch records, so none may be missing. */
static int set_enabled_in_instance(struct trace_event_call *call, unsigned slot, bool on)
{
    uint8_t bit = (uint8_t)(1u << slot);
    if (((call->instances & bit) != 0) == on)
        return 0;
    if (!on) {
        if (!(call->instances & ~bit) && call->top_off) {
            /* Attached for this instance only: writers detached first, so none takes the
             * fast path into the top buffer while top_off is still what keeps it out. */
            call->enabled = false;
            if (call->ops->enable)
                call->ops->enable(call, false);
            call->instances = 0;
            update_instances_flag(call);
            call->top_off = false;
            return 0;
        }
        call->instances &= (uint8_t)~bit;
        update_instances_flag(call);
        return 0;
    }
    if (!event_commit_scratch_ready())
        return -ENOMEM;
    bool attach = !call->enabled;
    if (attach)
        call->top_off = true; /* before the writers are attached: the top gets nothing */
    call->instances |= bit;
    update_instances_flag(call);
    if (attach) {
        int err = call->ops->enable ? call->ops->enable(call, true) : 0;
        if (err) {
            call->instances &= (uint8_t)~bit;
            update_instances_flag(call);
            call->top_off = false;
            return err;
        }
        call->enabled = true;
    }
    return 0;
}

int trace_event_set_enabled_in(struct trace_event_call *call, unsigned slot, bool on)
{
    if (slot == 0)
        return trace_event_set_enabled(call, on);
    if (!call->registered)
        return -ENOENT;
    if (slot >= 8)
        return -EINVAL;
    return set_enabled_in_instance(call, slot, on);
}

/* Whether call is on in array slot (0: the top). */
static bool enabled_in(const struct trace_event_call *call, unsigned slot)
{
    return slot ? (call->instances >> slot) & 1u : top_on(call);
}

/*
 * Which events a set_event word or an enable file names, as Linux's
 * __ftrace_set_clr_event() matches them: system and name each either given or any
 * (NULL), or one bare word that may be a system or an event name.
 */
struct event_match {
    const char *system, *name, *word;
    size_t system_len, name_len, word_len;
};

static bool matches(const struct event_match *m, const struct trace_event_call *call)
{
    if (m->word && !equals(call->name, m->word, m->word_len) &&
        !equals(call->system, m->word, m->word_len))
        return false;
    if (m->system && !equals(call->system, m->system, m->system_len))
        return false;
    return !m->name || equals(call->name, m->name, m->name_len);
}

/* How many registered events m names. */
static unsigned count_matching(const struct event_match *m)
{
    unsigned n = 0;
    for (struct trace_event_call *c = events; c; c = c->next)
        n += matches(m, c);
    return n;
}

/* Turns every event m names on or off in array slot (issue 18: 0 is the top). Returns 0,
 * -EINVAL when m names none (as Linux), or the first refusal of an event's enable (the
 * others are still changed). */
static int set_matching(const struct event_match *m, unsigned slot, bool on)
{
    bool matched = false;
    int err = 0;
    for (struct trace_event_call *c = events; c; c = c->next) {
        if (!matches(m, c))
            continue;
        matched = true;
        int e = trace_event_set_enabled_in(c, slot, on);
        err = err ? err : e;
    }
    return matched ? err : -EINVAL;
}

/* Offers every disabled event to its owner's unused op, after the tree's last use of it:
 * the owner may free any of them (and with the last one of a system, the system's
 * directory and the name a group enable file points at), so this runs once a write is
 * done with every event, name and node, and walks the list by saved links. */
static void offer_unused(void)
{
    struct trace_event_call *next;
    for (struct trace_event_call *c = events; c; c = next) {
        next = c->next;
        if (!c->enabled && c->ops->unused)
            c->ops->unused(c);
    }
}

/* --- the files ----------------------------------------------------------------------------- */

/* Parses an enable file's write as Linux's event_enable_write does (kstrtoul_from_user,
 * then 0 or 1): "1", "1\n", "1\0" (sizeof("1") bytes, as Linux's selftests write it) and
 * "+1" pass; blanks, "0x1" or anything after the number are EINVAL; a value beyond an
 * unsigned long ERANGE. */
static int parse_enable(const char *data, size_t len, bool *on)
{
    uint64_t v;
    int err = parse_kstrtoul_user(data, len, &v);
    if (err)
        return err;
    if (v > UINT32_MAX)
        return -ERANGE; /* kstrtoul: an unsigned long is 32 bits on i386 */
    if (v > 1)
        return -EINVAL;
    *on = v == 1;
    return 0;
}

/* events/SYSTEM/NAME/enable: f->data is the event, or NULL once it was unregistered while
 * a program held the file open (detach_event_dir): -ENODEV then, as Linux's
 * event_enable_read/write answer for a removed event. */
static int read_event_enable(struct fs_node *f, struct fs_writer *out)
{
    const struct trace_event_call *call = f->data;
    if (!call)
        return -ENODEV;
    /* issue 18, triggers: "*" while armed, as Linux's event_enable_read. */
    bool soft_off = call->trigger_flags & TRACE_EVENT_FL_SOFT_DISABLED;
    fs_puts(out, top_on(call) && !soft_off ? "1" : "0");
    fs_puts(out, soft_off || call->soft_refs ? "*\n" : "\n");
    return 0;
}

static int write_event_enable(struct fs_node *f, const char *data, size_t len, bool append)
{
    (void)append;
    bool on;
    int err = parse_enable(data, len, &on);
    if (!err)
        err = f->data ? trace_event_set_enabled(f->data, on) : -ENODEV;
    offer_unused();
    return err;
}

/* events/SYSTEM/NAME/format, as Linux's f_show() prints it: name, ID, the common fields,
 * then the event's own fields and print fmt from its print_format. */
static int read_event_format(struct fs_node *f, struct fs_writer *out)
{
    const struct trace_event_call *call = f->data;
    if (!call)
        return -ENODEV; /* unregistered while open, as read_event_enable */
    fs_printf(out, "name: %s\nID: %u\nformat:\n", call->name, (unsigned)call->id);
    trace_event_print_common_fields(out);
    for (unsigned i = 0; call->fields && i < call->nr_fields; i++)
        trace_field_print_format(out, &call->fields[i]);
    call->ops->print_format(out, call);
    return 0;
}

static int read_event_id(struct fs_node *f, struct fs_writer *out)
{
    const struct trace_event_call *call = f->data;
    if (!call)
        return -ENODEV; /* unregistered while open, as read_event_enable */
    fs_printf(out, "%u\n", (unsigned)call->id);
    return 0;
}

/* events/enable (f->data NULL) and events/SYSTEM/enable (f->data the system's name): '0'
 * when all of their events are off, '1' when all are on, 'X' when mixed and '?' when there
 * are none, as Linux's system_enable_read(). */
static int read_group_enable(struct fs_node *f, struct fs_writer *out)
{
    const char *system = f->data;
    unsigned seen = 0; /* bit 0: one is off; bit 1: one is on */
    for (struct trace_event_call *c = events; c; c = c->next)
        if (!system || strcmp(c->system, system) == 0)
            seen |= top_on(c) ? 2u : 1u;
    fs_printf(out, "%c\n", "?01X"[seen]);
    return 0;
}

static int write_group_enable(struct fs_node *f, const char *data, size_t len, bool append)
{
    (void)append;
    const char *system = f->data;
    bool on;
    int err = parse_enable(data, len, &on);
    if (err)
        return err;
    struct event_match m = { 0 };
    if (system) {
        m.system = system;
        m.system_len = strlen(system);
    }
    err = set_matching(&m, 0, on);
    offer_unused();
    return err;
}

static int read_available_events(struct fs_node *f, struct fs_writer *out)
{
    (void)f;
    for (struct trace_event_call *c = events; c; c = c->next)
        fs_printf(out, "%s:%s\n", c->system, c->name);
    return 0;
}

/* set_event of the top array (f->data 0) or of an instance (issue 18: its slot). */
static int read_set_event(struct fs_node *f, struct fs_writer *out)
{
    unsigned slot = (unsigned)(uintptr_t)f->data;
    for (struct trace_event_call *c = events; c; c = c->next)
        if (enabled_in(c, slot))
            fs_printf(out, "%s:%s\n", c->system, c->name);
    return 0;
}

/* One word of a set_event write: "!" to disable, then "system:name", "system:",
 * "system:*", ":name", "*:name" or a bare word (a system or an event name). */
static void parse_set_event_word(const char *word, size_t len, struct event_match *m, bool *on)
{
    *on = true;
    if (len && word[0] == '!') {
        *on = false;
        word++;
        len--;
    }
    *m = (struct event_match){ 0 };
    size_t colon = 0;
    while (colon < len && word[colon] != ':')
        colon++;
    if (colon == len) {
        m->word = word;
        m->word_len = len;
        return;
    }
    /* An empty part or "*" means any, as Linux has it. */
    if (colon && !(colon == 1 && word[0] == '*')) {
        m->system = word;
        m->system_len = colon;
    }
    const char *name = word + colon + 1;
    size_t name_len = len - colon - 1;
    if (name_len && !(name_len == 1 && name[0] == '*')) {
        m->name = name;
        m->name_len = name_len;
    }
}

/* The next word (separated by is_space) of data[*pos..len): its bounds, or false at the end. */
static bool next_word(const char *data, size_t len, size_t *pos, size_t *start, size_t *end)
{
    size_t i = *pos;
    while (i < len && is_space(data[i]))
        i++;
    if (i == len)
        return false;
    *start = i;
    while (i < len && !is_space(data[i]))
        i++;
    *end = *pos = i;
    return true;
}

/*
 * `echo 'sys:name' > set_event` first disables every event, then enables those named; with
 * `>>` nothing is disabled first; "!sys:name" disables. A word naming no event rejects the
 * whole write before anything changes (Linux would already have disabled everything).
 */
static int write_set_event(struct fs_node *f, const char *data, size_t len, bool append)
{
    unsigned slot = (unsigned)(uintptr_t)f->data; /* issue 18: 0, or an instance's */
    size_t pos = 0, s, e;
    struct event_match m;
    bool on;
    while (next_word(data, len, &pos, &s, &e)) {
        parse_set_event_word(data + s, e - s, &m, &on);
        if (count_matching(&m) == 0)
            return -EINVAL;
    }
    int err = 0;
    if (!append)
        for (struct trace_event_call *c = events; c; c = c->next) {
            int r = trace_event_set_enabled_in(c, slot, false);
            err = err ? err : r;
        }
    pos = 0;
    while (next_word(data, len, &pos, &s, &e)) {
        parse_set_event_word(data + s, e - s, &m, &on);
        int r = set_matching(&m, slot, on);
        err = err ? err : r;
    }
    offer_unused();
    return err;
}

/* An open file of an event's directory does not hold the event (as on Linux): closing it
 * changes nothing for the event, so these files need no release. */
static const struct fs_file_ops event_enable_ops = { .read = read_event_enable,
                                                     .write = write_event_enable };
static const struct fs_file_ops event_format_ops = { .read = read_event_format };
static const struct fs_file_ops event_id_ops = { .read = read_event_id };
static void release_group_enable(struct file *file);
static const struct fs_file_ops group_enable_ops = { .read = read_group_enable,
                                                     .write = write_group_enable,
                                                     .release = release_group_enable };
static const struct fs_file_ops available_events_ops = { .read = read_available_events };
static const struct fs_file_ops set_event_ops = { .read = read_set_event,
                                                  .write = write_set_event,
                                                  .truncates = true };

/* --- registration ---------------------------------------------------------------------------- */

/* Removes a directory's files, then the directory; stops at a file a program has open
 * (the caller checks fs_in_use first when it needs all or nothing). */
static void remove_dir(struct fs_node *dir)
{
    while (dir->children && fs_remove(dir->children) == 0)
        ;
    fs_remove(dir);
}

/* events/ (kept if trace_raw_init made it first, for header_page), events/enable,
 * available_events and set_event, made with the first event so that registration works
 * whenever its caller's init runs. Returns false without memory. */
static bool make_top_files(void)
{
    if (events_dir)
        return true;
    struct fs_node *root = tracefs_root(), *dir = fs_mkdir_at(root, "events");
    if (!dir)
        return false;
    struct fs_node *enable = fs_create(dir, "enable", &group_enable_ops, 0);
    struct fs_node *available = fs_create(root, "available_events", &available_events_ops, 0);
    struct fs_node *set_event = fs_create(root, "set_event", &set_event_ops, 0);
    if (enable && available && set_event) {
        events_dir = dir;
        return true;
    }
    if (available)
        fs_remove(available);
    if (set_event)
        fs_remove(set_event);
    remove_dir(dir);
    return false;
}

/*
 * The events/ tree is made as it is looked at, as Linux's eventfs (fs/tracefs/
 * event_inode.c) makes it: a boot registers hundreds of events (two per system call), and
 * a directory of six files for each would be most of the boot's work, for files few
 * readers open. events/SYSTEM is made, empty, with its system's first event; its enable
 * and filter files and its event directories are made when it is first looked into
 * (fill_system), and each event's files when that event's directory is (fill_event). Until
 * then an event is found by name in its system's index (struct event_system), which is
 * all registration needs. Once made, a directory stays until its event goes. The tree is
 * changed under the big kernel lock (kernel/fs/fs_tree.h), and so are the fills, which
 * run inside its lookups.
 */

/* One events/SYSTEM: its events by name (built-in ones too), and how many there are. */
struct event_system {
    struct name_hash events; /* trace_event_call.name_link */
    unsigned count;
    char name[];             /* what its enable and filter files report */
};

/* The files of an event's directory (fill_event): user_events charges their heap up front. */
#define EVENT_DIR_FILES 6

/* events/SYSTEM/NAME's files: enable, format, id, filter, trigger and hist. All or none:
 * on a short heap it removes what it made and fails, to be run again at the next look. */
static bool fill_event(struct fs_node *dir)
{
    struct trace_event_call *call = dir->data;
    if (fs_create(dir, "enable", &event_enable_ops, call) &&
        fs_create(dir, "format", &event_format_ops, call) &&
        fs_create(dir, "id", &event_id_ops, call) &&
        trace_event_filter_create_file(dir, call) && /* issue 18, event filters */
        trace_event_trigger_create_file(dir, call))  /* issue 18, triggers */
        return true;
    while (dir->children && fs_remove(dir->children) == 0)
        ;
    return false;
}

/* events/SYSTEM/NAME, its files to be made when it is looked into; NULL without memory. */
static struct fs_node *make_event_dir(struct fs_node *sysdir, struct trace_event_call *call)
{
    call->dir = fs_mkdir_lazy(sysdir, call->name, fill_event, call);
    return call->dir;
}

/* events/SYSTEM's enable and filter files and its event directories, the ones still
 * missing (each registered event of the system gets one): false when memory ran out, to
 * be run again at the next look. */
static bool fill_system(struct fs_node *sysdir)
{
    const struct event_system *sys = sysdir->data;
    if (!fs_child(sysdir, "enable") &&
        !fs_create(sysdir, "enable", &group_enable_ops, (void *)sys->name))
        return false;
    if (!fs_child(sysdir, "filter") &&
        !trace_event_filter_create_system_file(sysdir, sys->name)) /* issue 18, filters */
        return false;
    bool made_all = true;
    for (struct trace_event_call *c = events; c; c = c->next)
        if (!c->dir && strcmp(c->system, sys->name) == 0 && !make_event_dir(sysdir, c))
            made_all = false;
    return made_all;
}

/* Its node and files' nodes, and its index (which has no buckets below NAME_HASH_SMALL). */
size_t trace_event_dir_cost(void)
{
    _Static_assert(EVENT_DIR_FILES <= NAME_HASH_SMALL, "an event's index has buckets");
    return (1 + EVENT_DIR_FILES) * kmalloc_cost_of_size(sizeof(struct fs_node)) +
           kmalloc_cost_of_size(sizeof(struct fs_dir_index));
}

/* events/SYSTEM if it exists, else NULL. */
static struct fs_node *find_system_dir(const char *system)
{
    return events_dir ? fs_child(events_dir, system) : NULL;
}

/* events/SYSTEM, found or made (its files to be made when it is looked into); NULL
 * without memory. */
static struct fs_node *system_dir(const char *system)
{
    struct fs_node *dir = find_system_dir(system);
    if (dir)
        return dir;
    size_t len = strlen(system);
    struct event_system *sys = kzalloc(sizeof *sys + len + 1);
    if (!sys)
        return 0;
    memcpy(sys->name, system, len + 1);
    dir = fs_mkdir_lazy(events_dir, system, fill_system, sys);
    if (!dir)
        kfree(sys);
    return dir;
}

/* The event called name in events/SYSTEM (sysdir, NULL: none), made or not, or NULL. */
static struct trace_event_call *find_event(struct fs_node *sysdir, const char *name)
{
    if (!sysdir)
        return NULL;
    struct event_system *sys = sysdir->data;
    struct name_hash_link *l = name_hash_find(&sys->events, name, strlen(name));
    return l ? (struct trace_event_call *)((char *)l - offsetof(struct trace_event_call,
                                                                 name_link))
             : NULL;
}

/* Counts call among sysdir's events, under its name. */
static void add_to_system(struct fs_node *sysdir, struct trace_event_call *call)
{
    struct event_system *sys = sysdir->data;
    name_hash_add(&sys->events, &call->name_link, call->name);
    sys->count++;
}

/* Removes events/SYSTEM once its last event is gone, as Linux does; while a program has
 * its enable file open, the directory stays (empty) until the next deletion in it. */
static void drop_system_dir_if_empty(struct fs_node *dir)
{
    struct event_system *sys = dir->data;
    if (sys->count || fs_in_use(dir))
        return; /* a program has its enable file open: it stays, and is found again */
    trace_event_filter_system_gone(sys->name); /* issue 18, event filters */
    remove_dir(dir);
    name_hash_destroy(&sys->events);
    kfree(sys);
}

/* The last close of events/enable or events/SYSTEM/enable: events the write left unused
 * may go now, and a system directory kept (empty) while its enable file was open goes
 * with its last event, as it would have without the open. */
static void release_group_enable(struct file *file)
{
    char system[FS_NAME_MAX] = "";
    if (file->node->data) /* freed with the directory: copied first */
        memcpy(system, file->node->data, strlen(file->node->data) + 1);
    offer_unused(); /* may remove the directory, and file->node with it */
    struct fs_node *dir = system[0] ? find_system_dir(system) : NULL;
    if (dir)
        drop_system_dir_if_empty(dir);
}

/* Removes an event's directory even while programs have its files (or the directory)
 * open, as Linux's tracefs does: each file first forgets the event (its reads and writes
 * answer -ENODEV from then on), then leaves the tree; open ones live on until their last
 * close (fs_detach). A directory never looked into has no files to make any more. */
static void detach_event_dir(struct fs_node *dir)
{
    while (dir->children) {
        dir->children->data = NULL;
        fs_detach(dir->children);
    }
    dir->data = NULL;
    fs_detach(dir);
}

/* A built-in record type: events/SYSTEM/NAME with format and id only, as Linux's
 * events/ftrace/ (its tracer records it; there is nothing to enable). The call stays out of
 * the events list, so enable files, set_event and available_events never see it. Its
 * directory is made at once: there are few. */
int trace_event_describe_builtin(struct trace_event_call *call, uint16_t type)
{
    if (!call->system || !valid_name(call->system) || !valid_name(call->name) || !call->ops ||
        !call->ops->print_format || type == 0 || type >= TRACE_EVENT_ID_FIRST)
        return -EINVAL;
    if (!make_top_files())
        return -ENOMEM;
    struct fs_node *sysdir = system_dir(call->system);
    if (!sysdir)
        return -ENOMEM;
    if (find_event(sysdir, call->name))
        return -EEXIST;
    struct fs_node *dir = fs_mkdir(sysdir, call->name);
    if (dir && fs_create(dir, "format", &event_format_ops, call) &&
        fs_create(dir, "id", &event_id_ops, call)) {
        call->id = type;
        call->enabled = false;
        call->next = 0;
        call->dir = dir;
        add_to_system(sysdir, call);
        return 0;
    }
    if (dir)
        remove_dir(dir);
    drop_system_dir_if_empty(sysdir);
    return -ENOMEM;
}

static uint32_t registered; /* trace_events_registered; written under the tracefs
                             * writers' serialization, as the event list is */

uint32_t trace_events_registered(void) { return __atomic_load_n(&registered, __ATOMIC_ACQUIRE); }

int trace_event_register(struct trace_event_call *call)
{
    if (!call->system || !valid_name(call->system) || !valid_name(call->name) || !call->ops ||
        !call->ops->print || !call->ops->print_format)
        return -EINVAL;
    /* Registered already, or another event of its system has its name: one probe of the
     * system's index, not a walk of the list, and no directory made for it. */
    if (call->registered || find_event(find_system_dir(call->system), call->name))
        return -EEXIST;
    uint32_t id = free_id();
    if (!id)
        return -ENOSPC;
    if (grow_slots() != 0 || !make_top_files())
        return -ENOMEM;
    struct fs_node *sysdir = system_dir(call->system);
    if (!sysdir)
        return -ENOMEM;
    /* A system already looked into shows the new event at once; else its fill makes it. */
    call->dir = 0;
    if (!fs_fill_pending(sysdir) && !make_event_dir(sysdir, call)) {
        drop_system_dir_if_empty(sysdir);
        return -ENOMEM;
    }
    add_to_system(sysdir, call);
    call->registered = true;
    call->enabled = false;
    call->filter = 0; /* issue 18, event filters */
    call->trigger_flags = 0; /* issue 18, triggers */
    call->soft_refs = 0;
    call->triggers = 0;
    call->instances = 0; /* issue 18, instances */
    call->top_off = false;
    call->id = (uint16_t)id;
    call->next = 0;
    call->prev = events_last;
    if (events_last)
        events_last->next = call;
    else
        events = call;
    events_last = call;
    unsigned long flags = spin_lock_irqsave(&events_lock);
    slots[id - TRACE_EVENT_ID_FIRST].call = call;
    if (id == next_id)
        next_id++;
    spin_unlock_irqrestore(&events_lock, flags);
    __atomic_add_fetch(&registered, 1, __ATOMIC_RELEASE);
    return 0;
}

int trace_event_unregister(struct trace_event_call *call)
{
    if (!call->registered)
        return -ENOENT;
    if (call->enabled)
        return -EBUSY;
    retire_id(call->id);
    if (call->prev)
        call->prev->next = call->next;
    else
        events = call->next;
    if (call->next)
        call->next->prev = call->prev;
    else
        events_last = call->prev;
    call->next = call->prev = 0;
    struct fs_node *sysdir = find_system_dir(call->system);
    struct event_system *sys = sysdir->data;
    name_hash_del(&sys->events, &call->name_link);
    sys->count--;
    if (call->dir)
        detach_event_dir(call->dir);
    call->dir = 0;
    call->registered = false;
    trace_event_filter_release(call); /* issue 18, event filters */
    drop_system_dir_if_empty(sysdir);
    return 0;
}

/* --- issue 18, triggers: arming (trace_events.h) ------------------------------------------- */

int trace_event_soft_arm(struct trace_event_call *call)
{
    if (!call->registered)
        return -ENOENT;
    if (call->soft_refs == UINT16_MAX)
        return -EBUSY;
    if (call->soft_refs == 0 && call->top_off) {
        /* issue 18: attached for instances already; the top's view turns soft-disabled */
        __atomic_or_fetch(&call->trigger_flags, TRACE_EVENT_FL_SOFT_DISABLED, __ATOMIC_RELEASE);
        call->top_off = false;
    } else if (call->soft_refs == 0 && !call->enabled) {
        /* Discarding before the writers are attached: no record slips through. */
        __atomic_or_fetch(&call->trigger_flags, TRACE_EVENT_FL_SOFT_DISABLED, __ATOMIC_RELEASE);
        int err = call->ops->enable ? call->ops->enable(call, true) : 0;
        if (err) {
            __atomic_and_fetch(&call->trigger_flags, (uint8_t)~TRACE_EVENT_FL_SOFT_DISABLED,
                               __ATOMIC_RELEASE);
            return err;
        }
        call->enabled = true;
    }
    call->soft_refs++;
    return 0;
}

void trace_event_soft_disarm(struct trace_event_call *call)
{
    if (call->soft_refs == 0 || --call->soft_refs)
        return;
    if ((call->trigger_flags & TRACE_EVENT_FL_SOFT_DISABLED) && call->instances) {
        /* issue 18: off in the top, still attached for instances */
        call->top_off = true;
        __atomic_and_fetch(&call->trigger_flags, (uint8_t)~TRACE_EVENT_FL_SOFT_DISABLED,
                           __ATOMIC_RELEASE);
    } else if (call->trigger_flags & TRACE_EVENT_FL_SOFT_DISABLED) {
        /* Off as its enable says: writers detached first, still discarding meanwhile. */
        call->enabled = false;
        if (call->ops->enable)
            call->ops->enable(call, false);
        __atomic_and_fetch(&call->trigger_flags, (uint8_t)~TRACE_EVENT_FL_SOFT_DISABLED,
                           __ATOMIC_RELEASE);
    }
}

/* issue 18, event filters: the list's head, for the system filter file. */
struct trace_event_call *trace_events_first(void)
{
    return events;
}

/* --- issue 18, set_event_pid (the files: trace/events/event_pid.c) ---------------------- */

struct trace_pid_filter trace_event_pids;

bool trace_event_pid_ignored(int32_t about_pid)
{
    return trace_pid_filter_ignores(&trace_event_pids, current_pid) &&
           (about_pid < 0 || trace_pid_filter_ignores(&trace_event_pids, about_pid));
}

/* --- issue 18, instances: an instance's set_event and events/enable ------------------- */

/* instances/NAME/events/enable: as events/enable, for the instance in slot (f->data). */
static int read_instance_enable(struct fs_node *f, struct fs_writer *out)
{
    unsigned slot = (unsigned)(uintptr_t)f->data, seen = 0;
    for (struct trace_event_call *c = events; c; c = c->next)
        seen |= enabled_in(c, slot) ? 2u : 1u;
    fs_printf(out, "%c\n", "?01X"[seen]);
    return 0;
}

static int write_instance_enable(struct fs_node *f, const char *data, size_t len, bool append)
{
    (void)append;
    bool on;
    int err = parse_enable(data, len, &on);
    if (err)
        return err;
    struct event_match m = { 0 };
    err = set_matching(&m, (unsigned)(uintptr_t)f->data, on);
    offer_unused();
    return err;
}

static const struct fs_file_ops instance_enable_ops = { .read = read_instance_enable,
                                                        .write = write_instance_enable };

bool trace_events_create_instance_files(struct fs_node *dir, struct fs_node *events_dir,
                                        unsigned slot)
{
    void *data = (void *)(uintptr_t)slot;
    return fs_create(dir, "set_event", &set_event_ops, data) &&
           fs_create(events_dir, "enable", &instance_enable_ops, data);
}

void trace_events_instance_gone(unsigned slot)
{
    for (struct trace_event_call *c = events; c; c = c->next)
        set_enabled_in_instance(c, slot, false);
    offer_unused();
}
