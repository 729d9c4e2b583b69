/*
 * ftrace_output.c - the text of the function and function_graph tracers, character for
 * character as Linux prints them with its default options (kernel/trace/trace_output.c,
 * kernel/trace/trace_functions_graph.c):
 *
 * function (TRACE_FN), after the context columns of trace_print_context:
 *   "          <idle>-0       [000] .....    12.345678: do_work <-kmain\n"
 *   the parent part " <-parent" is left out when parent_ip is 0; an address outside every
 *   function prints as "0x%08x" (Linux's seq_print_ip_sym), address 0 as "0".
 *
 * function_graph (TRACE_GRAPH_ENT / TRACE_GRAPH_LEAF / TRACE_GRAPH_RET), no context columns:
 *   " 0)               |  do_work() {\n"          entry, depth 0
 *   " 0)   0.456 us    |      leaf();\n"          leaf, depth 2
 *   " 0) + 12.345 us   |  }\n"                     return, depth 0
 *   " 0) ! 123.456 us  |  }\n"
 *   " 0) # 1234.567 us |  }\n"
 *   " 0) * 12345.67 us |  }\n"
 *   " 0) @ 123456.7 us |  }\n"
 *   " 0) $ 1234567 us  |  }\n"
 *   That is: " cpu) ", then the duration column (14 characters: the overhead mark, a space,
 *   usecs "." nsecs " us " padded to 8 digits-and-point, nsecs cut so that usecs and nsecs
 *   together never pass 7 digits), then "|  ", then 2 spaces per depth level, then the call.
 *   Overhead marks: '$' > 1 s, '@' > 100 ms, '*' > 10 ms, '#' > 1 ms, '!' > 100 us,
 *   '+' > 10 us, ' ' otherwise (strictly greater, as trace_find_mark). Unknown functions print
 *   as "0x%x" (what %ps prints for them).
 *
 * stack trace (TRACE_STACK), after the context columns:
 *   "          <idle>-0       [000] .....    12.345678: <stack trace>\n"
 *   " => do_work\n"
 *   " => kmain\n"
 *   Linux prints bare names here by default; options/sym-offset adds "+0x12/0x40" and
 *   options/sym-addr " <c0101234>", here and in the function tracer's lines.
 * function_graph's columns follow options/funcgraph-{abstime,cpu,proc,overhead,duration,
 *   tail} (ftrace_print_flags), as Linux's print_graph_prologue and print_graph_duration.
 *
 * Portable: tests/unit/test_ftrace_output.c checks every layout.
 */
#include <stddef.h>
#include <stdint.h>

#include "kernel/lib/format.h"
#include "kernel/lib/string.h"
#include "kernel/lib/symbols.h"
#include "trace/core/trace_comm.h"
#include "trace/ftrace/ftrace.h"

#define GRAPH_INDENT 2 /* spaces per depth level (Linux: TRACE_GRAPH_INDENT) */
#define GRAPH_PROC_WIDTH 14 /* the funcgraph-proc column (Linux: TRACE_GRAPH_PROCINFO_LENGTH) */
#define GRAPH_PRINT_CPUS 8  /* CPUs whose open entries the printer follows */
#define GRAPH_PRINT_DEPTH 64 /* depths it follows (the writer's return stack is as deep) */

static const struct symbol_table *symbols;

unsigned ftrace_print_flags = FTRACE_PRINT_DEFAULT;

/* The function whose entry line was printed last at each depth, per CPU, as Linux's
 * enter_funcs: a return whose entry was not printed (tracing_thresh records none; the
 * buffer may have lost it) names its function in a comment after the brace. Reset by the header. */
static uint32_t printed_entry[GRAPH_PRINT_CPUS][GRAPH_PRINT_DEPTH];

/* The table names come from: kernel_symbols() in the kernel, a small one in tests. */
void ftrace_output_set_symbols(const struct symbol_table *table)
{
    symbols = table;
}

