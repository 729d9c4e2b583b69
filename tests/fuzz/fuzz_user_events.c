/*
 * fuzz_user_events.c - fuzz target for trace/events/user_events_parse.c.
 *
 * The input is a command, a newline, then payload bytes. Checks that ue_parse() either
 * refuses with -EINVAL or gives a description whose fields follow each other from offset 8
 * inside UE_RECORD_MAX with valid names; that the dynamic_events line it prints parses back
 * to the same event; that validating and printing the payload as a record stays inside it
 * (ASan watches every read), and that a payload ue_validate() accepts prints no
 * "<OVERFLOW>". The whole input is also one dynamic_events line, matched against the event.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/lib/errno.h"
#include "trace/events/user_events_parse.h"

static void fail(const char *what)
{
    fprintf(stderr, "fuzz_user_events: %s\n", what);
    abort();
}

/* Gathers printed text (cut at the buffer's size; a cut line is never compared). */
static char text[16384];
static size_t text_len;
static void gather(struct fs_writer *w, const char *t, size_t len)
{
    (void)w;
    if (text_len + len < sizeof text) {
        memcpy(text + text_len, t, len);
        text_len += len;
    }
    text[text_len] = '\0';
}
static struct fs_writer writer = { .emit = gather };

static void check_layout(const struct ue_desc *d)
{
    uint32_t offset = UE_HEADER_SIZE, locs = 0;
    size_t name_len = strlen(d->name);
    if (name_len == 0 || name_len >= UE_NAME_MAX || strchr(d->name, '/') || strchr(d->name, ' ') ||
        strchr(d->name, ':'))
        fail("bad event name accepted");
    for (uint32_t i = 0; i < d->nfields; i++) {
        const struct ue_field *f = &d->fields[i];
        if (f->offset != offset || f->size == 0 || !f->name[0] || strchr(f->name, ' ') ||
            strchr(f->name, ';'))
            fail("field out of place or badly named");
        offset += f->size;
        locs += f->kind == UE_FIELD_DATA_LOC || f->kind == UE_FIELD_REL_LOC;
    }
    if (offset > UE_RECORD_MAX || d->min_size != offset - UE_HEADER_SIZE || d->nlocs != locs)
        fail("sizes do not add up");
}

/* The dynamic_events line must parse back to the same event (unless the "; " it puts
 * between fields made it longer than a command may be). */
static void check_round_trip(const struct ue_desc *d)
{
    text_len = 0;
    ue_print_command(&writer, d);
    if (text_len < 3 || text_len >= sizeof text - 1 || strncmp(text, "u:", 2) != 0)
        fail("command line not printed");
    if (text_len - 3 >= UE_COMMAND_MAX)
        return;
    struct ue_desc *again;
    if (ue_parse(text + 2, text_len - 3, &again) != 0)
        fail("printed command does not parse");
    if (strcmp(again->name, d->name) != 0 || !ue_same_fields(again, d))
        fail("printed command parses to another event");
    ue_desc_free(again);
}

static void check_payload(const struct ue_desc *d, const uint8_t *payload, size_t len,
                          bool has_angle)
{
    /* An exact-size copy, so that ASan sees any read past the record. */
    uint8_t *exact = malloc(UE_HEADER_SIZE + len);
    memset(exact, 0, UE_HEADER_SIZE);
    memcpy(exact + UE_HEADER_SIZE, payload, len);
    int err = ue_validate(d, exact + UE_HEADER_SIZE, (uint32_t)len);
    if (err != 0 && err != -EINVAL && err != -EFAULT)
        fail("unexpected validation errno");
    if ((err == -EINVAL) != (len < d->min_size))
        fail("size check disagrees with min_size");
    text_len = 0;
    ue_print_record(&writer, d, exact, (uint32_t)(UE_HEADER_SIZE + len));
    if (err == 0 && !has_angle && text_len < sizeof text - 1 && strstr(text, "<OVERFLOW>"))
        fail("a valid payload printed <OVERFLOW>");
    text_len = 0;
    ue_print_format(&writer, d);
    free(exact);
}

/* issue 18, event filters: fields described for filters print the same format lines as
 * the event's own printer, and reading them from the payload stays inside the record. */
static char own[sizeof text];
static void check_described_fields(const struct ue_desc *d, const uint8_t *payload, size_t len)
{
    struct trace_event_field *fields = malloc((d->nfields + 1) * sizeof *fields);
    if (!ue_describe_fields(d, fields)) {
        free(fields);
        return;
    }
    text_len = 0;
    ue_print_format(&writer, d);
    size_t own_len = text_len;
    memcpy(own, text, own_len);
    text_len = 0;
    for (uint32_t i = 0; i < d->nfields; i++)
        trace_field_print_format(&writer, &fields[i]);
    ue_print_format_tail(&writer, d);
    if (own_len < sizeof text - 1 && (text_len != own_len || memcmp(text, own, own_len) != 0))
        fail("described fields print another format");
    uint8_t *exact = malloc(UE_HEADER_SIZE + len);
    memset(exact, 0, UE_HEADER_SIZE);
    memcpy(exact + UE_HEADER_SIZE, payload, len);
    for (uint32_t i = 0; i < d->nfields; i++) {
        int64_t v;
        const char *s;
        uint32_t n;
        (void)trace_field_read_int(&fields[i], exact, (uint32_t)(UE_HEADER_SIZE + len), &v);
        if (trace_field_read_string(&fields[i], exact, (uint32_t)(UE_HEADER_SIZE + len), &s, &n) &&
            n) {
            volatile char first = s[0], last = s[n - 1]; /* ASan: both inside the record */
            (void)first;
            (void)last;
        }
    }
    free(exact);
    free(fields);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const uint8_t *nl = memchr(data, '\n', size);
    size_t cmd_len = nl ? (size_t)(nl - data) : size;
    const uint8_t *payload = nl ? nl + 1 : data + size;
    size_t payload_len = size - (size_t)(payload - data);

    struct ue_desc *d = NULL;
    int err = ue_parse((const char *)data, cmd_len, &d);
    if (err != 0 && err != -EINVAL)
        fail("unexpected parse errno");
    if (err == 0) {
        check_layout(d);
        check_round_trip(d);
        check_payload(d, payload, payload_len, memchr(data, '<', size) != NULL);
        check_described_fields(d, payload, payload_len);
    }

    struct ue_dyn_cmd cmd;
    err = ue_dyn_parse((const char *)data, cmd_len, &cmd);
    if (err != 0 && err != -EINVAL)
        fail("unexpected dynamic_events errno");
    if (err == 0 && cmd.op == UE_DYN_CREATE) {
        struct ue_desc *created;
        if (ue_parse(cmd.text, cmd.text_len, &created) == 0) {
            check_layout(created);
            ue_desc_free(created);
        }
    }
    if (err == 0 && d && ue_dyn_matches(&cmd, d) &&
        (cmd.op != UE_DYN_DELETE || cmd.text_len != strlen(d->name)))
        fail("a delete matched an event it does not name");
    if (d)
        ue_desc_free(d);
    return 0;
}
