/*
 * tkconvert.c - the host converter of tracekern's binary capture (uapi/trace_capture.h,
 * what COM2 carries with options/stream_raw 1): checks it, unpacks it into the guest's
 * file-system layout, and converts it for the tools that read Linux's traces.
 */
#define _GNU_SOURCE /* nftw */
#include <errno.h>
#include <ftw.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/tkconvert/capture.h"
#include "tools/tkconvert/ctf_out.h"
#include "tools/tkconvert/json_out.h"
#include "tools/tkconvert/read_file.h"
#include "tools/tkconvert/trace_model.h"
#include "tools/tkconvert/tracedat.h"
#include "tools/tkconvert/unpack.h"

static const char usage_text[] =
    "usage: tkconvert [--session N] [--unpack DIR] [--tracedat FILE] [--ctf DIR] [--json FILE]\n"
    "                 [--check] CAPTURE\n"
    "\n"
    "Reads CAPTURE, a binary capture of tracekern's trace (what COM2 carries when the guest's\n"
    "tracefs options/stream_raw is 1; the frames are described in uapi/trace_capture.h), and\n"
    "does each thing asked, in this order:\n"
    "\n"
    "  --session N   use the Nth session of CAPTURE (1 for the first START frame's), not the\n"
    "                last\n"
    "  --check       print a summary: frames by type, files, and per CPU the pages (Linux's,\n"
    "                built from the CPU's EVENTS frames), events and lost events; then every\n"
    "                damage found, with its byte offset in CAPTURE\n"
    "  --unpack DIR  write the capture as the guest's file system under DIR (made if missing;\n"
    "                refused, exit 2, when it exists and is not empty): tracefs files at\n"
    "                DIR/sys/kernel/tracing/PATH, absolute ones at DIR/PATH (/proc/kallsyms),\n"
    "                each CPU's pages appended as\n"
    "                DIR/sys/kernel/tracing/per_cpu/cpuN/trace_pipe_raw\n"
    "  --tracedat FILE  write trace-cmd's trace.dat (for trace-cmd report, KernelShark), made by\n"
    "                Debian's trace-cmd restore from the unpacked capture (the --unpack DIR,\n"
    "                or a temporary directory removed afterwards)\n"
    "  --json FILE   write the Trace Event Format JSON that Perfetto (ui.perfetto.dev) and\n"
    "                chrome://tracing load: function_graph calls as nested slices per CPU and\n"
    "                task (funcgraph_entry/exit paired by depth; tracekern funcgraph_leaf a\n"
    "                slice of its own), system calls (raw_syscalls and syscalls) as slices\n"
    "                named after the call, trace_marker writes as instant events named by\n"
    "                their text, every other event (mmiotrace, snapshots, user events, ...)\n"
    "                as an instant event named after it with its fields as args, lost events\n"
    "                as instant events \"lost events\", task names from saved_cmdlines;\n"
    "                times in microseconds with the nanoseconds kept. FILE - is stdout\n"
    "  --ctf DIR     write a CTF 1.8 trace (babeltrace2, Trace Compass): DIR/metadata and\n"
    "                DIR/stream_cpuN, an event class \"SYSTEM:NAME\" per format file with every\n"
    "                field typed; a packet per ring-buffer page, whose events_discarded\n"
    "                counts the lost events, so that readers report them\n"
    "  --help        print this text\n"
    "\n"
    "A damaged capture is converted as far as it is whole: a frame with a bad header or frame\n"
    "check is skipped up to the next frame (the byte offset and the bytes skipped are\n"
    "reported), a frame cut off by the end is reported and dropped, an EVENTS frame is used up\n"
    "to a record that cannot be decoded. Where a dropped frame may have held events, --json\n"
    "writes a \"lost events\" instant of unknown count and --ctf raises events_discarded, in\n"
    "the stream of the CPU its header names when only its check failed (or its records, or\n"
    "it came before the CLOCK frame that times them), else of every CPU (a damaged header\n"
    "does not tell the CPU); trace.dat has no way to show it. A format 1 capture (magic\n"
    "\"TKCF\", from an older kernel) is refused (exit 1). When the capture holds several\n"
    "sessions (a START frame each: the guest starts one at each tracer switch), the last\n"
    "one is converted, or the one --session names; --check says how many there are. Paths\n"
    "in the capture that contain \"..\", \".\", empty components or control characters\n"
    "are refused.\n"
    "\n"
    "Exit status: 0 when something usable was found (damage is reported on stderr, or by\n"
    "--check on stdout), 1 when nothing was, 2 for a usage error or an output that could not\n"
    "be written.\n";

