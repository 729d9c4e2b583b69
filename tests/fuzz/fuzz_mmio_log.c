/*
 * fuzz_mmio_log.c - the mmiotrace log parser of the host tools (tools/mmio_log.c) on arbitrary
 * bytes, as a whole and line by line (the way the tools feed it).
 *
 * Invariants: no crash and no read outside the line (ASan: every line is handed over as an
 * exactly-sized heap copy); a result is a known kind or a known error, with a message exactly
 * when it is an error; and a parsed record, printed back and parsed again, is the same record.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tools/mmio_log.h"

/* Parses a printed record again and aborts unless it gives back the same record. */
static void check_round_trip(const struct mmio_record *rec, size_t input_len)
{
    /* Printing never needs much more than the input: numbers lose leading zeros, and only
     * PCIDEV's blank and a few digits of hex case can be added. */
    size_t size = input_len + 64;
    char *text = malloc(size);
    struct mmio_record again;
    int n = mmio_log_format(rec, text, size);

    if (n < 0 || (size_t)n >= size)
        abort();
    char *exact = malloc((size_t)n + 1); /* exactly n bytes are parsed: ASan sees over-reads */
    memcpy(exact, text, (size_t)n);
    if (mmio_log_parse_line(exact, (size_t)n, &again) != rec->kind || !mmio_record_equal(rec, &again))
        abort();
    free(exact);
    free(text);
}

/* Parses one line (an exactly-sized copy of it) and checks the invariants. */
static void parse_one(const uint8_t *data, size_t len)
{
    struct mmio_record rec;
    char *line = malloc(len ? len : 1);
    int kind;

    memcpy(line, data, len);
    kind = mmio_log_parse_line(line, len, &rec);
    if (kind > 0) {
        if (kind > MMIO_KIND_LAST || rec.kind != kind || rec.error[0] != '\0')
            abort();
        if (rec.text_len > 0 && (rec.text < line || rec.text + rec.text_len > line + len))
            abort();
        check_round_trip(&rec, len);
    } else if (kind < MMIO_ERR_BYTE || kind == 0 || rec.error[0] == '\0' ||
               memchr(rec.error, '\0', sizeof rec.error) == NULL) {
        abort();
    }
    free(line);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const uint8_t *start = data, *end = data + size;

    parse_one(data, size);
    while (start < end) {
        const uint8_t *nl = memchr(start, '\n', (size_t)(end - start));
        const uint8_t *stop = nl ? nl + 1 : end;
        parse_one(start, (size_t)(stop - start));
        start = stop;
    }
    return 0;
}
