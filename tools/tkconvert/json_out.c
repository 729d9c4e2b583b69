/*
 * json_out.c - the Trace Event Format writer (see json_out.h).
 */
#include "tools/tkconvert/json_out.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#define MAX_SAFE_INTEGER (1ull << 53) /* JSON numbers above it lose digits in JavaScript */

/* Writes s[0..n) as a JSON string: quotes, backslashes and control characters escaped,
 * bytes over 0x7f as \u00XX (Latin-1), so any bytes give valid JSON. */
static void put_string(FILE *out, const char *s, size_t n)
{
    fputc('"', out);
    for (size_t i = 0; i < n; i++) {
        unsigned char ch = (unsigned char)s[i];
        if (ch == '"' || ch == '\\')
            fprintf(out, "\\%c", ch);
        else if (ch == '\n')
            fputs("\\n", out);
        else if (ch == '\t')
            fputs("\\t", out);
        else if (ch < 0x20 || ch >= 0x7f)
            fprintf(out, "\\u%04x", ch);
        else
            fputc(ch, out);
    }
    fputc('"', out);
}

static void put_cstring(FILE *out, const char *s) { put_string(out, s, strlen(s)); }

/* Microseconds with the nanoseconds kept: 1234567 ns -> 1234.567. */
static void put_us(FILE *out, uint64_t ns)
{
    fprintf(out, "%" PRIu64 ".%03u", ns / 1000, (unsigned)(ns % 1000));
}

/* An integer value: a JSON number when exact, else a hex string. */
static void put_int(FILE *out, uint64_t v, bool is_signed)
{
    if (is_signed && (int64_t)v < 0 && (uint64_t)(-(int64_t)v) <= MAX_SAFE_INTEGER)
        fprintf(out, "%" PRId64, (int64_t)v);
    else if (v <= MAX_SAFE_INTEGER)
        fprintf(out, "%" PRIu64, v);
    else
        fprintf(out, "\"0x%" PRIx64 "\"", v);
}

/* Whether a field holds a kernel text address worth naming. */
static bool is_address_field(const struct tk_field *f)
{
    static const char *const names[] = {"ip", "parent_ip", "func", "pc", "eip", "caller"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcmp(f->name, names[i]) == 0)
            return true;
    return false;
}

/* The record's fields (the common ones left out) as JSON members, each preceded by ",". */
static void put_fields(FILE *out, const struct tk_trace *t, const struct tk_record *r)
{
    const struct tk_format *fmt = r->format;
    for (size_t i = 0; i < fmt->nr_fields; i++) {
        const struct tk_field *f = &fmt->fields[i];
        if (f->is_common)
            continue;
        fputc(',', out);
        put_cstring(out, f->name);
        fputc(':', out);
        if (f->is_string) {
            const char *s;
            size_t n;
            if (tk_field_string(f, r->data, r->length, &s, &n))
                put_string(out, s, n);
            else
                fputs("null", out);
            continue;
        }
        uint64_t v;
        if (f->is_array) {
            uint32_t count = tk_field_count(f, r->data, r->length);
            fputc('[', out);
            for (uint32_t k = 0; k < count && tk_field_int(f, r->data, r->length, k, &v); k++) {
                if (k)
                    fputc(',', out);
                put_int(out, v, f->is_signed);
            }
            fputc(']', out);
            continue;
        }
        if (!tk_field_int(f, r->data, r->length, 0, &v)) {
            fputs("null", out);
            continue;
        }
        put_int(out, v, f->is_signed);
        const char *sym = is_address_field(f) ? tk_symbols_lookup(&t->symbols, v) : NULL;
        if (sym) {
            fputc(',', out);
            fprintf(out, "\"%s_sym\":", f->name);
            put_cstring(out, sym);
        }
    }
}

/* A field's integer value, or fallback when the record has no such field. */
static uint64_t field_value(const struct tk_record *r, const char *name, uint64_t fallback)
{
    const struct tk_field *f = tk_format_field(r->format, name);
    uint64_t v;
    return f && tk_field_int(f, r->data, r->length, 0, &v) ? v : fallback;
}