/* The name of the function holding addr, or NULL. */
static const char *name_of(uint32_t addr)
{
    if (!symbols)
        return NULL;
    return symbol_lookup(symbols, addr, NULL, NULL);
}

/* An address as the function tracer and stack traces print it (Linux's seq_print_ip_sym):
 * "name", or with options/sym-offset "name+0x12/0x40"; "0x%08x" when unknown ("0x%x"
 * with sym-offset, as sprint_symbol gives it); "0" for 0; with options/sym-addr the
 * address follows as " <%08x>". */
static void print_ip_sym(struct fs_writer *out, uint32_t addr)
{
    if (addr == 0) {
        fs_puts(out, "0");
        return;
    }
    uint32_t offset = 0, size = 0;
    const char *name = symbols ? symbol_lookup(symbols, addr, &offset, &size) : NULL;
    bool with_offset = ftrace_print_flags & FTRACE_PRINT_SYM_OFFSET;
    if (name && name[0] && with_offset)
        fs_printf(out, "%s+0x%lx/0x%lx", name, (unsigned long)offset, (unsigned long)size);
    else if (name && name[0])
        fs_puts(out, name);
    else
        fs_printf(out, with_offset ? "0x%lx" : "0x%08lx", (unsigned long)addr);
    if (ftrace_print_flags & FTRACE_PRINT_SYM_ADDR)
        fs_printf(out, " <%08lx>", (unsigned long)addr);
}

/* An address as "%ps" prints it in function_graph lines: "name", or "0x%x" when unknown. */
static void print_ps(struct fs_writer *out, uint32_t addr)
{
    const char *name = name_of(addr);
    if (name && name[0])
        fs_puts(out, name);
    else
        fs_printf(out, "0x%lx", (unsigned long)addr);
}

/* "func <-parent": one call seen by the function tracer. */
void ftrace_print_function(struct fs_writer *out, const struct trace_event_view *ev)
{
    if (ev->length < sizeof(struct ftrace_entry))
        return;
    const struct ftrace_entry *fn = (const struct ftrace_entry *)ev->entry;
    trace_print_context(out, ev);
    print_ip_sym(out, fn->ip);
    if (fn->parent_ip) {
        fs_puts(out, " <-");
        print_ip_sym(out, fn->parent_ip);
    }
    fs_puts(out, "\n");
}

/* Linux's overhead mark for a duration in ns (trace_find_mark): the first threshold the
 * duration is strictly above. */
static char overhead_mark(uint64_t ns)
{
    static const struct {
        uint64_t above;
        char mark;
    } marks[] = {
        { 1000000000ull, '$' }, /* 1 s */
        { 100000000ull, '@' },  /* 100 ms */
        { 10000000ull, '*' },   /* 10 ms */
        { 1000000ull, '#' },    /* 1 ms */
        { 100000ull, '!' },     /* 100 us */
        { 10000ull, '+' },      /* 10 us */
    };
    for (size_t i = 0; i < sizeof marks / sizeof marks[0]; i++)
        if (ns > marks[i].above)
            return marks[i].mark;
    return ' ';
}

/* The duration column of a return or leaf: "M usecs.nsecs us " padded, then "|  ", as
 * print_graph_duration + trace_print_graph_duration. At most 7 digits are shown: the
 * nanoseconds are cut (to 2, 1, then 0 digits) as the microseconds grow; the digits and
 * the point are padded with spaces to 8. */
static void print_duration(struct fs_writer *out, uint64_t ns)
{
    char usecs[24], nsecs[4];
    int len = ksnprintf(usecs, sizeof usecs, "%llu", (unsigned long long)(ns / 1000u));

    if (ftrace_print_flags & FGRAPH_PRINT_OVERHEAD)
        fs_printf(out, "%c %s", overhead_mark(ns), usecs);
    else
        fs_printf(out, "  %s", usecs);
    if (len < 7) {
        int keep = 7 - len < 3 ? 7 - len : 3; /* nanosecond digits that still fit */
        ksnprintf(nsecs, sizeof nsecs, "%03u", (unsigned)(ns % 1000u));
        nsecs[keep] = '\0';
        fs_printf(out, ".%s", nsecs);
        len += keep + 1;
    }
    fs_puts(out, " us ");
    for (; len < 8; len++)
        fs_puts(out, " ");
    fs_puts(out, "|  ");
}

