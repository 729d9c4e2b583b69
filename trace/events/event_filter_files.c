/*
 * event_filter_files.c - events/SYSTEM/NAME/filter and events/SYSTEM/filter: setting an
 * event's filter (event_filter.h) and applying it to its records before they are committed
 * (trace_event_commit in trace_events.h; its slow path is in event_commit.c).
 *
 *   events/SYSTEM/NAME/filter   reads the filter's text or "none"; a write compiles a new
 *                               one and puts it in place; "0" removes it
 *   events/SYSTEM/filter        a write sets the filter on every event of the system it
 *                               compiles for (those having its fields) and removes it from
 *                               the others, as Linux; EINVAL when it compiles for none.
 *                               Reads the last text written, or "none"
 * A filter that does not compile leaves everything as it was: the write fails with EINVAL
 * and error_log gets Linux's entry with the caret under the offending byte.
 *
 * Replacing a filter under a writer (SMP-ready reasoning). Writers load call->filter once
 * (acquire) and run it with interrupts off (trace_event_filter_commit); a new program is
 * published with one atomic exchange (release), so a writer sees the old program whole or
 * the new one whole. The old one may be freed once no writer can still be running it:
 * wait_for_filter_readers() says when. On this CPU that is at once: the writer holds the
 * program only with interrupts off, and the exchange runs in thread context, which cannot
 * be in the middle of that stretch; an interrupt handler that writes events finishes its
 * evaluation before the thread resumes. With a second CPU a writer may be evaluating the
 * old program there: wait_for_filter_readers must then wait until every other CPU has had
 * interrupts on once (an IPI each, acknowledged), Linux's synchronize_rcu for this case.
 */
#include "trace/events/event_filter.h"
#include "trace/events/trace_events.h"

#include "kernel/arch.h"
#include "kernel/fs/fs_layout.h"
#include "kernel/lib/errno.h"
#include "kernel/mm/heap.h"
#include "kernel/lib/string.h"
#include "trace/core/error_log.h"
#include "trace/core/trace_internal.h"

/* Returns once no writer can be running a program unpublished before the call: every
 * other CPU has had interrupts on since (trace_sync_writers; this CPU's writers are done,
 * see the top of this file). ONE CPU when called with interrupts off (a caller holding a
 * spinlock): then it cannot wait, and a writer on another CPU may still run the old one. */
static void wait_for_filter_readers(void)
{
    trace_sync_writers();
}

/* Puts f (or none) in place as call's filter and frees the one it replaces. */
static void install(struct trace_event_call *call, struct event_filter *f)
{
    struct event_filter *old = __atomic_exchange_n(&call->filter, f, __ATOMIC_ACQ_REL);
    if (old) {
        wait_for_filter_readers();
        event_filter_free(old);
    }
}

void trace_event_filter_release(struct trace_event_call *call)
{
    install(call, 0);
}

/* What error_log is told of a refused filter. */
struct refusal {
    const char *text;
    size_t len;
    const struct event_filter_error *err;
};

static void print_refusal(struct fs_writer *out, const void *arg)
{
    const struct refusal *r = arg;
    event_filter_print_error(out, r->text, r->len, r->err);
}

static void log_refusal(const char *text, size_t len, const struct event_filter_error *err)
{
    struct refusal r = { text, len, err };
    trace_error_log_add(print_refusal, &r);
}

/* True when data is "0" with blanks around it: Linux's "clear the filter". */
static bool is_clear(const char *data, size_t len)
{
    size_t s = 0, e = len;
    while (s < e && (data[s] == ' ' || data[s] == '\t' || data[s] == '\n'))
        s++;
    while (e > s && (data[e - 1] == ' ' || data[e - 1] == '\t' || data[e - 1] == '\n'))
        e--;
    return e - s == 1 && data[s] == '0';
}

/* Compiles text for call: 0 and *out, -EINVAL with *err, or -ENOMEM. */
static int compile_for(const struct trace_event_call *call, const char *text, size_t len,
                       struct event_filter **out, struct event_filter_error *err)
{
    return event_filter_compile(text, len, call->fields, call->fields ? call->nr_fields : 0,
                                out, err);
}

/* --- events/SYSTEM/NAME/filter ---------------------------------------------------------- */

/* f->data is the event, or NULL once it was unregistered while open (-ENODEV). */
static int read_event_filter(struct fs_node *f, struct fs_writer *out)
{
    const struct trace_event_call *call = f->data;
    if (!call)
        return -ENODEV;
    const struct event_filter *filter = call->filter;
    if (filter)
        fs_printf(out, "%s\n", event_filter_text(filter));
    else
        fs_puts(out, "none\n");
    return 0;
}

static int write_event_filter(struct fs_node *f, const char *data, size_t len, bool append)
{
    (void)append;
    struct trace_event_call *call = f->data;
    if (!call)
        return -ENODEV;
    if (is_clear(data, len)) {
        install(call, 0);
        return 0;
    }
    struct event_filter *filter;
    struct event_filter_error err;
    int r = compile_for(call, data, len, &filter, &err);
    if (r == -EINVAL)
        log_refusal(data, len, &err);
    if (r)
        return r;
    install(call, filter);
    return 0;
}