/* An open call on a task's stack: a function_graph entry or a system call's enter. */
struct open_call {
    const struct tk_record *begin;
    int64_t depth;  /* function_graph depth; a system call's key (see syscall_enter) */
    int64_t depth2; /* the key of the other tracepoint of the same call, or -1 */
    char name[80];
};

/* The calls open on one CPU for one task, one stack per kind. */
struct task_stack {
    uint32_t cpu;
    int pid;
    struct open_call *calls[2];
    size_t n[2], cap[2];
    int64_t swallow; /* the exit key of a call already closed by its other exit, or -1 */
};

enum { STACK_GRAPH, STACK_SYSCALL };

#define NAMED_SYSCALL_KEY (1ll << 40) /* keys of syscalls:* calls: their format's position */

struct writer {
    const struct tk_trace *t;
    FILE *out;
    bool first;
    struct task_stack *tasks;
    size_t nr_tasks;
    size_t *task_index;   /* hash of (cpu, pid): task number + 1, 0 empty */
    size_t index_size;    /* a power of two, over twice nr_tasks */
    char **syscall_names; /* by number, from syscalls:sys_enter_NAME records */
    size_t nr_syscall_names;
    bool no_memory;
};

/* The slot of (cpu, pid) in the hash of tasks: its task's number + 1, or 0 where it goes. */
static size_t *task_slot(struct writer *w, uint32_t cpu, int pid)
{
    size_t mask = w->index_size - 1;
    uint64_t h = ((uint64_t)cpu << 32 | (uint32_t)pid) * 0x9e3779b97f4a7c15ull;
    for (size_t i = (size_t)(h >> 20) & mask;; i = (i + 1) & mask) {
        size_t *slot = &w->task_index[i];
        if (*slot == 0 || (w->tasks[*slot - 1].cpu == cpu && w->tasks[*slot - 1].pid == pid))
            return slot;
    }
}

/* The open calls of a task on a CPU, made on first use. NULL when memory ran out. */
static struct task_stack *task_of(struct writer *w, uint32_t cpu, int pid)
{
    if (w->index_size) {
        size_t slot = *task_slot(w, cpu, pid);
        if (slot)
            return &w->tasks[slot - 1];
    }
    if ((w->nr_tasks + 1) * 2 > w->index_size) { /* keep the hash under half full */
        size_t size = w->index_size ? w->index_size * 2 : 64;
        size_t *index = calloc(size, sizeof *index);
        if (!index) {
            w->no_memory = true;
            return NULL;
        }
        free(w->task_index);
        w->task_index = index;
        w->index_size = size;
        for (size_t i = 0; i < w->nr_tasks; i++)
            *task_slot(w, w->tasks[i].cpu, w->tasks[i].pid) = i + 1;
    }
    if ((w->nr_tasks & (w->nr_tasks - 1)) == 0) { /* a power of two (or 0): double */
        struct task_stack *tasks = realloc(w->tasks, (w->nr_tasks ? w->nr_tasks * 2 : 16) * sizeof *tasks);
        if (!tasks) {
            w->no_memory = true;
            return NULL;
        }
        w->tasks = tasks;
    }
    struct task_stack *ts = &w->tasks[w->nr_tasks++];
    memset(ts, 0, sizeof *ts);
    ts->cpu = cpu;
    ts->pid = pid;
    ts->swallow = -1;
    *task_slot(w, cpu, pid) = w->nr_tasks;
    return ts;
}

/* Opens a call on the task's stack of that kind. False when the stack is full
 * (TK_JSON_MAX_OPEN: the caller writes the record as an instant instead) or memory ran
 * out. The bound keeps every exit's search of the stack short: linear time whatever the
 * capture holds. */