/* depth levels of indentation, 2 spaces each. */
static void print_indent(struct fs_writer *out, int32_t depth)
{
    for (int32_t i = 0; i < depth * GRAPH_INDENT; i++)
        fs_puts(out, " ");
}

/* funcgraph-proc's column: "comm-pid" (comm cut to 7 characters) centred in 14, as
 * Linux's print_graph_proc. */
static void print_proc(struct fs_writer *out, int32_t pid)
{
    char text[32];
    int len = ksnprintf(text, sizeof text, "%.7s-%d", trace_comm_lookup(pid), (int)pid);
    int spaces = len < GRAPH_PROC_WIDTH ? GRAPH_PROC_WIDTH - len : 0;
    for (int i = 0; i < spaces / 2; i++)
        fs_puts(out, " ");
    fs_puts(out, text);
    for (int i = 0; i < spaces - spaces / 2; i++)
        fs_puts(out, " ");
}

/* The columns before the duration, each as its option asks (Linux's print_graph_prologue):
 * funcgraph-abstime "%5lu.%06lu |  ", funcgraph-cpu " %d) ", funcgraph-proc "comm-pid | ". */
static void print_prologue(struct fs_writer *out, const struct trace_event_view *ev)
{
    if (ftrace_print_flags & FGRAPH_PRINT_ABS_TIME)
        fs_printf(out, "%5lu.%06lu |  ", (unsigned long)(ev->ts / 1000000000u),
                  (unsigned long)(ev->ts % 1000000000u / 1000u));
    if (ftrace_print_flags & FGRAPH_PRINT_CPU)
        fs_printf(out, " %u) ", ev->cpu);
    if (ftrace_print_flags & FGRAPH_PRINT_PROC) {
        print_proc(out, ev->entry->pid);
        fs_puts(out, " | ");
    }
}

/* The entry recorded as printed at depth on cpu, or NULL beyond what is followed. */
static uint32_t *printed_slot(unsigned cpu, int32_t depth)
{
    if (cpu >= GRAPH_PRINT_CPUS || depth < 0 || depth >= GRAPH_PRINT_DEPTH)
        return NULL;
    return &printed_entry[cpu][depth];
}

/*
 * One function_graph line, with the columns options/funcgraph-* choose (Linux's defaults:
 * cpu, overhead and duration on; proc, abstime and tail off). The CPU field is " %*d) " in
 * Linux, its width the digits of the highest CPU number; we print it at width 1, which is
 * Linux's width for up to 10 CPUs. Linux turns an entry immediately followed by its return
 * into a leaf while reading; our tracer records that case as one TRACE_GRAPH_LEAF, printed
 * the same way. A return prints "}" alone when its entry was printed, and
 * "}" and the function's name in a C comment when it was not or funcgraph-tail is on, as
 * Linux does.
 */
