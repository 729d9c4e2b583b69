/*
 * ftrace_internal.h - what the function-tracing files share (ftrace.c: sites, dispatch,
 * function tracer, files; ftrace_graph.c: return stack, function_graph tracer, profiler).
 */
#ifndef TRACE_FTRACE_FTRACE_INTERNAL_H
#define TRACE_FTRACE_FTRACE_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "trace/ftrace/ftrace.h"
#include "trace/ftrace/ftrace_filter.h"
#include "trace/core/trace_pid_filter.h"

/* Who wants the call sites patched. */
#define FTRACE_USER_FUNCTION 1u
#define FTRACE_USER_GRAPH 2u
#define FTRACE_USER_PROFILE 4u
#define FTRACE_USER_KPROBE 8u /* a site has an entry probe (trace/kprobes) */

/* The traceable functions: their call sites (== their addresses), sorted. */
struct ftrace_sites {
    uint32_t *addr;
    uint32_t count;
    uint32_t *patched; /* bitmap: the site calls ftrace_caller now */
    uint32_t *scratch; /* for atomic filter writes */
};
extern struct ftrace_sites ftrace_sites;
extern struct ftrace_func_set ftrace_filter, ftrace_notrace, ftrace_graph_filter;
/* set_graph_notrace: these functions and all they call are left out of function_graph. */
extern struct ftrace_func_set ftrace_graph_notrace;

/* The index of the site at ip, or -1. */
int ftrace_site_index(uint32_t ip);

/* Adds or removes a user and patches the sites accordingly. */
void ftrace_set_user(unsigned user, bool on);
/* Re-patches after a filter changed. */
void ftrace_update(void);

/* Where ftrace_caller lands when anyone listens. */
void ftrace_dispatch(uint32_t ip, uint32_t parent_ip, uint32_t *parent_slot, uint32_t fp);

/* function_graph and the profiler: called by the dispatcher for each traced call, with
 * interrupts off on cpu (the dispatcher's arch_cpu_id(), read once per call); irqs is the
 * traced code's interrupt flag. */
void ftrace_graph_entry(unsigned cpu, uint32_t ip, uint32_t *parent_slot, uint32_t fp,
                        unsigned long irqs);
void ftrace_graph_setup(void);

/* set_ftrace_pid (ftrace_pid.c): the lists, and whether the running task is left out. */
extern struct trace_pid_filter ftrace_pids;
bool ftrace_pid_ignored(void);

/* Calls the dispatcher declined because the tracer itself was running (a bug if not 0). */
uint32_t ftrace_recursion_skipped(void);

#endif
