/*
 * raw_test.c - reads per_cpu/cpu0/trace_pipe_raw as trace-cmd's recorder does and parses
 * the pages itself, checking Linux's binary layout (trace/core/raw_page.h):
 *   - an empty buffer with O_NONBLOCK gives EAGAIN;
 *   - markers written to trace_marker come back in order, one print event each, with the
 *     writer's pid and text, across several pages; every page's header and every event
 *     header decodes (type_len, time deltas, time extends) and time never goes back;
 *   - a read smaller than a page gets the page's first part, the next read the rest;
 *   - a read into memory the program cannot write is EFAULT and takes nothing;
 *   - with a two-page buffer overwritten many times, the first page read has
 *     RB_MISSED_EVENTS and RB_MISSED_STORED in its commit word, and the stored count plus
 *     the events read is exactly what was written.
 * The boot script (tests/shell/raw_pipe.script) turns the COM2 stream off first (it would
 * consume the events before the reader opens) and runs on one CPU.
 * `raw_test instance NAME` runs the same checks on instances/NAME (issue 18): its files,
 * its buffer, the same binary layout.
 * `raw_test follow N` checks instead that an open reader holds the COM2 stream off (below;
 * tests/shell/capture_follow.script).
 * Prints "ok N - WHAT" / "not ok N - WHAT", then "raw_test: P passed, F failed".
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define TRACEFS "/sys/kernel/tracing/"
#define PAGE 4096
#define PAGE_HEADER 12
#define MISSED_EVENTS (1u << 31)
#define MISSED_STORED (1u << 30)
#define COMMIT_MASK 0xfffffu
#define PRINT_TEXT 12 /* struct print_entry: trace_entry (8 bytes), ip, then the text */

static int passed, failed;
static char base[128] = TRACEFS; /* the array's directory: TRACEFS or an instance's */

/* base followed by file (one of two buffers, used in turn: two paths may be alive). */
static const char *at(const char *file)
{
    static char paths[2][192];
    static int next;
    char *p = paths[next++ & 1];
    snprintf(p, sizeof paths[0], "%s%s", base, file);
    return p;
}
static uint8_t page[PAGE];

static void check(bool ok, const char *what)
{
    if (ok)
        passed++;
    else
        failed++;
    printf("%s %d - %s\n", ok ? "ok" : "not ok", passed + failed, what);
}

static uint32_t get32(const uint8_t *p)
{
    uint32_t v;
    memcpy(&v, p, 4);
    return v;
}

/* What the parse of the pages read so far found. */
struct parsed {
    int markers;         /* print events whose text was the expected next marker */
    int bad;             /* events or pages that did not decode as they should */
    int foreign;         /* events that were not this program's markers */
    uint64_t last_ts;
    uint64_t missed;     /* the stored counts of missed events */
    int pages_missed;    /* pages with RB_MISSED_EVENTS */
    int first_type;      /* the print events' type, from the first one */
    const char *prefix;  /* markers are "PREFIX N" for N = base, base + 1, ... */
    int base;            /* -1: the number of the first event read */
};

