/*
 * fuzz_tkconvert.c - the host converter's input (tools/tkconvert/) on arbitrary bytes:
 *   1. as a capture (format 2): frames, frame checks and resync, the CLOCK, EVENTS frames'
 *      ring records built into pages (capture.c, page_builder.c), then decoded
 *      (trace_model.c, with every page, format file, kallsyms and saved_cmdlines it holds)
 *      and written as JSON and CTF;
 *   2. as the ring records of EVENTS frames (cut into frames of up to a page) of a capture
 *      whose format files are the guest's own (print, funcgraph_entry/exit, funcgraph_leaf,
 *      raw_syscalls) and whose CLOCK lists function_graph's cycle fields, made into a
 *      capture with correct frame checks, read, and converted the same way;
 *   3. as one Linux page (zero-padded to 4096 bytes) of such a capture, decoded and written
 *      the same way;
 *   4. as a format file (each field read and its elements counted), kallsyms and
 *      saved_cmdlines text.
 *
 * Invariants: no crash and no read outside the input (ASan: an exactly-sized copy); the
 * damage log covers only bytes of the input, in order, without overlap; every kept file has
 * a path unpack_path maps under ROOT or refuses; every page built holds only events inside
 * its commit, in a whole page; every decoded event lies inside its page's commit; the JSON
 * written holds balanced brackets outside its strings.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/unit/tk_capture_build.h"
#include "tools/tkconvert/capture.h"
#include "tools/tkconvert/ctf_out.h"
#include "tools/tkconvert/event_format.h"
#include "tools/tkconvert/json_out.h"
#include "tools/tkconvert/rb_page.h"
#include "tools/tkconvert/trace_meta.h"
#include "tools/tkconvert/trace_model.h"
#include "tools/tkconvert/unpack.h"

#define COMMON                                                                               \
    "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"                  \
    "\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"                  \
    "\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"          \
    "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"

/* The guest's format files (tests/tools/tkconvert_formats/), ids 1, 5, 6, 7, 32, 33. */
static const char *const guest_formats[][2] = {
    {"events/ftrace/print/format",
     "name: print\nID: 1\nformat:\n" COMMON
     "\tfield:unsigned long ip;\toffset:8;\tsize:4;\tsigned:0;\n"
     "\tfield:char buf[];\toffset:12;\tsize:0;\tsigned:1;\n\nprint fmt: \"%ps: %s\"\n"},
    {"events/ftrace/funcgraph_entry/format",
     "name: funcgraph_entry\nID: 5\nformat:\n" COMMON
     "\tfield:unsigned long func;\toffset:8;\tsize:4;\tsigned:0;\n"
     "\tfield:int depth;\toffset:12;\tsize:4;\tsigned:1;\n"
     "\tfield:unsigned long long calltime;\toffset:16;\tsize:8;\tsigned:0;\n"},
    {"events/ftrace/funcgraph_exit/format",
     "name: funcgraph_exit\nID: 6\nformat:\n" COMMON
     "\tfield:unsigned long func;\toffset:8;\tsize:4;\tsigned:0;\n"
     "\tfield:int depth;\toffset:12;\tsize:4;\tsigned:1;\n"
     "\tfield:unsigned long long calltime;\toffset:16;\tsize:8;\tsigned:0;\n"
     "\tfield:unsigned long long rettime;\toffset:24;\tsize:8;\tsigned:0;\n"
     "\tfield:unsigned int overrun;\toffset:32;\tsize:4;\tsigned:0;\n"},
    {"events/tracekern/funcgraph_leaf/format",
     "name: funcgraph_leaf\nID: 7\nformat:\n" COMMON
     "\tfield:unsigned long func;\toffset:8;\tsize:4;\tsigned:0;\n"
     "\tfield:int depth;\toffset:12;\tsize:4;\tsigned:1;\n"
     "\tfield:unsigned long long calltime;\toffset:16;\tsize:8;\tsigned:0;\n"
     "\tfield:unsigned long long rettime;\toffset:24;\tsize:8;\tsigned:0;\n"},
    {"events/raw_syscalls/sys_enter/format",
     "name: sys_enter\nID: 32\nformat:\n" COMMON
     "\tfield:long id;\toffset:8;\tsize:4;\tsigned:1;\n"
     "\tfield:unsigned long args[6];\toffset:12;\tsize:24;\tsigned:0;\n"},
    {"events/raw_syscalls/sys_exit/format",
     "name: sys_exit\nID: 33\nformat:\n" COMMON
     "\tfield:long id;\toffset:8;\tsize:4;\tsigned:1;\n"
     "\tfield:long ret;\toffset:12;\tsize:4;\tsigned:1;\n"},
    {"/proc/kallsyms", "c0100000 T kmain\nc0100100 t helper\n"},
    {"saved_cmdlines", "1 init\n7 sh\n"},
};

