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
 *   Linux prints bare names here by default (the sym-offset option is off), so no +off/size.
 *
 * Portable: tests/unit/test_ftrace_output.c checks every layout.
 */
#include <stddef.h>
#include <stdint.h>

#include "kernel/lib/format.h"
#include "kernel/lib/symbols.h"
#include "trace/ftrace/ftrace.h"

#define GRAPH_INDENT 2 /* spaces per depth level (Linux: TRACE_GRAPH_INDENT) */

static const struct symbol_table *symbols;

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

/* An address as the function tracer and stack traces print it (Linux's seq_print_ip_sym
 * without the sym-offset and sym-addr options): "name", "0x%08x" when unknown, "0" for 0. */
static void print_ip_sym(struct fs_writer *out, uint32_t addr)
{
    if (addr == 0) {
        fs_puts(out, "0");
        return;
    }
    const char *name = name_of(addr);
    if (name && name[0])
        fs_puts(out, name);
    else
        fs_printf(out, "0x%08lx", (unsigned long)addr);
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

    fs_printf(out, "%c %s", overhead_mark(ns), usecs);
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

/*
 * One function_graph line with Linux's default columns (funcgraph-cpu, -overhead and
 * -duration on; -proc, -abstime, -tail off). The CPU field is " %*d) " in Linux, its width
 * the digits of the highest CPU number; we print it at width 1, which is Linux's width for
 * up to 10 CPUs. Linux turns an entry immediately followed by its return into a leaf while
 * reading; our tracer records that case as one TRACE_GRAPH_LEAF, printed the same way.
 * A return prints "}" alone, as Linux does by default when its entry was seen.
 */
void ftrace_print_graph(struct fs_writer *out, const struct trace_event_view *ev)
{
    const struct trace_entry *e = ev->entry;

    switch (e->type) {
    case TRACE_GRAPH_ENT: {
        if (ev->length < sizeof(struct ftrace_graph_entry))
            return;
        const struct ftrace_graph_entry *call = (const struct ftrace_graph_entry *)e;
        fs_printf(out, " %u) ", ev->cpu);
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
        fs_printf(out, " %u) ", ev->cpu);
        print_duration(out, ret->rettime - ret->calltime);
        print_indent(out, ret->depth);
        if (e->type == TRACE_GRAPH_LEAF) {
            print_ps(out, ret->func);
            fs_puts(out, "();\n");
        } else {
            fs_puts(out, "}\n");
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
 * The function_graph tracer's `trace` header, Linux's print_graph_headers_flags with the
 * default flags (CPU and DURATION columns). Linux's graph header has no entries-in-buffer
 * line; we add it, exactly as trace_print_default_header prints it, because every lost event
 * must show in the trace file (entries-written counts the lost ones).
 */
void ftrace_print_graph_header(struct fs_writer *out, const struct trace_header_info *info)
{
    fs_puts(out, "# tracer: function_graph\n#\n");
    fs_printf(out, "# entries-in-buffer/entries-written: %llu/%llu   #P:%u\n#\n",
              (unsigned long long)info->entries, (unsigned long long)info->written, info->ncpus);
    fs_puts(out, "# CPU  DURATION                  FUNCTION CALLS\n"
                 "# |     |   |                     |   |   |   |\n");
}
