/*
 * trace_comm.h - which name goes with a pid in trace output (Linux's saved_cmdlines).
 *
 * Events record only the pid. The names of the last TRACE_COMM_SLOTS pids seen are kept
 * here, even after their tasks exit, so `trace` can print "ue_example-5" for events of a
 * process long gone; a pid whose name was pushed out prints as "<...>", as on Linux.
 */
#ifndef TRACE_CORE_TRACE_COMM_H
#define TRACE_CORE_TRACE_COMM_H

#include <stdint.h>

#define TRACE_COMM_SLOTS 128
#define TRACE_COMM_LEN 16

/* Remembers the name of pid (the task was created or renamed). */
void trace_comm_save(int pid, const char *name);
/* How many times a name was saved since boot (a count that only grows): a reader that kept
 * it knows whether saved_cmdlines and saved_tgids changed since (the binary capture sends
 * them again at its end only then). */
uint32_t trace_comm_changes(void);
/* The name saved for pid: "<idle>" for 0, "<...>" when unknown. */
const char *trace_comm_lookup(int pid);
/* The thread group id saved for pid, 0 when unknown (pid 0 included), as Linux's
 * trace_find_tgid: a process here has one thread, so it is its pid when the pid is saved. */
int trace_tgid_lookup(int pid);

#endif