static bool push_call(struct writer *w, struct task_stack *ts, int kind, const struct tk_record *r,
                      int64_t depth, const char *name)
{
    if (ts->n[kind] == TK_JSON_MAX_OPEN)
        return false;
    if (ts->n[kind] == ts->cap[kind]) {
        size_t bigger = ts->cap[kind] ? ts->cap[kind] * 2 : 16;
        struct open_call *calls = realloc(ts->calls[kind], bigger * sizeof *calls);
        if (!calls) {
            w->no_memory = true;
            return false;
        }
        ts->calls[kind] = calls;
        ts->cap[kind] = bigger;
    }
    struct open_call *c = &ts->calls[kind][ts->n[kind]++];
    c->begin = r;
    c->depth = depth;
    c->depth2 = -1;
    snprintf(c->name, sizeof c->name, "%s", name);
    return true;
}

/* The tid of a task's track: its pid, but the idle task (pid 0), one per CPU, gets a
 * track per CPU (json_out.h), so that its slices on two CPUs never share one. */
static long long track_tid(int pid, uint32_t cpu)
{
    return pid == 0 ? TK_JSON_IDLE_TID + (long long)cpu : pid;
}

/* Starts an event object: {"name":...,"cat":...,"ph":...,"ts":...,"pid":..,"tid":.. for
 * the task pid on cpu. */
static void begin_event(struct writer *w, const char *name, size_t name_len, const char *cat,
                        char ph, uint64_t ts, int pid, uint32_t cpu)
{
    FILE *out = w->out;
    fputs(w->first ? "\n" : ",\n", out);
    w->first = false;
    fputs("{\"name\":", out);
    put_string(out, name, name_len);
    fputs(",\"cat\":", out);
    put_cstring(out, cat);
    fprintf(out, ",\"ph\":\"%c\",\"ts\":", ph);
    put_us(out, ts);
    fprintf(out, ",\"pid\":%d,\"tid\":%lld", pid, track_tid(pid, cpu));
}

/* When a call began and ended: function_graph records carry the call's own clock reads
 * (calltime, rettime: ns of the trace clock, as Linux's), which are what the guest prints as
 * its duration; other records are placed at their timestamps. */
static uint64_t call_time(const struct tk_record *r, const char *field)
{
    return field_value(r, field, r->ts);
}

/* A complete slice from begin's record to end's (end NULL: a "B" event, still open). */
static void put_slice(struct writer *w, const struct open_call *c, const struct tk_record *end,
                      const char *cat)
{
    const struct tk_record *b = c->begin;
    uint64_t from = call_time(b, "calltime");
    begin_event(w, c->name, strlen(c->name), cat, end ? 'X' : 'B', from, b->pid, b->cpu);
    if (end) {
        uint64_t to = call_time(end, "rettime");
        fputs(",\"dur\":", w->out);
        put_us(w->out, to >= from ? to - from : 0);
    }
    fprintf(w->out, ",\"args\":{\"cpu\":%u", b->cpu);
    put_fields(w->out, w->t, b);
    if (end && end != b) {
        fputs(",\"end\":{\"cpu\":", w->out);
        fprintf(w->out, "%u", end->cpu);
        put_fields(w->out, w->t, end);
        fputc('}', w->out);
    }
    fputs("}}", w->out);
}

static void put_instant(struct writer *w, const struct tk_record *r, const char *name, size_t n)
{
    begin_event(w, name, n, r->format->system, 'i', r->ts, r->pid, r->cpu);
    fprintf(w->out, ",\"s\":\"t\",\"args\":{\"cpu\":%u", r->cpu);
    put_fields(w->out, w->t, r);
    fputs("}}", w->out);
}

static const char *function_name(const struct writer *w, uint64_t addr, char *buf, size_t size)
{
    const char *sym = tk_symbols_lookup(&w->t->symbols, addr);
    if (sym)
        return sym;
    snprintf(buf, size, "0x%" PRIx64, addr);
    return buf;
}