static FILE *null_out;
static char ctf_dir[64];

/* Brackets outside strings balance: the JSON is at least well nested. */
static void check_json(const char *text, size_t n)
{
    int depth = 0;
    bool in_string = false;
    for (size_t i = 0; i < n; i++) {
        char ch = text[i];
        if (in_string) {
            if (ch == '\\')
                i++;
            else if (ch == '"')
                in_string = false;
            else if ((unsigned char)ch < 0x20)
                abort();
        } else if (ch == '"') {
            in_string = true;
        } else if (ch == '[' || ch == '{') {
            depth++;
        } else if (ch == ']' || ch == '}') {
            if (--depth < 0)
                abort();
        }
    }
    if (depth != 0 || in_string)
        abort();
}

/* Decodes c and writes it both ways. */
static void convert(const struct capture *c, bool with_ctf)
{
    struct tk_trace t;
    char err[160];
    if (tk_trace_load(&t, c, null_out, err, sizeof err) != 0)
        abort();
    char *json = NULL;
    size_t json_len = 0;
    FILE *out = open_memstream(&json, &json_len);
    if (!out || tk_json_write(&t, out) != 0)
        abort();
    fclose(out);
    check_json(json, json_len);
    free(json);
    if (with_ctf && tk_ctf_write(&t, ctf_dir, null_out, err, sizeof err) != 0)
        abort();
    tk_trace_free(&t);
}

static void decode_page(const uint8_t *page, uint32_t size);

/* Every page a capture holds decodes inside its commit. */
static void check_pages(const struct capture *c)
{
    for (unsigned cpu = 0; cpu < c->nr_cpus; cpu++)
        for (size_t p = 0; p < c->nr_pages[cpu]; p++)
            decode_page(c->pages[cpu] + p * CAPTURE_PAGE_BYTES, CAPTURE_PAGE_BYTES);
}

static void as_capture(const uint8_t *data, size_t size)
{
    struct capture c;
    char err[160];
    if (capture_read(&c, data, size, 0, err, sizeof err) != 0) {
        if (!c.format1) /* out of memory: not on these inputs */
            abort();
        capture_free(&c);
        return;
    }
    uint64_t covered = 0;
    for (size_t i = 0; i < c.nr_damage; i++) {
        if (c.damage[i].offset < covered || c.damage[i].skipped == 0 ||
            c.damage[i].offset + c.damage[i].skipped > size)
            abort();
        covered = c.damage[i].offset + c.damage[i].skipped;
    }
    char rel[UNPACK_PATH_MAX + 64];
    for (size_t i = 0; i < c.nr_files; i++) {
        if (unpack_path(c.files[i].path, rel, sizeof rel) == 0 &&
            (strstr(rel, "/../") || strncmp(rel, "../", 3) == 0 || rel[0] == '/' ||
             strstr(rel, "//") || strstr(rel, "/./")))
            abort();
    }
    check_pages(&c);
    convert(&c, false);
    capture_free(&c);
}

/* Decodes one page and checks that every event lies inside its commit. */
static void decode_page(const uint8_t *page, uint32_t size)
{
    struct rb_page_reader r;
    struct rb_event ev;
    char err[160];
    if (rb_page_open(&r, page, size, err, sizeof err) != 0)
        return;
    if (r.end > size)
        abort();
    int got, n = 0;
    while ((got = rb_page_next(&r, &ev, err, sizeof err)) > 0) {
        if (ev.data < page + RB_PAGE_HEADER || ev.data + ev.length > page + r.end)
            abort();
        if (++n > (int)size / 4)
            abort();
    }
}

static void as_page(const uint8_t *data, size_t size)
{
    static uint8_t page[CAPTURE_PAGE_BYTES];
    static struct capture_file files[sizeof guest_formats / sizeof guest_formats[0]];
    struct capture c;
    memset(&c, 0, sizeof c);
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++)
        files[i] = (struct capture_file){(char *)guest_formats[i][0], (uint8_t *)guest_formats[i][1],
                                         strlen(guest_formats[i][1])};
    c.files = files;
    c.nr_files = sizeof files / sizeof files[0];
    memset(page, 0, sizeof page);
    memcpy(page, data, size < sizeof page ? size : sizeof page);
    c.pages[0] = page;
    c.nr_pages[0] = 1;
    c.nr_cpus = 1;
    decode_page(data, (uint32_t)(size < sizeof page ? size : sizeof page));
    static unsigned calls;
    convert(&c, calls++ % 16 == 0); /* CTF writes files: one input in 16 */
}

