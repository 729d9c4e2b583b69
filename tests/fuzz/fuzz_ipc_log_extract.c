/*
 * fuzz_ipc_log_extract.c - the dump extractor (tools/ipc_log_dump.c) on damaged dumps.
 *
 * A real dump is megabytes; an input here is at most 4 KiB. So the input is a recipe for a
 * 12 KiB dump, made by the real writer and then damaged:
 *   byte 0      pages of the log, 1 + byte % 2 (page 0 of the dump holds the context)
 *   byte 1      events to write (enough to wrap the pages a few times)
 *   byte 2      L, the length of the text that follows
 *   3 .. 3+L    event texts, separated by newlines, used in turn: string events with a
 *               number appended, and (every other event) message events of two numbers
 *   the rest    damage, three bytes each: dump[(lo | hi << 8) % 12 KiB] = value
 * Before the damage, the extractor must print all that the live reader has: as many
 * events, the same oldest and newest lines, and no problem.
 * After it, nothing may crash or read outside the dump (ASan guards the ends of the static
 * array it lives in). The input itself is also read as a dump file, which exercises the ELF
 * program-header parsing.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/ipc_log_dump.h"
#include "trace/ipc_logging/ipc_log_page.h"

#define DUMP_PAGES 3
#define DUMP_SIZE (DUMP_PAGES * IPC_LOG_PAGE_SIZE)
#define CONTEXT_AT 0x100 /* where in page 0 the context lives */

static uint64_t clock_ns;
/* Page start and end times: a clock that moves a microsecond per reading. */
static uint64_t fake_clock(void) { return clock_ns += 1000; }

/* /dev/null, for output nobody checks. */
static FILE *null_file(void)
{
    static FILE *f;
    if (!f && !(f = fopen("/dev/null", "w")))
        abort();
    return f;
}

/* Runs the extractor over n bytes at dump, printing to out. */
static void extract(const uint8_t *dump, size_t n, FILE *out, struct extract_result *result)
{
    struct dump_image img;
    if (dump_image_open(dump, n, &img, null_file()) < 0 ||
        ipc_log_extract(&img, NULL, out, null_file(), result) < 0)
        abort();
    dump_image_close(&img);
    if (result->contexts > DUMP_PAGES)
        abort();
}

/* Writes the recipe's events into a log whose pages are dump pages 1 and up. */
static void write_events(struct ipc_log *log, const uint8_t *data, size_t size)
{
    const char *text = size > 3 ? (const char *)data + 3 : "";
    size_t text_len = size > 3 ? data[2] : 0;
    if (text_len > size - 3)
        text_len = size > 3 ? size - 3 : 0;
    unsigned events = size > 1 ? data[1] : 0;
    size_t at = 0;

    for (unsigned i = 0; i < events; i++) {
        size_t end = at;
        while (end < text_len && text[end] != '\n')
            end++;
        if (i % 2) { /* every other one as kernel/ipc/ipc.c logs messages */
            int32_t numbers[] = { (int32_t)i, (int32_t)end };
            struct ipc_log_numbers ev = { clock_ns, i, text + at, end - at, numbers, 2 };
            ipc_log_append_numbers(log, &ev); /* an oversize one is refused: fine */
            at = end < text_len ? end + 1 : 0;
            continue;
        }
        struct ipc_log_encoder e;
        size_t room;
        ipc_log_encode_start(&e, TSV_TYPE_STRING);
        ipc_log_encode_timestamp(&e, clock_ns);
        ipc_log_encode_qtimer(&e, i);
        char *p = ipc_log_encode_bytes_start(&e, &room);
        int n = snprintf(p, room + 1, "%.*s %u", (int)(end - at), text + at, i);
        ipc_log_encode_bytes_done(&e, (size_t)n);
        ipc_log_append_encoded(log, &e); /* an oversize one is refused: fine */
        at = end < text_len ? end + 1 : 0;
    }
}

/* The live reader's line for its first event (oldest) and for its last one (newest). */
static void live_ends(const struct ipc_log *log, char *first, char *last)
{
    uint8_t ev[IPC_LOG_EVENT_MAX];
    struct ipc_log_cursor c = ipc_log_oldest(log);
    int n, previous = 0;
    first[0] = last[0] = '\0';
    while ((n = ipc_log_read_event(log, &c, ev)) > 0) {
        if (!first[0])
            ipc_log_format_line(ev, (size_t)n, first, IPC_LOG_LINE_MAX);
        previous = n;
    }
    if (n < 0)
        abort();
    if (previous)
        ipc_log_format_line(ev, (size_t)previous, last, IPC_LOG_LINE_MAX);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct extract_result result;
    extract(data, size, null_file(), &result); /* the input as a dump file */

    static uint8_t dump[DUMP_SIZE] __attribute__((aligned(IPC_LOG_PAGE_SIZE)));
    memset(dump, 0, DUMP_SIZE);
    struct ipc_log *log = (struct ipc_log *)(dump + CONTEXT_AT);
    struct ipc_log_page *pages[DUMP_PAGES - 1];
    uint32_t count = 1 + (size > 0 ? data[0] % 2u : 0);
    for (uint32_t i = 0; i < count; i++)
        pages[i] = (struct ipc_log_page *)(dump + (i + 1) * IPC_LOG_PAGE_SIZE);
    ipc_log_init(log, pages, count, "fuzz", 0, fake_clock);
    write_events(log, data, size);

    /* Undamaged: the extractor prints every event the live reader has, from the same
     * oldest one to the same newest one, and reports nothing. */
    char first[IPC_LOG_LINE_MAX], last[IPC_LOG_LINE_MAX], *text = NULL;
    size_t len = 0;
    live_ends(log, first, last);
    FILE *out = open_memstream(&text, &len);
    if (!out)
        abort();
    extract(dump, DUMP_SIZE, out, &result);
    fclose(out);
    const char *events = strchr(text, '\n');
    size_t last_len = strlen(last);
    if (result.contexts != 1 || result.problems != 0 || !events ||
        result.events != log->written - log->dropped ||
        strncmp(events + 1, first, strlen(first)) != 0 ||
        (last_len && (len < last_len || strcmp(text + len - last_len, last) != 0)))
        abort();
    free(text);

    size_t text_len = size > 2 ? data[2] : 0;
    for (size_t at = 3 + text_len; at + 3 <= size; at += 3)
        dump[(data[at] | (size_t)data[at + 1] << 8) % DUMP_SIZE] = data[at + 2];
    extract(dump, DUMP_SIZE, null_file(), &result);
    return 0;
}
