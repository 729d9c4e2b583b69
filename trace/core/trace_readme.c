/*
 * trace_readme.c - tracefs README: the mini-howto Linux serves at the root of the tracing
 * tree, here describing what this kernel has. Every name it lists is a file or directory
 * that exists (tests/shell/tracefs_readme.check compares it with the tree, both ways).
 */
#include "kernel/fs/fs_layout.h"
#include "kernel/init.h"

static const char readme_text[] =
    "tracing mini-HOWTO (tracekern):\n"
    "\n"
    "# echo 0 > tracing_on : quick way to disable tracing\n"
    "# echo 1 > tracing_on : quick way to re-enable tracing\n"
    "\n"
    " Important files:\n"
    "  trace\t\t\t- The static contents of the buffer\n"
    "\t\t\t  To clear the buffer write into this file: echo > trace\n"
    "  trace_pipe\t\t- A consuming read to see the contents of the buffer\n"
    /* issue 18, triggers and the snapshot buffer */
    "  snapshot\t\t- Like trace but shows the content of the static snapshot buffer\n"
    "\t\t\t  echo 1: allocate it and swap it with the live buffer; 0: free it;\n"
    "\t\t\t  2: clear it (not the int3 `snapshot` tracer: see docs/triggers.md)\n"
    "  current_tracer\t- function, function_graph, mmiotrace, snapshot or nop\n"
    "  available_tracers\t- list of configured tracers for current_tracer\n"
    "  error_log\t- error log for failed commands (that support it)\n"
    "  buffer_size_kb\t- view and modify size of per cpu buffer\n"
    "  buffer_total_size_kb  - view total size of all cpu buffers\n"
    "  trace_entries\t- the buffer's size in records of a typical size (tracekern)\n"
    "  trace_clock\t\t- change the clock used to order events (only [local] here)\n"
    "  tracing_on\t\t- Enable or disable writing to the ring buffer\n"
    "  tracing_cpumask\t- Limit which CPUs to trace (hex mask, Linux's format)\n"
    "  trace_marker\t\t- Writes into this file writes into the kernel buffer\n"
    "  printk_formats\t- the formats of bprintk records (none here)\n"
    "  saved_cmdlines\t- the pid to task name map readers use\n"
    "  saved_tgids\t\t- the pid to thread group id map\n"
    "  trace_options\t\t- Set format or modify how tracing happens\n"
    "\t\t\t  Disable an option by prefixing 'no' to the option name\n"
    "  options/\t\t- Trace options: overwrite, func_stack_trace, stream_com2, stream_raw, event-fork, function-fork, sym-offset, sym-addr, funcgraph-cpu, funcgraph-overhead, funcgraph-proc, funcgraph-duration, funcgraph-abstime, funcgraph-tail, funcgraph-irqs, irq-info, latency-format, record-cmd, record-tgid\n"
    "\t\t\t  (stream_raw: COM2 carries the binary capture, see docs/exports.md)\n"
    "  per_cpu/\t\t- cpuN/trace_pipe_raw (Linux's ring-buffer pages), cpuN/stats\n"
    /* issue 18, instances */
    "  instances/\t\t- mkdir instances/foo makes a trace array with its own buffer:\n"
    "\t\t\t  trace, trace_pipe, trace_marker, tracing_on, buffer_size_kb,\n"
    "\t\t\t  set_event, events/enable, options/overwrite, per_cpu/; rmdir removes it\n"
    "  trace_stat/\t\t- the function profiler's per-function statistics\n"
    "  function_profile_enabled\t- 1 to count calls and time per function\n"
    "  available_filter_functions\t- list of functions that can be filtered on\n"
    "  set_ftrace_filter\t- echo function name in here to only trace these functions\n"
    "\t\t\t  accepts globs (func*, *func, *func*) and !func to remove\n"
    "  set_ftrace_notrace\t- echo function name in here to never trace\n"
    "  set_graph_function\t- Trace the nested calls of a function (function_graph)\n"
    "  set_graph_notrace\t- Do not trace the nested calls of a function (function_graph)\n"
    "  max_graph_depth\t- Trace a limited depth of nested calls (0 is unlimited)\n"
    "  tracing_thresh\t- function_graph shows only calls that took at least this many usecs\n"
    "  set_ftrace_pid\t- Write pid(s) to only function trace those pids\n"
    "\t\t    (function, function_graph); '>>' adds, 'echo >' clears\n"
    "  set_ftrace_notrace_pid\t- Write pid(s) to not function trace those pids\n"
    "  enabled_functions\t- the functions whose call sites are patched now\n"
    "  mmiotrace/\t\t- mmiotrace's own files\n"
    "  available_events\t- list of all available events (SYSTEM:NAME)\n"
    "  set_event_pid\t- Write pid(s) to only record events of those pids\n"
    "  set_event_notrace_pid\t- Write pid(s) to not record events of those pids\n"
    "\t\t    (options/event-fork, options/function-fork: children are added)\n"
    "  set_event\t\t- enables events by name written into it\n"
    "\t\t\t  SYSTEM:* enables all events of SYSTEM; a leading ! disables\n"
    "  events/\t\t- Directory containing all trace event subsystems:\n"
    "      enable\t\t- Write 0/1 to enable/disable tracing of all events\n"
    "  events/SYSTEM/\t- Directory containing all trace events for SYSTEM:\n"
    "      enable\t\t- Write 0/1 to enable/disable tracing of all SYSTEM events\n"
    "      filter\t\t- set a filter on every event of SYSTEM that has the fields\n"
    "  events/SYSTEM/EVENT/\t- Directory containing control files for SYSTEM:EVENT:\n"
    "      enable\t\t- Write 0/1 to enable/disable tracing of SYSTEM:EVENT\n"
    "      filter\t\t- If set, only events passing filter are traced\n"
    "      format\t\t- the record's fields, as libtraceevent reads them\n"
    "      id\t\t- the record's type number\n"
    /* issue 18, triggers */
    "      trigger\t\t- If set, a command to perform when event is hit\n"
    "\t    Format: <trigger>[:count][ if <filter>]\n"
    "\t   trigger: traceon, traceoff, snapshot, stacktrace,\n"
    "\t            enable_event:<system>:<event>, disable_event:<system>:<event>,\n"
    "\t            hist:keys=<field1[,field2,...]>[:vals=...][:sort=...][:size=#entries]\n"
    "\t                 [:pause][:continue][:clear]\n"
    "\t   example: echo 'traceoff:1 if fd == 3' > events/syscalls/sys_enter_write/trigger\n"
    "\t            echo '!traceoff' > events/syscalls/sys_enter_write/trigger\n"
    "\t   A trigger arms a disabled event: its enable reads 0* and its records are dropped\n"
    "      hist\t\t- the table of the event's hist trigger\n"
    "  dynamic_events\t- Create/append/remove/show dynamic events (user events: u:NAME ...)\n"
    "  user_events_data\t- register and write user events (Linux's ABI)\n"
    "  user_events_status\t- the registered user events and their status bits\n"
    "  kprobe_events\t\t- Create/append/remove/show kernel dynamic events\n"
    "\t\t  Write into this file to define/undefine new trace events:\n"
    "\t  p[:[GROUP/]EVENT] SYMBOL[+OFFS]|ADDR [FETCHARGS]\t- set a probe\n"
    "\t  r[MAXACTIVE][:[GROUP/]EVENT] SYMBOL[+0] [FETCHARGS]\t- a return probe ($retval)\n"
    "\t  -:[GROUP/]EVENT\t\t\t\t- remove it\n"
    "\t\t  (an offset or address: an int3, on an instruction boundary)\n"
    "  kprobe_profile\t- each kprobe event's hits and misses\n"
    /* issue 18, uprobes */
    "  uprobe_events\t\t- Create/append/remove/show userspace dynamic events\n"
    "\t\t  Write into this file to define/undefine new trace events:\n"
    "\t  p[:[GROUP/]EVENT] PATH:OFFSET [FETCHARGS]\t- set a probe (OFFSET: in the file)\n"
    "\t  -:[GROUP/]EVENT\t\t\t\t- remove it\n"
    "\t\t  fetchargs as kprobe_events, and @+OFFSET: the file's data at OFFSET\n"
    "  uprobe_profile\t- each uprobe event's file, name and hits\n";

/* README: the text above, whatever is written (the file has no write). */
static int read_readme(struct fs_node *f, struct fs_writer *out)
{
    (void)f;
    fs_puts(out, readme_text);
    return 0;
}

static const struct fs_file_ops readme_ops = { .read = read_readme };

static void trace_readme_init(void) { fs_create(tracefs_root(), "README", &readme_ops, 0); }
INITCALL(trace, trace_readme_init);