/* The input as ring records: cpu0's EVENTS frames of up to a page of them each, the first
 * with a loss before it, then trailing losses of cpu1. */
static void as_records(const uint8_t *data, size_t size)
{
    static const struct capture_cycle_field fields[] = {{5, 16}, {6, 16}, {6, 24}, {7, 16}, {7, 24}};
    struct capture_buf b = {0};
    cb_start(&b, 2);
    cb_clock(&b, 1000, 3u << 20, 22, fields, 5);
    for (size_t i = 0; i < sizeof guest_formats / sizeof guest_formats[0]; i++)
        cb_file(&b, guest_formats[i][0], guest_formats[i][1]);
    size_t at = 0;
    do {
        uint32_t n = size - at < CAPTURE_PAGE_BYTES ? (uint32_t)(size - at) : CAPTURE_PAGE_BYTES;
        cb_events(&b, 0, 900 + at, at, at ? 0 : size % 5, n ? data + at : NULL, n);
        at += n;
    } while (at < size);
    cb_events(&b, 1, 1u << 30, 0, 7, NULL, 0);
    cb_frame(&b, CAPTURE_END, 0, NULL, 0);
    struct capture c;
    char err[160];
    if (capture_read(&c, b.bytes, b.len, 0, err, sizeof err) != 0 || c.nr_pages[1] != 1)
        abort();
    for (size_t i = 0; i < c.nr_damage; i++) /* only a bad record, inside cpu0's frames */
        if (strncmp(c.damage[i].reason, "EVENTS frame of cpu0: record at byte ", 37) != 0)
            abort();
    check_pages(&c);
    static unsigned calls;
    convert(&c, calls++ % 16 == 0);
    capture_free(&c);
    free(b.bytes);
}

static void as_text(const uint8_t *data, size_t size)
{
    struct tk_format f;
    char err[160];
    if (tk_format_parse(&f, "fuzz", (const char *)data, size, err, sizeof err) == 0) {
        for (size_t i = 0; i < f.nr_fields; i++) {
            uint64_t v;
            const char *s;
            size_t n;
            tk_field_int(&f.fields[i], data, (uint32_t)size, 0, &v);
            /* The elements counted lie inside the input (json_out.c writes each). */
            uint64_t count = tk_field_count(&f.fields[i], data, (uint32_t)size);
            if (count * tk_field_elem_size(&f.fields[i]) > size)
                abort();
            if (tk_field_string(&f.fields[i], data, (uint32_t)size, &s, &n) &&
                (s < (const char *)data || s + n > (const char *)data + size))
                abort();
        }
        tk_format_free(&f);
    } else if (memchr(err, '\0', sizeof err) == NULL || err[0] == '\0') {
        abort();
    }
    struct tk_symbols syms;
    struct tk_comms comms;
    if (tk_symbols_parse(&syms, (const char *)data, size) != 0 ||
        tk_comms_parse(&comms, (const char *)data, size) != 0)
        abort();
    for (size_t i = 0; i < syms.n; i++)
        if (tk_symbols_lookup(&syms, syms.syms[i].addr) == NULL)
            abort();
    for (size_t i = 0; i < comms.n; i++)
        if (tk_comms_lookup(&comms, comms.comms[i].pid) == NULL)
            abort();
    tk_symbols_free(&syms);
    tk_comms_free(&comms);
}

/* Removes the CTF directory the run wrote. */
static void remove_ctf_dir(void)
{
    char path[96];
    snprintf(path, sizeof path, "%s/metadata", ctf_dir);
    unlink(path);
    for (int cpu = 0; cpu < 2; cpu++) {
        snprintf(path, sizeof path, "%s/stream_cpu%d", ctf_dir, cpu);
        unlink(path);
    }
    rmdir(ctf_dir);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!null_out) {
        null_out = fopen("/dev/null", "w");
        snprintf(ctf_dir, sizeof ctf_dir, "/tmp/fuzz_tkconvert_ctf.%d", (int)getpid());
        atexit(remove_ctf_dir);
    }
    as_capture(data, size);
    as_records(data, size);
    as_page(data, size);
    as_text(data, size);
    return 0;
}