static const struct fs_file_ops event_filter_ops = { .read = read_event_filter,
                                                     .write = write_event_filter };

bool trace_event_filter_create_file(struct fs_node *dir, struct trace_event_call *call)
{
    return fs_create(dir, "filter", &event_filter_ops, call) != 0;
}

/* --- events/SYSTEM/filter -------------------------------------------------------------- */

/* The last text written to a system's filter file, per system that has one. Changed in
 * thread context only (the files' writes and system_gone), as the event list is. */
struct system_filter {
    char *system;
    char *text;
    struct system_filter *next;
};
static struct system_filter *system_filters;

static struct system_filter **find_system(const char *system)
{
    struct system_filter **link = &system_filters;
    while (*link && strcmp((*link)->system, system) != 0)
        link = &(*link)->next;
    return link;
}

/* Remembers text (NULL: none) as system's filter text; forgets it without memory. */
static void set_system_text(const char *system, const char *text)
{
    struct system_filter **link = find_system(system), *s = *link;
    if (s) {
        *link = s->next;
        kfree(s->text);
        kfree(s->system);
        kfree(s);
    }
    if (!text)
        return;
    s = kmalloc(sizeof *s);
    size_t n = strlen(system) + 1, m = strlen(text) + 1;
    char *sys = kmalloc(n), *txt = kmalloc(m);
    if (!s || !sys || !txt) {
        kfree(s);
        kfree(sys);
        kfree(txt);
        return;
    }
    memcpy(sys, system, n);
    memcpy(txt, text, m);
    *s = (struct system_filter){ sys, txt, system_filters };
    system_filters = s;
}

void trace_event_filter_system_gone(const char *system)
{
    set_system_text(system, 0);
}

static int read_system_filter(struct fs_node *f, struct fs_writer *out)
{
    const struct system_filter *s = *find_system(f->data);
    if (s)
        fs_printf(out, "%s\n", s->text);
    else
        fs_puts(out, "none\n");
    return 0;
}

static void print_bad_subsystem(struct fs_writer *out, const void *arg)
{
    const struct refusal *r = arg;
    struct event_filter_error err = { "Couldn't find or set field in one of a subsystem's events", 0 };
    event_filter_print_error(out, r->text, r->len, &err);
}

/*
 * Compiles the filter for each event of the system first (all or nothing for memory), then
 * puts each in place: events it does not compile for lose their filter, as on Linux. If it
 * compiles for none, nothing changes: EINVAL, and error_log says why (the first event's
 * error when the system has one event, else Linux's "Couldn't find or set field ...").
 */
static int write_system_filter(struct fs_node *f, const char *data, size_t len, bool append)
{
    (void)append;
    const char *system = f->data;
    bool clear = is_clear(data, len);
    unsigned n = 0;
    for (struct trace_event_call *c = trace_events_first(); c; c = c->next)
        n += strcmp(c->system, system) == 0;
    struct event_filter **made = n ? kzalloc(n * sizeof *made) : 0;
    if (n && !made)
        return -ENOMEM;
    unsigned i = 0, compiled = 0;
    struct event_filter_error err = { 0 }, first_err = { 0 };
    int r = 0;
    for (struct trace_event_call *c = trace_events_first(); c && !r && !clear; c = c->next) {
        if (strcmp(c->system, system) != 0)
            continue;
        int e = compile_for(c, data, len, &made[i], &err);
        if (e == -ENOMEM)
            r = e;
        else if (e == 0)
            compiled++;
        else if (!first_err.message)
            first_err = err;
        i++;
    }
    if (!r && !clear && compiled == 0) {
        r = -EINVAL;
        struct refusal ref = { data, len, &first_err };
        if (n == 1)
            log_refusal(data, len, &first_err);
        else
            trace_error_log_add(print_bad_subsystem, &ref);
    }
    if (r) {
        for (unsigned k = 0; k < n; k++)
            event_filter_free(made[k]);
        kfree(made);
        return r;
    }
    i = 0;
    for (struct trace_event_call *c = trace_events_first(); c; c = c->next)
        if (strcmp(c->system, system) == 0)
            install(c, made[i++]);
    if (clear || !n) {
        set_system_text(system, 0);
    } else {
        unsigned k = 0;
        while (!made[k]) /* one compiled at least */
            k++;
        set_system_text(system, event_filter_text(made[k]));
    }
    kfree(made);
    return 0;
}

static const struct fs_file_ops system_filter_ops = { .read = read_system_filter,
                                                      .write = write_system_filter };

bool trace_event_filter_create_system_file(struct fs_node *sysdir, const char *system)
{
    return fs_create(sysdir, "filter", &system_filter_ops, (void *)system) != 0;
}