void ftrace_print_graph(struct fs_writer *out, const struct trace_event_view *ev)
{
    const struct trace_entry *e = ev->entry;
    bool duration = ftrace_print_flags & FGRAPH_PRINT_DURATION;

    switch (e->type) {
    case TRACE_GRAPH_ENT: {
        if (ev->length < sizeof(struct ftrace_graph_entry))
            return;
        const struct ftrace_graph_entry *call = (const struct ftrace_graph_entry *)e;
        uint32_t *slot = printed_slot(ev->cpu, call->depth);
        if (slot)
            *slot = call->func;
        print_prologue(out, ev);
        if (duration)
            fs_puts(out, "              |  "); /* no duration yet: the column stays blank */
        print_indent(out, call->depth);
        print_ps(out, call->func);
        fs_puts(out, "() {\n");
        return;
    }
    case TRACE_GRAPH_LEAF:
    case TRACE_GRAPH_RET: {
        if (ev->length < sizeof(struct ftrace_graph_return))
            return;
        const struct ftrace_graph_return *ret = (const struct ftrace_graph_return *)e;
        uint32_t *slot = printed_slot(ev->cpu, ret->depth);
        bool entry_printed = !slot || *slot == ret->func;
        if (slot)
            *slot = 0;
        print_prologue(out, ev);
        if (duration)
            print_duration(out, ret->rettime - ret->calltime);
        print_indent(out, ret->depth);
        if (e->type == TRACE_GRAPH_LEAF) {
            print_ps(out, ret->func);
            fs_puts(out, "();\n");
        } else if (entry_printed && !(ftrace_print_flags & FGRAPH_PRINT_TAIL)) {
            fs_puts(out, "}\n");
        } else {
            fs_puts(out, "} /* ");
            print_ps(out, ret->func);
            fs_puts(out, " */\n");
        }
        return;
    }
    default:
        return;
    }
}

/* A stack trace event: the context columns, "<stack trace>", then " => caller" per frame,
 * innermost first, as Linux's trace_stack_print. A 0xffffffff entry ends the list, as
 * ULONG_MAX does in Linux. */
void ftrace_print_stack(struct fs_writer *out, const struct trace_event_view *ev)
{
    const size_t head = offsetof(struct ftrace_stack_entry, caller);
    if (ev->length < head)
        return;
    const struct ftrace_stack_entry *st = (const struct ftrace_stack_entry *)ev->entry;
    uint32_t n = st->nr;
    if (n > FTRACE_STACK_DEPTH)
        n = FTRACE_STACK_DEPTH;
    if (n > (ev->length - head) / sizeof(uint32_t))
        n = (uint32_t)((ev->length - head) / sizeof(uint32_t));

    trace_print_context(out, ev);
    fs_puts(out, "<stack trace>\n");
    for (uint32_t i = 0; i < n && st->caller[i] != 0xffffffffu; i++) {
        fs_puts(out, " => ");
        print_ip_sym(out, st->caller[i]);
        fs_puts(out, "\n");
    }
}

/*
 * The function_graph tracer's `trace` header, Linux's print_graph_headers_flags: a title
 * for each column options/funcgraph-* show. Linux's graph header has no entries-in-buffer
 * line; we add it, exactly as trace_print_default_header prints it, because every lost
 * event must show in the trace file (entries-written counts the lost ones). A header starts
 * a reading of the buffer, so the printer forgets which entries it printed before.
 */
void ftrace_print_graph_header(struct fs_writer *out, const struct trace_header_info *info)
{
    unsigned flags = ftrace_print_flags;
    memset(printed_entry, 0, sizeof printed_entry);
    fs_puts(out, "# tracer: function_graph\n#\n");
    fs_printf(out, "# entries-in-buffer/entries-written: %llu/%llu   #P:%u\n#\n",
              (unsigned long long)info->entries, (unsigned long long)info->written, info->ncpus);
    fs_puts(out, "#");
    if (flags & FGRAPH_PRINT_ABS_TIME)
        fs_puts(out, "     TIME       ");
    if (flags & FGRAPH_PRINT_CPU)
        fs_puts(out, " CPU");
    if (flags & FGRAPH_PRINT_PROC)
        fs_puts(out, "  TASK/PID       ");
    if (flags & FGRAPH_PRINT_DURATION)
        fs_puts(out, "  DURATION   ");
    fs_puts(out, "               FUNCTION CALLS\n#");
    if (flags & FGRAPH_PRINT_ABS_TIME)
        fs_puts(out, "      |         ");
    if (flags & FGRAPH_PRINT_CPU)
        fs_puts(out, " |  ");
    if (flags & FGRAPH_PRINT_PROC)
        fs_puts(out, "   |    |        ");
    if (flags & FGRAPH_PRINT_DURATION)
        fs_puts(out, "   |   |      ");
    fs_puts(out, "               |   |   |   |\n");
}
