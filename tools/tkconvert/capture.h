/*
 * capture.h - reads a binary capture (uapi/trace_capture.h, format 2) into memory: the files
 * it carries and each CPU's events as Linux's pages, with a log of the damage found on the
 * way.
 *
 * The guest sends its ring buffer's own records (CAPTURE_EVENTS) and the clock that times
 * them (CAPTURE_CLOCK); the pages that per_cpu/cpuN/trace_pipe_raw would have given are
 * built here (page_builder.c), so that everything after this (trace_model.c, unpack.c and
 * the outputs) reads pages as before.
 *
 * The input is hostile: a bad header or frame check is skipped up to the next "TKC2" magic
 * (the log says at which byte offset and how many bytes), a frame cut off by the end is
 * reported and dropped, a record that cannot be decoded ends its frame, and everything
 * whole is kept. A START frame begins afresh, so what is left after reading is one session
 * of the stream: the one asked for, or the last. Memory and time grow linearly with the
 * input, whatever its frames (files are found by a hash of their paths). Portable:
 * tests/unit/test_tk_capture.c, tests/fuzz/fuzz_tkconvert.c.
 */
#ifndef TOOLS_TKCONVERT_CAPTURE_H
#define TOOLS_TKCONVERT_CAPTURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tools/tkconvert/cycle_clock.h"
#include "tools/tkconvert/page_builder.h"
#include "uapi/trace_capture.h"

#define CAPTURE_MAX_CPUS 64u
#define CAPTURE_PAGE_BYTES 4096u

struct capture_file {
    char *path;    /* as the frame gives it: relative to tracefs, or absolute */
    uint8_t *data;
    size_t size;
};

/* One stretch of the input that could not be used. */
struct capture_damage {
    uint64_t offset;  /* byte offset in the input where it begins */
    uint64_t skipped; /* bytes skipped (for a truncated frame: the bytes left) */
    char reason[112];
};

struct capture {
    /* The current (last) session. */
    struct capture_file *files;
    size_t nr_files, files_cap;
    size_t *file_index;        /* hash of the paths: file number + 1, 0 empty (or NULL) */
    size_t index_size;         /* a power of two, over twice nr_files */
    uint8_t *pages[CAPTURE_MAX_CPUS]; /* nr_pages[cpu] pages of CAPTURE_PAGE_BYTES each */
    size_t nr_pages[CAPTURE_MAX_CPUS], pages_cap[CAPTURE_MAX_CPUS];
    /* Each CPU's page being built from its EVENTS frames (NULL until its first); finished
     * at END, at the end of the input, and before a gap is marked. */
    struct page_builder *builders[CAPTURE_MAX_CPUS];
    bool have_clock;           /* a CLOCK frame came in this session: clock is its */
    struct tk_clock clock;
    /* Where damage may have taken a CPU's events: gaps[cpu] lists page numbers n
     * (ascending, once each) such that a damaged frame came after the CPU's n pages kept so
     * far (its open page is finished first, so that the gap falls between pages). An
     * EVENTS frame whose check alone failed and whose header names a CPU in range marks
     * that CPU, and so does one that cannot be decoded whole, or comes before any CLOCK;
     * any other damage in a session (a damaged header, bytes without a frame, a frame cut
     * off by the end) marks every CPU, since the frame's CPU cannot be known. Damage after
     * END or outside the session kept marks nothing. */
    size_t *gaps[CAPTURE_MAX_CPUS];
    size_t nr_gaps[CAPTURE_MAX_CPUS], gaps_cap[CAPTURE_MAX_CPUS];
    unsigned nr_cpus;          /* from START, else 1 + the highest CPU of an EVENTS frame */
    bool started;              /* the session began with a START frame */
    struct capture_start start;
    bool ended;                /* an END frame came after the last START */
    unsigned long frames[CAPTURE_TYPES]; /* frames of the session, by type */
    /* The whole input. */
    unsigned sessions;         /* START frames seen */
    unsigned session;          /* the session kept: 1 for the first START's; 0 none */
    struct capture_damage *damage;
    size_t nr_damage, damage_cap;
    bool truncated;            /* the last frame was cut off (also in damage) */
    bool format1;              /* the input is a format 1 capture ("TKCF"), not read */
};

/* Reads buf[0..len) into c (zeroed first; free it with capture_free), keeping session
 * `session` (1 for the frames from the first START on; 0 for the last). All of buf is read,
 * so c->sessions and c->damage describe the whole input, and every CPU's last page is
 * finished. Returns 0, or -1 when memory ran out or the input is a format 1 capture (err
 * says which; c->format1 tells them apart); damage is not an error: it is logged in
 * c->damage. */
int capture_read(struct capture *c, const uint8_t *buf, size_t len, unsigned session, char *err,
                 size_t errlen);
void capture_free(struct capture *c);
/* Whether damage may have taken pages of cpu just before its page number page (page ==
 * c->nr_pages[cpu]: after its last page). */
bool capture_gap_before(const struct capture *c, unsigned cpu, size_t page);
/* The file of that path in the current session, or NULL. */
const struct capture_file *capture_find(const struct capture *c, const char *path);

#endif