/* Decodes one page the way libtraceevent's kbuffer does, counting markers seen in order. */
static void parse_page(struct parsed *ps, int pid)
{
    uint64_t ts;
    memcpy(&ts, page, 8);
    uint32_t commit_word = get32(page + 8);
    uint32_t commit = commit_word & COMMIT_MASK;
    if (commit > PAGE - PAGE_HEADER || ts < ps->last_ts) {
        ps->bad++;
        return;
    }
    if (commit_word & MISSED_EVENTS) {
        ps->pages_missed++;
        if (commit_word & MISSED_STORED)
            ps->missed += get32(page + PAGE_HEADER + commit);
    }
    uint32_t at = PAGE_HEADER, end = PAGE_HEADER + commit;
    while (at < end) {
        uint32_t head = get32(page + at);
        uint32_t type_len = head & 31, delta = head >> 5;
        at += 4;
        if (type_len == 30) { /* time extend */
            ts += delta + ((uint64_t)get32(page + at) << 27);
            at += 4;
            continue;
        }
        if (type_len == 29 || type_len == 31) {
            ps->bad++; /* never written by trace_pipe_raw */
            return;
        }
        uint32_t length;
        if (type_len == 0) {
            length = get32(page + at) - 4;
            at += 4;
        } else {
            length = type_len * 4;
        }
        ts += delta;
        if (at + length > end || length < PRINT_TEXT + 1) {
            ps->bad++;
            return;
        }
        const uint8_t *e = page + at;
        uint16_t type;
        int32_t epid;
        memcpy(&type, e, 2);
        memcpy(&epid, e + 4, 4);
        const char *text = (const char *)e + PRINT_TEXT;
        size_t prefix_len = strlen(ps->prefix);
        if (ps->base < 0)
            ps->base = strncmp(text, ps->prefix, prefix_len) == 0 && text[prefix_len] == ' '
                           ? atoi(text + prefix_len + 1) : 0;
        char want[64];
        snprintf(want, sizeof want, "%s %d", ps->prefix, ps->base + ps->markers);
        if (ps->first_type < 0)
            ps->first_type = type;
        if (epid == pid && type == ps->first_type &&
            strncmp((const char *)e + PRINT_TEXT, want, length - PRINT_TEXT) == 0)
            ps->markers++;
        else
            ps->foreign++;
        at += length;
    }
    if (at != end)
        ps->bad++;
    ps->last_ts = ts;
}

static void write_file(const char *path, const char *text)
{
    int fd = open(path, O_WRONLY);
    if (fd < 0 || write(fd, text, strlen(text)) != (long)strlen(text))
        printf("raw_test: cannot write %s\n", path);
    if (fd >= 0)
        close(fd);
}

/* Writes count markers "prefix first" .. "prefix first+count-1". */
static void write_numbered(const char *prefix, int first, int count)
{
    int fd = open(at("trace_marker"), O_WRONLY);
    char line[64];
    for (int i = first; i < first + count; i++) {
        int n = snprintf(line, sizeof line, "%s %d", prefix, i);
        write(fd, line, (size_t)n);
    }
    close(fd);
}

/* Writes count markers "prefix 0" .. "prefix count-1". */
static void write_markers(const char *prefix, int count)
{
    write_numbered(prefix, 0, count);
}

/* Reads whole pages from fd until EAGAIN, parsing each; returns the pages read, or -1 if a
 * read gave anything but a page or EAGAIN. */
static int read_pages(int fd, struct parsed *ps, int pid)
{
    for (int pages = 0;; pages++) {
        long n = read(fd, page, PAGE);
        if (n < 0 && errno == EAGAIN)
            return pages;
        if (n != PAGE)
            return -1;
        parse_page(ps, pid);
    }
}

/*
 * `raw_test follow N`: an open trace_pipe_raw takes precedence over the COM2 stream, as an
 * interactive trace_pipe does: N markers "raw-follow I", written in rounds with sleeps in
 * between (the timer tick and the idle loop run the stream meanwhile), all come back to
 * this reader, none taken by the stream. Events written before it opened the file that the
 * stream had not sent yet (the binary capture sends a page once it is full) come to it too,
 * as foreign ones; the boot script checks each reached one reader, and that the stream
 * resumes after.
 */
