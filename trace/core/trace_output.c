/*
 * trace_output.c - the text of trace files: Linux's header and the context columns before
 * each event. Portable: tests/unit/test_trace_output.c checks the exact layout.
 */
#include "trace/core/trace.h"
#include "trace/core/trace_comm.h"

void trace_print_ts(struct fs_writer *out, uint64_t ts_ns)
{
    uint64_t usecs = trace_ns_to_usecs(ts_ns);
    fs_printf(out, "%5u.%06u", (uint32_t)(usecs / 1000000u), (uint32_t)(usecs % 1000000u));
}

/* Linux's five flag columns: irqs-off, need-resched, hardirq/softirq, preempt-depth,
 * migrate-disable. We have no preemption, softirqs or migration: those stay '.'. */
static void print_flags(struct fs_writer *out, const struct trace_entry *e)
{
    char flags[6] = ".....";
    if (e->flags & TRACE_FLAG_IRQS_OFF)
        flags[0] = 'd';
    if (e->flags & TRACE_FLAG_HARDIRQ)
        flags[2] = 'h';
    if (e->preempt_count)
        flags[3] = (char)('0' + (e->preempt_count > 9 ? 9 : e->preempt_count));
    fs_puts(out, flags);
}

bool trace_print_irq_info = true;

/* With options/irq-info off, Linux leaves the five flag columns out, keeping the blank
 * trace_print_time puts before the timestamp. */
void trace_print_context(struct fs_writer *out, const struct trace_event_view *ev)
{
    const struct trace_entry *e = ev->entry;
    const char *comm = trace_comm_lookup(e->pid);
    fs_printf(out, "%16s-%-7d [%03u] ", comm, (int)e->pid, ev->cpu);
    if (trace_print_irq_info)
        print_flags(out, e);
    fs_puts(out, " ");
    trace_print_ts(out, ev->ts);
    fs_puts(out, ": ");
}

void trace_print_default_header(struct fs_writer *out, const char *tracer_name,
                                const struct trace_header_info *info)
{
    fs_printf(out, "# tracer: %s\n#\n", tracer_name);
    fs_printf(out, "# entries-in-buffer/entries-written: %llu/%llu   #P:%u\n#\n",
              (unsigned long long)info->entries, (unsigned long long)info->written, info->ncpus);
    if (!trace_print_irq_info) { /* Linux's print_func_help_header */
        fs_puts(out, "#           TASK-PID     CPU#     TIMESTAMP  FUNCTION\n"
                     "#              | |         |         |         |\n");
        return;
    }
    fs_puts(out, "#                                _-----=> irqs-off/BH-disabled\n"
                 "#                               / _----=> need-resched\n"
                 "#                              | / _---=> hardirq/softirq\n"
                 "#                              || / _--=> preempt-depth\n"
                 "#                              ||| / _-=> migrate-disable\n"
                 "#                              |||| /     delay\n"
                 "#           TASK-PID     CPU#  |||||  TIMESTAMP  FUNCTION\n"
                 "#              | |         |   |||||     |         |\n");
}