static bool is_event(const struct tk_record *r, const char *system, const char *name)
{
    return strcmp(r->format->system, system) == 0 && strcmp(r->format->name, name) == 0;
}

static void graph_entry(struct writer *w, const struct tk_record *r)
{
    struct task_stack *ts = task_of(w, r->cpu, r->pid);
    char buf[32];
    if (ts && !push_call(w, ts, STACK_GRAPH, r, (int32_t)field_value(r, "depth", 0),
                         function_name(w, field_value(r, "func", 0), buf, sizeof buf)) &&
        !w->no_memory)
        put_instant(w, r, r->format->name, strlen(r->format->name)); /* nested too deep */
}

/* A funcgraph_exit closes the entry of its depth; deeper entries left open (their exits
 * were lost) end with it. An exit without its entry (the call began before the trace) is
 * an instant event. */
static void graph_exit(struct writer *w, const struct tk_record *r)
{
    struct task_stack *ts = task_of(w, r->cpu, r->pid);
    int64_t depth = (int32_t)field_value(r, "depth", 0);
    if (!ts)
        return;
    size_t *n = &ts->n[STACK_GRAPH];
    bool found = false;
    for (size_t i = *n; i-- > 0;)
        if (ts->calls[STACK_GRAPH][i].depth == depth)
            found = true;
    if (!found) {
        put_instant(w, r, r->format->name, strlen(r->format->name));
        return;
    }
    while (*n > 0) {
        struct open_call *c = &ts->calls[STACK_GRAPH][--*n];
        put_slice(w, c, r, "function_graph");
        if (c->depth == depth)
            break;
    }
}

/* A leaf call: one record at its return, with the call's own clock reads. */
static void graph_leaf(struct writer *w, const struct tk_record *r)
{
    uint64_t from = call_time(r, "calltime"), to = call_time(r, "rettime");
    char buf[32];
    const char *name = function_name(w, field_value(r, "func", 0), buf, sizeof buf);
    begin_event(w, name, strlen(name), "function_graph", 'X', from, r->pid, r->cpu);
    fputs(",\"dur\":", w->out);
    put_us(w->out, to >= from ? to - from : 0);
    fprintf(w->out, ",\"args\":{\"cpu\":%u", r->cpu);
    put_fields(w->out, w->t, r);
    fputs("}}", w->out);
}

static const char *syscall_name(const struct writer *w, uint64_t nr, char *buf, size_t size)
{
    if (nr < w->nr_syscall_names && w->syscall_names[nr])
        return w->syscall_names[nr];
    snprintf(buf, size, "syscall %" PRId64, (int64_t)nr);
    return buf;
}

/* raw_syscalls and syscalls enter/exit: a slice per call. A call's key is its number for
 * raw_syscalls and NAMED_SYSCALL_KEY + its format's index for syscalls, so that each exit
 * closes its own kind's enter. When both kinds are traced, Linux fires both tracepoints
 * for one call, and their exits in either order: the second enter joins the call already
 * open (one slice, named after the call), the first exit closes it, and the second exit is
 * swallowed. */
static void syscall_enter(struct writer *w, const struct tk_record *r, const char *name, int64_t key,
                          int64_t nr, bool named)
{
    struct task_stack *ts = task_of(w, r->cpu, r->pid);
    if (!ts)
        return;
    ts->swallow = -1;
    if (ts->n[STACK_SYSCALL]) {
        struct open_call *top = &ts->calls[STACK_SYSCALL][ts->n[STACK_SYSCALL] - 1];
        bool top_named = top->depth >= NAMED_SYSCALL_KEY;
        int64_t top_nr = top_named ? (int32_t)field_value(top->begin, "__syscall_nr", ~0ull)
                                   : (int32_t)field_value(top->begin, "id", ~0ull);
        if (top->depth2 < 0 && top_named != named && top_nr == nr) {
            top->depth2 = key;
            if (named)
                snprintf(top->name, sizeof top->name, "%s", name);
            return;
        }
    }
    if (!push_call(w, ts, STACK_SYSCALL, r, key, name) && !w->no_memory)
        put_instant(w, r, r->format->name, strlen(r->format->name)); /* nested too deep */
}

