/*
 * hist_table.h - the table of a `hist` trigger (Linux's trace_events_hist.c over its
 * tracing_map): records of an event counted by key, with sums of chosen fields, printed
 * sorted as events/SYSTEM/NAME/hist shows it.
 *
 *   hist:keys=KEY[,KEY...][:vals=VAL[,VAL...]][:sort=S[,S]][:size=N]
 *
 * KEY is a field of the event (or common_*), integer or string, with an optional modifier:
 * .hex, .sym (a kernel address, by its function), .execname (common_pid shown as the task's
 * name), .syscall (a system call number by name), .log2 (counted by power of two). VAL is
 * an integer field to sum (.hex prints the sum in hex) or hitcount; S is hitcount, a key or a
 * val, with .descending or .ascending (the default). N is the largest number of entries,
 * rounded up to a power of two between HIST_MIN_SIZE and HIST_MAX_SIZE (default 2048, as
 * Linux); a record whose key is new once the table is full is counted as Dropped. The parts
 * may come in any order; key=, val= and values= are taken as Linux takes them. A part
 * `pause`, `cont` (or `continue`) or `clear` makes the spec a command to the table that
 * counts the same way (hist_same), as on Linux.
 *
 * Memory: hist_create allocates everything the table will use (entries, their index),
 * hist_bytes() of it, and refuses a table larger than the caller's max_bytes; counting a
 * record then allocates nothing. Portable: tests/unit/test_hist_table.c,
 * tests/fuzz/fuzz_hist_table.c.
 */
#ifndef TRACE_EVENTS_HIST_TABLE_H
#define TRACE_EVENTS_HIST_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernel/fs/fs_tree.h"
#include "trace/events/event_fields.h"

#define HIST_MAX_KEYS 3
#define HIST_MAX_VALS 4
#define HIST_MAX_SORT 2
#define HIST_DEFAULT_SIZE 2048
#define HIST_MIN_SIZE 128      /* Linux's TRACING_MAP_BITS_MIN */
#define HIST_MAX_SIZE 131072   /* and TRACING_MAP_BITS_MAX */
#define HIST_STRING_KEY 64     /* bytes of a string key compared and kept */
#define HIST_COMM_LEN 16

struct hist_table;

/* Why a spec was refused: Linux's hist error text and the byte of the spec it points at. */
struct hist_error {
    const char *message;
    size_t pos;
};

/* What printing needs from the kernel: a function's name for .sym keys (NULL when none),
 * a system call's name for .syscall keys (NULL: "unknown_syscall"). */
struct hist_names {
    const char *(*symbol)(uint64_t addr);
    const char *(*syscall)(uint64_t nr);
};

/* Compiles spec[0..len) (what follows "hist:") against the common fields and
 * fields[0..nr_fields). Returns 0 and *out, -EINVAL with *err, or -ENOMEM (also when the
 * table would take more than max_bytes). */
int hist_create(const char *spec, size_t len, const struct trace_event_field *fields,
                unsigned nr_fields, size_t max_bytes, struct hist_table **out,
                struct hist_error *err);

/* What a spec asks of an existing table, besides being one. */
enum hist_command { HIST_COUNT, HIST_PAUSE, HIST_CONT, HIST_CLEAR };
enum hist_command hist_command_of(const struct hist_table *t);

/* True when a and b count the same way: the same keys, vals and sort (Linux's
 * hist_trigger_match, which ignores the size). */
bool hist_same(const struct hist_table *a, const struct hist_table *b);

/* Empties t: no entry, no hit, nothing dropped. */
void hist_clear(struct hist_table *t);

/* Counts a record of length bytes. comm: the current task's name, kept for .execname keys
 * when the key is new. Never allocates; fields outside the record read as 0 or "". */
void hist_add(struct hist_table *t, const void *record, uint32_t length, const char *comm);

/* Prints the spec as Linux's trigger file and "# trigger info:" show it:
 * "hist:keys=id.syscall:vals=hitcount:sort=hitcount:size=2048" (no newline). */
void hist_print_spec(struct fs_writer *out, const struct hist_table *t);

/* Prints the entries sorted, one "{ KEY: ... } hitcount: N ..." line each, then the
 * Totals block. Returns 0, or -ENOMEM (nothing printed) when the sort's array cannot be
 * had. */
int hist_print_entries(struct fs_writer *out, const struct hist_table *t,
                       const struct hist_names *names);

/* An empty table that counts as t does (t's spec, size and command), or NULL without
 * memory: what a clear swaps in, or where hist_copy_some copies t for printing. */
struct hist_table *hist_alloc_like(const struct hist_table *t);

/* Copies src's entries [from, from + n) into dst (made by hist_alloc_like(src)); the call
 * with from 0 first takes src's totals, and with them how many entries the copy will have.
 * Returns where the next call starts: dst's entry count once all are copied. For printing
 * outside the writers' lock in bounded pieces (src's entries only grow in place meanwhile):
 * dst's index is not copied, so nothing may be added to dst. */
uint32_t hist_copy_some(struct hist_table *dst, const struct hist_table *src, uint32_t from,
                        uint32_t n);

/* The heap bytes t took at creation (what a budget charges for it). */
size_t hist_bytes(const struct hist_table *t);

void hist_free(struct hist_table *t);

#endif
