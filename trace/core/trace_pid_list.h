/*
 * trace_pid_list.h - a set of pids, and the text of the files that hold one
 * (set_event_pid, set_event_notrace_pid, set_ftrace_pid, set_ftrace_notrace_pid).
 *
 * The set is a bitmap over pids 0 .. TRACE_PID_MAX-1: testing a pid is one word load, and
 * its size does not depend on how many pids are written (a write of a million pids takes
 * no more memory than one of a single pid). TRACE_PID_MAX is Linux's default pid_max;
 * a larger pid cannot be listed (EINVAL), and a task with a larger pid is in no list.
 *
 * Text, as Linux's trace_pid_write reads it: pids separated by white space, each as
 * kstrtoul(..., 0) reads it (decimal, 0x hex, 0 octal, an optional '+'); anything else,
 * or a pid >= TRACE_PID_MAX, rejects the whole write with -EINVAL.
 * Portable: tests/unit/test_trace_pid_list.c, tests/fuzz/fuzz_trace_pid_list.c.
 */
#ifndef TRACE_CORE_TRACE_PID_LIST_H
#define TRACE_CORE_TRACE_PID_LIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define TRACE_PID_MAX 32768
#define TRACE_PID_WORDS (TRACE_PID_MAX / 32)

struct trace_pid_list {
    uint32_t count;                 /* pids in the set */
    uint32_t bits[TRACE_PID_WORDS]; /* bit p: pid p is in the set */
};

/* Whether pid is in the set (any int32_t: negative and too large pids never are). */
static inline bool trace_pid_list_has(const struct trace_pid_list *l, int32_t pid)
{
    return pid >= 0 && pid < TRACE_PID_MAX && (l->bits[pid / 32] >> (pid % 32) & 1);
}

/* Adds (on) or removes pid; a pid outside 0 .. TRACE_PID_MAX-1 is ignored. */
void trace_pid_list_set(struct trace_pid_list *l, int32_t pid, bool on);

/* Empties the set. */
void trace_pid_list_clear(struct trace_pid_list *l);

/* Adds every pid of text[0..len) to l. Returns 0, or -EINVAL when the text holds anything
 * but pids (l is then partly changed: parse into a copy). */
int trace_pid_list_parse(struct trace_pid_list *l, const char *text, size_t len);

/* The smallest pid >= from in the set, or -1: for listing the set in order. */
int32_t trace_pid_list_next(const struct trace_pid_list *l, int32_t from);

#endif