static void syscall_exit(struct writer *w, const struct tk_record *r, int64_t key)
{
    struct task_stack *ts = task_of(w, r->cpu, r->pid);
    if (!ts)
        return;
    if (ts->swallow == key && key >= 0) {
        ts->swallow = -1;
        return;
    }
    size_t *n = &ts->n[STACK_SYSCALL];
    for (size_t i = *n; i-- > 0;) {
        struct open_call *c = &ts->calls[STACK_SYSCALL][i];
        if (c->depth != key && c->depth2 != key)
            continue;
        ts->swallow = c->depth2 < 0 ? -1 : c->depth == key ? c->depth2 : c->depth;
        put_slice(w, c, r, "syscalls");
        memmove(&ts->calls[STACK_SYSCALL][i], &ts->calls[STACK_SYSCALL][i + 1],
                (*n - i - 1) * sizeof ts->calls[STACK_SYSCALL][0]);
        --*n;
        return;
    }
    put_instant(w, r, r->format->name, strlen(r->format->name));
}

static void put_record(struct writer *w, const struct tk_record *r)
{
    char buf[96];
    if (r->kind == TK_RECORD_LOST) {
        fputs(w->first ? "\n" : ",\n", w->out);
        w->first = false;
        fputs("{\"name\":\"lost events\",\"cat\":\"lost\",\"ph\":\"i\",\"s\":\"g\",\"ts\":", w->out);
        put_us(w->out, r->ts);
        fprintf(w->out, ",\"pid\":0,\"tid\":0,\"args\":{\"cpu\":%u,\"count\":", r->cpu);
        if (r->lost)
            fprintf(w->out, "%" PRIu64 "}}", r->lost);
        else
            fputs("null}}", w->out);
        return;
    }
    const struct tk_format *f = r->format;
    if (is_event(r, "ftrace", "funcgraph_entry")) {
        graph_entry(w, r);
    } else if (is_event(r, "ftrace", "funcgraph_exit")) {
        graph_exit(w, r);
    } else if (is_event(r, "tracekern", "funcgraph_leaf")) {
        graph_leaf(w, r);
    } else if (is_event(r, "raw_syscalls", "sys_enter")) {
        uint64_t nr = field_value(r, "id", 0);
        syscall_enter(w, r, syscall_name(w, nr, buf, sizeof buf), (int64_t)(uint32_t)nr,
                      (int32_t)nr, false);
    } else if (is_event(r, "raw_syscalls", "sys_exit")) {
        syscall_exit(w, r, (int64_t)(uint32_t)field_value(r, "id", 0));
    } else if (strcmp(f->system, "syscalls") == 0 && strncmp(f->name, "sys_enter_", 10) == 0) {
        syscall_enter(w, r, f->name + 10, NAMED_SYSCALL_KEY + (int64_t)(f - w->t->formats),
                      (int32_t)field_value(r, "__syscall_nr", ~0ull), true);
    } else if (strcmp(f->system, "syscalls") == 0 && strncmp(f->name, "sys_exit_", 9) == 0) {
        const struct tk_format *enter;
        snprintf(buf, sizeof buf, "sys_enter_%s", f->name + 9);
        enter = tk_trace_format(w->t, "syscalls", buf);
        syscall_exit(w, r, enter ? NAMED_SYSCALL_KEY + (int64_t)(enter - w->t->formats) : -1);
    } else if (is_event(r, "ftrace", "print")) {
        const struct tk_field *text = tk_format_field(f, "buf");
        const char *s = "print";
        size_t n = 5;
        if (text && text->is_string && tk_field_string(text, r->data, r->length, &s, &n))
            while (n && s[n - 1] == '\n')
                n--;
        put_instant(w, r, s, n);
    } else {
        put_instant(w, r, f->name, strlen(f->name));
    }
}