struct options {
    const char *capture;
    const char *unpack_dir;
    const char *json_file;
    const char *tracedat_file;
    const char *ctf_dir;
    int check;
    unsigned session; /* 0: the last */
};

static int parse_options(int argc, char **argv, struct options *o)
{
    memset(o, 0, sizeof *o);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            fputs(usage_text, stdout);
            exit(0);
        } else if (strcmp(a, "--check") == 0) {
            o->check = 1;
        } else if (strcmp(a, "--session") == 0 && i + 1 < argc) {
            char *end;
            unsigned long n = strtoul(argv[++i], &end, 10);
            if (*argv[i] < '1' || *argv[i] > '9' || *end || n > 65535) {
                fprintf(stderr, "tkconvert: --session wants a number from 1: %s\n", argv[i]);
                return -1;
            }
            o->session = (unsigned)n;
        } else if (strcmp(a, "--unpack") == 0 && i + 1 < argc) {
            o->unpack_dir = argv[++i];
        } else if (strcmp(a, "--tracedat") == 0 && i + 1 < argc) {
            o->tracedat_file = argv[++i];
        } else if (strcmp(a, "--json") == 0 && i + 1 < argc) {
            o->json_file = argv[++i];
        } else if (strcmp(a, "--ctf") == 0 && i + 1 < argc) {
            o->ctf_dir = argv[++i];
        } else if (a[0] == '-' && a[1] != '\0') {
            fprintf(stderr, "tkconvert: unknown option or missing argument: %s\n", a);
            return -1;
        } else if (o->capture) {
            fprintf(stderr, "tkconvert: more than one capture given: %s\n", a);
            return -1;
        } else {
            o->capture = a;
        }
    }
    if (!o->capture) {
        fprintf(stderr, "tkconvert: no capture given\n");
        return -1;
    }
    return 0;
}

/* --check's summary: the frames of c, and per CPU what decoding it as t found in the pages
 * built from its EVENTS frames (the pages' own damage was reported on the way). */
static void print_check(const struct capture *c, const struct tk_trace *t, const char *name,
                        size_t size)
{
    printf("capture: %s, %zu bytes\n", name, size);
    if (c->sessions > 1)
        printf("sessions: %u (session %u is converted)\n", c->sessions, c->session);
    else
        printf("sessions: %u%s\n", c->sessions, c->sessions ? "" : " (no START frame)");
    printf("frames: START %lu, CLOCK %lu, FILE %lu, EVENTS %lu, RETRACT %lu, END %lu%s\n",
           c->frames[CAPTURE_START], c->frames[CAPTURE_CLOCK], c->frames[CAPTURE_FILE],
           c->frames[CAPTURE_EVENTS], c->frames[CAPTURE_RETRACT], c->frames[CAPTURE_END],
           c->ended ? "" : " (no END: the capture stops mid-session)");
    printf("files: %zu\n", c->nr_files);
    printf("cpus: %u\n", c->nr_cpus);
    for (unsigned cpu = 0; cpu < c->nr_cpus; cpu++) {
        const struct tk_cpu_stats *n = &t->cpu[cpu];
        /* events: every record the pages hold, of a known format or not */
        printf("cpu%u: %zu pages, %zu events, %zu lost", cpu, n->pages,
               n->events + n->unknown_records, n->lost);
        if (n->lost_unknown)
            printf(" (+ %zu pages with lost events of unknown count)", n->lost_unknown);
        if (n->bad_pages)
            printf(", %zu damaged pages", n->bad_pages);
        if (n->damage_gaps)
            printf(", lost events of unknown count at %zu damaged frames", n->damage_gaps);
        printf("\n");
    }
    for (size_t i = 0; i < c->nr_damage; i++)
        printf("damage: at byte %llu: %s (%llu bytes skipped)\n",
               (unsigned long long)c->damage[i].offset, c->damage[i].reason,
               (unsigned long long)c->damage[i].skipped);
    printf("damage found: %zu\n", c->nr_damage);
}

/* Removes the temporary unpacked tree (nftw callback). */
static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st;
    (void)flag;
    (void)ftw;
    return remove(path);
}

/* --tracedat FILE: trace-cmd's file from the unpacked capture (unpacked_dir, or a
 * temporary directory unpacked here and removed afterwards). */
