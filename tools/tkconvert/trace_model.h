/*
 * trace_model.h - a capture decoded: the event formats of its format files, kallsyms and
 * saved_cmdlines, and every record of every CPU's pages in one list merged by timestamp
 * (ties keep CPU order, then page order), with the lost-events marks of the pages' missed
 * flags in their places, and a mark of unknown count where damaged frames may have held a
 * CPU's pages (capture.h, gaps): at the time of the CPU's next whole page, or of its last
 * record when none follows. What --check counts and the writers (JSON, CTF) read: the
 * pages are decoded here and nowhere else (records keep their page, t->pages each page's
 * stamp, so the CTF writer makes a packet per page from them).
 *
 * The capture is hostile: a format file that does not parse, a damaged page or a record of
 * an unknown type is reported on the warn stream and left out; the rest is kept. Records
 * point into the capture's pages: the capture must outlive the model.
 */
#ifndef TOOLS_TKCONVERT_TRACE_MODEL_H
#define TOOLS_TKCONVERT_TRACE_MODEL_H

#include <stdio.h>

#include "tools/tkconvert/capture.h"
#include "tools/tkconvert/event_format.h"
#include "tools/tkconvert/trace_meta.h"

enum tk_record_kind { TK_RECORD_EVENT, TK_RECORD_LOST };

/* struct trace_entry's fields, at the start of every record (Linux's ABI). */
#define TK_ENTRY_SIZE 8u

struct tk_record {
    uint64_t ts;                   /* ns, the trace clock */
    uint32_t cpu;
    uint32_t seq;                  /* order on its CPU: 0, 1, ... */
    uint32_t page;                 /* its CPU's page (a lost mark after the last page:
                                    * the number of pages) */
    enum tk_record_kind kind;
    const struct tk_format *format; /* TK_RECORD_EVENT */
    const uint8_t *data;           /* the record, struct trace_entry first */
    uint32_t length;
    int pid;                       /* common_pid */
    uint8_t flags, preempt;        /* common_flags, common_preempt_count */
    uint64_t lost;                 /* TK_RECORD_LOST: events lost here (0: unknown) */
};

/* One page of a CPU's, as read. */
struct tk_page {
    uint64_t stamp;                /* the page's time stamp */
    bool whole;                    /* its header opened (else it is left out) */
};

struct tk_cpu_stats {
    size_t pages, events, lost, lost_unknown, bad_pages, unknown_records;
    size_t damage_gaps; /* lost marks for damaged frames (capture.h, gaps) */
};

struct tk_trace {
    struct tk_format *formats;      /* sorted by id */
    size_t nr_formats;
    struct tk_symbols symbols;
    struct tk_comms comms;
    struct tk_record *records;
    size_t nr_records;
    unsigned nr_cpus;
    struct tk_cpu_stats cpu[CAPTURE_MAX_CPUS];
    struct tk_page *pages[CAPTURE_MAX_CPUS]; /* cpu[N].pages of them */
    uint32_t nr_cpu_records[CAPTURE_MAX_CPUS]; /* records (events and lost marks) per CPU */
};

/* Decodes c into t. Returns 0, or -1 with err set when memory ran out. */
int tk_trace_load(struct tk_trace *t, const struct capture *c, FILE *warn, char *err, size_t errlen);
void tk_trace_free(struct tk_trace *t);
/* The format of that id, or NULL. */
const struct tk_format *tk_trace_by_id(const struct tk_trace *t, unsigned id);
/* The format named SYSTEM/NAME, or NULL. */
const struct tk_format *tk_trace_format(const struct tk_trace *t, const char *system, const char *name);

#endif