/* Numbers of the syscalls:sys_enter_NAME records, to name raw_syscalls' calls. */
static void learn_syscall_names(struct writer *w)
{
    const struct tk_trace *t = w->t;
    for (size_t i = 0; i < t->nr_records && !w->no_memory; i++) {
        const struct tk_record *r = &t->records[i];
        if (r->kind != TK_RECORD_EVENT || strcmp(r->format->system, "syscalls") != 0 ||
            strncmp(r->format->name, "sys_enter_", 10) != 0)
            continue;
        uint64_t nr = field_value(r, "__syscall_nr", ~0ull);
        if (nr >= 4096)
            continue;
        if (nr >= w->nr_syscall_names) {
            char **names = realloc(w->syscall_names, (nr + 1) * sizeof *names);
            if (!names) {
                w->no_memory = true;
                return;
            }
            memset(names + w->nr_syscall_names, 0, (nr + 1 - w->nr_syscall_names) * sizeof *names);
            w->syscall_names = names;
            w->nr_syscall_names = nr + 1;
        }
        if (!w->syscall_names[nr])
            w->syscall_names[nr] = r->format->name + 10;
    }
}

/* One metadata ("M") event naming a process (pid) or a thread's track (pid, tid). */
static void put_name(struct writer *w, const char *what, int pid, long long tid, const char *name)
{
    fputs(w->first ? "\n" : ",\n", w->out);
    w->first = false;
    fprintf(w->out, "{\"name\":\"%s\",\"ph\":\"M\",\"pid\":%d,\"tid\":%lld,\"args\":{\"name\":",
            what, pid, tid);
    put_cstring(w->out, name);
    fputs("}}", w->out);
}

/* Names every task of saved_cmdlines, and the idle task: its process "<idle>" (or its
 * saved name) and its track on each CPU "<idle>/N". */
static void put_names(struct writer *w)
{
    const struct tk_comms *c = &w->t->comms;
    for (size_t i = 0; i < c->n; i++) {
        if (c->comms[i].pid == 0)
            continue;
        put_name(w, "process_name", c->comms[i].pid, c->comms[i].pid, c->comms[i].comm);
        put_name(w, "thread_name", c->comms[i].pid, c->comms[i].pid, c->comms[i].comm);
    }
    const char *idle = tk_comms_lookup(c, 0) ? tk_comms_lookup(c, 0) : "<idle>";
    char name[64];
    put_name(w, "process_name", 0, track_tid(0, 0), idle);
    for (uint32_t cpu = 0; cpu < (w->t->nr_cpus ? w->t->nr_cpus : 1); cpu++) {
        snprintf(name, sizeof name, "%.40s/%u", idle, cpu);
        put_name(w, "thread_name", 0, track_tid(0, cpu), name);
    }
}

int tk_json_write(const struct tk_trace *t, FILE *out)
{
    struct writer w = {.t = t, .out = out, .first = true};
    learn_syscall_names(&w);
    fputs("{\"displayTimeUnit\":\"ns\",\"otherData\":{\"source\":\"tracekern binary capture\"},"
          "\"traceEvents\":[", out);
    put_names(&w);
    for (size_t i = 0; i < t->nr_records && !w.no_memory; i++)
        put_record(&w, &t->records[i]);
    /* Calls still open at the end: begun, never ended. */
    for (size_t i = 0; i < w.nr_tasks; i++) {
        struct task_stack *ts = &w.tasks[i];
        for (int kind = 0; kind < 2; kind++) {
            for (size_t k = 0; k < ts->n[kind]; k++)
                put_slice(&w, &ts->calls[kind][k], NULL, kind == STACK_GRAPH ? "function_graph" : "syscalls");
            free(ts->calls[kind]);
        }
    }
    fputs("\n]}\n", out);
    free(w.tasks);
    free(w.task_index);
    free(w.syscall_names);
    return w.no_memory || ferror(out) ? -1 : 0;
}