static int follow(int count)
{
    int pid = getpid();
    int fd = open(TRACEFS "per_cpu/cpu0/trace_pipe_raw", O_RDONLY | O_NONBLOCK);
    check(fd >= 0, "trace_pipe_raw opens");
    struct parsed ps = { .first_type = -1, .prefix = "raw-follow", .base = 0 };
    int pages = 0;
    for (int done = 0; done < count; done += 50) {
        write_numbered("raw-follow", done, count - done < 50 ? count - done : 50);
        usleep(20000);
        int n = read_pages(fd, &ps, pid);
        pages += n > 0 ? n : 0;
    }
    usleep(20000);
    int n = read_pages(fd, &ps, pid);
    pages += n > 0 ? n : 0;
    printf("raw_test follow: %d pages, %d markers, %d foreign, %d bad\n", pages, ps.markers,
           ps.foreign, ps.bad);
    check(ps.markers == count && ps.bad == 0 && ps.pages_missed == 0,
          "every marker reaches the trace_pipe_raw reader, none the COM2 stream");
    close(fd);
    printf("raw_test: %d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], "follow") == 0)
        return follow(atoi(argv[2]));
    if (argc == 3 && strcmp(argv[1], "instance") == 0)
        snprintf(base, sizeof base, TRACEFS "instances/%s/", argv[2]);
    int pid = getpid();
    int fd = open(at("per_cpu/cpu0/trace_pipe_raw"), O_RDONLY | O_NONBLOCK);
    check(fd >= 0, "trace_pipe_raw opens");
    write_file(at("trace"), ""); /* empty the buffer */
    check(read(fd, page, PAGE) < 0 && errno == EAGAIN, "an empty buffer gives EAGAIN");

    /* Markers over several pages. */
    const int count = 400;
    write_markers("raw_test", count);
    struct parsed ps = { .first_type = -1, .prefix = "raw_test", .base = 0 };
    int pages = read_pages(fd, &ps, pid);
    printf("raw_test: %d pages, %d markers, %d foreign, %d bad\n", pages, ps.markers,
           ps.foreign, ps.bad);
    check(pages >= 3, "the markers span several pages, each read whole");
    check(ps.markers == count && ps.foreign == 0 && ps.bad == 0,
          "every marker comes back once, in order, with its text and pid");
    check(ps.pages_missed == 0, "no page claims missed events");

    /* A read smaller than a page, then the rest. */
    write_markers("small", 1);
    static uint8_t first[100];
    long a = read(fd, first, sizeof first);
    long b = read(fd, page + sizeof first, PAGE - sizeof first);
    memcpy(page, first, sizeof first);
    struct parsed small = { .first_type = -1, .prefix = "small", .base = 0 };
    if (a == (long)sizeof first && b == PAGE - (long)sizeof first)
        parse_page(&small, pid);
    check(small.markers == 1 && small.bad == 0, "a short read gets the page in two parts");
    check(read(fd, page, PAGE) < 0 && errno == EAGAIN, "and then the buffer is empty");

    /* A buffer the program cannot write: EFAULT, and the page is still there after. */
    write_markers("fault", 1);
    long bad = read(fd, (void *)0xc0000000u, PAGE);
    check(bad < 0 && errno == EFAULT, "a read into kernel memory is EFAULT");
    struct parsed kept = { .first_type = -1, .prefix = "fault", .base = 0 };
    if (read(fd, page, PAGE) == PAGE)
        parse_page(&kept, pid);
    check(kept.markers == 1 && kept.bad == 0, "and the event it would have taken is kept");

    /* Overwritten events: a two-page ring, ten pages' worth of markers. */
    char size_kb[32] = "";
    int sfd = open(at("buffer_size_kb"), O_RDONLY);
    if (sfd >= 0) {
        read(sfd, size_kb, sizeof size_kb - 1);
        close(sfd);
    }
    write_file(at("buffer_size_kb"), "8");
    const int flood = 1500;
    write_markers("flood", flood);
    struct parsed lost = { .first_type = -1, .prefix = "flood", .base = -1 };
    bool read_first = read(fd, page, PAGE) == PAGE;
    uint32_t commit_word = get32(page + 8);
    if (read_first)
        parse_page(&lost, pid);
    check(read_first && (commit_word & MISSED_EVENTS) && (commit_word & MISSED_STORED),
          "the first page after an overrun has RB_MISSED_EVENTS and RB_MISSED_STORED");
    read_pages(fd, &lost, pid);
    printf("raw_test: missed %llu, then markers %d..%d\n", (unsigned long long)lost.missed,
           lost.base, lost.base + lost.markers - 1);
    check(lost.pages_missed == 1 && lost.missed == (uint64_t)lost.base && lost.base > 0,
          "the stored count is the number of markers overwritten before the first one read");
    check(lost.base + lost.markers == flood && lost.foreign == 0 && lost.bad == 0,
          "the newest markers all come back in order after the loss");
    write_file(at("buffer_size_kb"), size_kb);
    close(fd);
    printf("raw_test: %d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