static int write_tracedat(const struct capture *c, const char *unpacked_dir, const char *path)
{
    char tmp[] = "/tmp/tkconvert.XXXXXX", err[512];
    const char *root = unpacked_dir;
    int rc = 0;
    if (!root) {
        if (!mkdtemp(tmp)) {
            fprintf(stderr, "tkconvert: cannot make a temporary directory: %s\n", strerror(errno));
            return -1;
        }
        root = tmp;
        if (unpack_capture(c, root, stderr, err, sizeof err) < 0) {
            fprintf(stderr, "tkconvert: %s\n", err);
            rc = -1;
        }
    }
    if (rc == 0 && tracedat_write(root, c->nr_cpus, path, err, sizeof err) != 0) {
        fprintf(stderr, "tkconvert: %s: %s\n", path, err);
        rc = -1;
    }
    if (!unpacked_dir)
        nftw(tmp, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
    return rc;
}

/* --json FILE ("-": stdout). */
static int write_json(const struct tk_trace *t, const char *path)
{
    bool to_stdout = strcmp(path, "-") == 0;
    FILE *out = to_stdout ? stdout : fopen(path, "w");
    if (!out) {
        fprintf(stderr, "tkconvert: cannot write %s: %s\n", path, strerror(errno));
        return -1;
    }
    int rc = tk_json_write(t, out);
    if ((to_stdout ? fflush(out) : fclose(out)) != 0)
        rc = -1;
    if (rc != 0)
        fprintf(stderr, "tkconvert: cannot write %s: %s\n", path, strerror(errno));
    return rc;
}

int main(int argc, char **argv)
{
    struct options o;
    if (parse_options(argc, argv, &o) != 0) {
        fputs("Try 'tkconvert --help'.\n", stderr);
        return 2;
    }
    size_t size;
    uint8_t *bytes = tk_read_file(o.capture, SIZE_MAX, &size);
    if (!bytes) {
        fprintf(stderr, "tkconvert: %s: %s\n", o.capture, strerror(errno));
        return 2;
    }
    struct capture c;
    char err[256];
    int read_rc = capture_read(&c, bytes, size, o.session, err, sizeof err);
    free(bytes);
    if (read_rc != 0) {
        bool format1 = c.format1; /* nothing in it is usable by this tree */
        capture_free(&c);
        if (format1)
            fprintf(stderr, "tkconvert: %s: %s\n", o.capture, err);
        else
            fprintf(stderr, "tkconvert: %s\n", err);
        return format1 ? 1 : 2;
    }
    if (o.session > c.sessions) {
        fprintf(stderr, "tkconvert: %s: --session %u, but the capture holds %u session%s\n",
                o.capture, o.session, c.sessions, c.sessions == 1 ? "" : "s");
        capture_free(&c);
        return 1;
    }
    int status = 0;
    size_t pages = 0;
    for (unsigned cpu = 0; cpu < c.nr_cpus; cpu++)
        pages += c.nr_pages[cpu];
    if (!o.check) {
        for (size_t i = 0; i < c.nr_damage; i++)
            fprintf(stderr, "tkconvert: %s: damage at byte %llu: %s (%llu bytes skipped)\n",
                    o.capture, (unsigned long long)c.damage[i].offset, c.damage[i].reason,
                    (unsigned long long)c.damage[i].skipped);
    }
    /* One decoding of the pages serves --check's counts, --json and --ctf; --check reports
     * what it finds on stdout, with its summary. */
    struct tk_trace t;
    bool loaded = false;
    if ((o.check || o.json_file || o.ctf_dir) && (c.nr_files || pages)) {
        if (tk_trace_load(&t, &c, o.check ? stdout : stderr, err, sizeof err) != 0) {
            fprintf(stderr, "tkconvert: %s\n", err);
            capture_free(&c);
            return 2;
        }
        loaded = true;
    }
    if (o.check) {
        struct tk_trace none = {0};
        print_check(&c, loaded ? &t : &none, o.capture, size);
    }
    if (c.nr_files == 0 && pages == 0) {
        fprintf(stderr, "tkconvert: %s: nothing usable in the capture\n", o.capture);
        capture_free(&c);
        return 1;
    }
    if (o.unpack_dir && (unpack_root_unused(o.unpack_dir, err, sizeof err) != 0 ||
                         unpack_capture(&c, o.unpack_dir, stderr, err, sizeof err) < 0)) {
        fprintf(stderr, "tkconvert: %s\n", err);
        status = 2;
    } else if (o.tracedat_file && write_tracedat(&c, o.unpack_dir, o.tracedat_file) != 0) {
        status = 2;
    }
    if (o.json_file && write_json(&t, o.json_file) != 0)
        status = 2;
    if (o.ctf_dir && tk_ctf_write(&t, o.ctf_dir, stderr, err, sizeof err) != 0) {
        fprintf(stderr, "tkconvert: %s\n", err);
        status = 2;
    }
    if (loaded)
        tk_trace_free(&t);
    capture_free(&c);
    return status;
}
