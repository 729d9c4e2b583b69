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
bool trace_print_latency_format;
bool trace_print_record_tgid;
uint64_t trace_time_start_ns;
uint64_t trace_latency_next_ns;

/* The release the latency header names: uname's (kernel/syscall/sys_info.c). */
#define TRACE_LATENCY_RELEASE "6.1.0-tracekern"

/* Linux's delay mark for a gap of ns before the next event (trace_find_mark). */
static char delay_mark(uint64_t ns)
{
    static const struct {
        uint64_t above;
        char mark;
    } marks[] = {
        { 1000000000ull, '$' }, { 100000000ull, '@' }, { 10000000ull, '*' },
        { 1000000ull, '#' },    { 100000ull, '!' },    { 10000ull, '+' },
    };
    for (unsigned i = 0; i < sizeof marks / sizeof marks[0]; i++)
        if (ns > marks[i].above)
            return marks[i].mark;
    return ' ';
}

/* The writer printing a buffer other than the live one, and that buffer's start
 * (trace_print_times_from); other writers (the COM2 stream in the tick) keep the live
 * buffer's. Set around a read in thread context; the tick only reads it (one CPU). */
static struct {
    const struct fs_writer *out;
    uint64_t start_ns;
} times_from;

void trace_print_times_from(const struct fs_writer *out, uint64_t start_ns)
{
    times_from.start_ns = start_ns;
    times_from.out = out;
}

/* latency-format's context, Linux's lat_print_generic and lat_print_timestamp: comm cut to
 * 8, pid, CPU, the flag columns, the time in us since the buffer was emptied and the mark
 * of the gap to the next event. */
static void print_latency_context(struct fs_writer *out, const struct trace_event_view *ev)
{
    const struct trace_entry *e = ev->entry;
    fs_printf(out, "%8.8s-%-7d %3u", trace_comm_lookup(e->pid), (int)e->pid, ev->cpu);
    print_flags(out, e);
    uint64_t start = out == times_from.out ? times_from.start_ns : trace_time_start_ns;
    uint64_t since = ev->ts > start ? ev->ts - start : 0;
    uint64_t next = trace_latency_next_ns;
    uint64_t gap = next > ev->ts ? trace_ns_to_usecs(next - ev->ts) : 0;
    fs_printf(out, " %4lluus%c: ", (unsigned long long)trace_ns_to_usecs(since),
              delay_mark(gap * 1000u));
}

/* With options/irq-info off, Linux leaves the five flag columns out, keeping the blank
 * trace_print_time puts before the timestamp; with options/record-tgid on, the thread
 * group id follows the pid, "(-------)" when it is not known. */
void trace_print_context(struct fs_writer *out, const struct trace_event_view *ev)
{
    if (trace_print_latency_format) {
        print_latency_context(out, ev);
        return;
    }
    const struct trace_entry *e = ev->entry;
    const char *comm = trace_comm_lookup(e->pid);
    fs_printf(out, "%16s-%-7d ", comm, (int)e->pid);
    if (trace_print_record_tgid) {
        int tgid = trace_tgid_lookup(e->pid);
        if (tgid)
            fs_printf(out, "(%7d) ", tgid);
        else
            fs_puts(out, "(-------) ");
    }
    fs_printf(out, "[%03u] ", ev->cpu);
    if (trace_print_irq_info)
        print_flags(out, e);
    fs_puts(out, " ");
    trace_print_ts(out, ev->ts);
    fs_puts(out, ": ");
}

/* Linux's print_trace_header and print_lat_help_header, for a tracer that keeps no
 * latency of its own (0 us, no task): nothing when the buffer is empty, as on Linux. This
 * kernel has no preemption: Linux's name for that model is "server". */
static void print_latency_header(struct fs_writer *out, const char *tracer_name,
                                 const struct trace_header_info *info)
{
    if (info->entries == 0)
        return;
    fs_printf(out, "# %s latency trace v1.1.5 on %s\n", tracer_name, TRACE_LATENCY_RELEASE);
    fs_puts(out, "# --------------------------------------------------------------------\n");
    fs_printf(out, "# latency: 0 us, #%llu/%llu, CPU#0 | (M:server VP:0, KP:0, SP:0 HP:0 #P:%u)\n",
              (unsigned long long)info->entries, (unsigned long long)info->written, info->ncpus);
    fs_puts(out, "#    -----------------\n"
                 "#    | task: -0 (uid:0 nice:0 policy:0 rt_prio:0)\n"
                 "#    -----------------\n"
                 "#\n"
                 "#                    _------=> CPU#            \n"
                 "#                   / _-----=> irqs-off/BH-disabled\n"
                 "#                  | / _----=> need-resched    \n"
                 "#                  || / _---=> hardirq/softirq \n"
                 "#                  ||| / _--=> preempt-depth   \n"
                 "#                  |||| / _-=> migrate-disable \n"
                 "#                  ||||| /     delay           \n"
                 "#  cmd     pid     |||||| time  |   caller     \n"
                 "#     \\   /        ||||||  \\    |    /       \n");
}

void trace_print_default_header(struct fs_writer *out, const char *tracer_name,
                                const struct trace_header_info *info)
{
    fs_printf(out, "# tracer: %s\n#\n", tracer_name);
    if (trace_print_latency_format) {
        print_latency_header(out, tracer_name, info);
        return;
    }
    fs_printf(out, "# entries-in-buffer/entries-written: %llu/%llu   #P:%u\n#\n",
              (unsigned long long)info->entries, (unsigned long long)info->written, info->ncpus);
    /* Linux's print_func_help_header and print_func_help_header_irq. record-tgid widens
     * both by the ten columns of "(%7d) ": the plain header by a 10-character TGID column,
     * the one over the flag columns by turning its 2-character gap into a 12-character one.
     * Either way CPU# stays over the "[000]" of the lines below. */
    bool tgid = trace_print_record_tgid;
    if (!trace_print_irq_info) {
        fs_printf(out, "#           TASK-PID    %s CPU#     TIMESTAMP  FUNCTION\n"
                       "#              | |      %s   |         |         |\n",
                  tgid ? "   TGID   " : "", tgid ? "     |    " : "");
        return;
    }
    static const char *const legend[] = {
        "  _-----=> irqs-off/BH-disabled", " / _----=> need-resched",
        "| / _---=> hardirq/softirq",      "|| / _--=> preempt-depth",
        "||| / _-=> migrate-disable",      "|||| /     delay",
    };
    const char *gap = tgid ? "            " : "  ";
    for (unsigned i = 0; i < sizeof legend / sizeof legend[0]; i++)
        fs_printf(out, "#                            %s%s\n", gap, legend[i]);
    fs_printf(out, "#           TASK-PID  %s CPU#  |||||  TIMESTAMP  FUNCTION\n"
                   "#              | |    %s   |   |||||     |         |\n",
              tgid ? "     TGID   " : gap, tgid ? "       |    " : gap);
}
