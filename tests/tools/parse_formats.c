/*
 * parse_formats.c - hands every event format file of a tracekern guest to Debian's
 * libtraceevent, as trace-cmd and perf would, and fails on any error or warning.
 *
 *   parse_formats DUMP
 *
 * DUMP holds the files one after the other, each after a line "=== FORMAT SYSTEM/NAME/format"
 * (event_formats.script prints them so). Built for the host (not 32-bit): `make test` runs it.
 * Exit 0 when every file parsed, its ID matches the event found and it has fields; 1 otherwise.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>
#include <event-utils.h>

static int complaints; /* warnings and errors libtraceevent reported */

/* libtraceevent reports through this weak function: count what it says, and show it. */
int tep_vprint(const char *name, enum tep_loglevel level, bool print_err, const char *fmt,
               va_list ap)
{
    (void)print_err;
    if (level <= TEP_LOG_WARNING) {
        complaints++;
        fprintf(stderr, "libtraceevent (%s): ", name ? name : "?");
        vfprintf(stderr, fmt, ap);
        fputc('\n', stderr);
    }
    return 0;
}

/* events/header_page, which trace-cmd hands to libtraceevent before any event: the page's
 * timestamp, commit and data fields, for a 4-byte long. */
static bool parse_header_page(struct tep_handle *tep, const char *text, size_t len)
{
    char *copy = strndup(text, len); /* tep_parse_header_page takes a writable buffer */
    int err = copy ? tep_parse_header_page(tep, copy, len, 4) : -1;
    free(copy);
    if (err) {
        fprintf(stderr, "header_page: refused\n");
        return false;
    }
    if (tep_get_header_timestamp_size(tep) != 8 || tep_get_header_page_size(tep) != 4) {
        fprintf(stderr, "header_page: parsed, but not an 8-byte timestamp and a 4-byte commit\n");
        return false;
    }
    return true;
}

/* Parses one format file; prints why and returns false when libtraceevent refuses it. */
static bool parse_one(struct tep_handle *tep, const char *path, const char *text, size_t len)
{
    if (strcmp(path, "header_page") == 0)
        return parse_header_page(tep, text, len);
    char system[256];
    const char *slash = strchr(path, '/');
    size_t syslen = slash ? (size_t)(slash - path) : 0;
    if (!slash || syslen >= sizeof system || strchr(slash + 1, '/') == NULL) {
        fprintf(stderr, "%s: not SYSTEM/NAME/format\n", path);
        return false;
    }
    memcpy(system, path, syslen);
    system[syslen] = '\0';
    int before = complaints;
    enum tep_errno err = tep_parse_event(tep, text, len, system);
    if (err) {
        char msg[256];
        tep_strerror(tep, err, msg, sizeof msg);
        fprintf(stderr, "%s: %s\n", path, msg);
        return false;
    }
    const char *id_line = strstr(text, "\nID: ");
    int id = id_line ? atoi(id_line + 5) : -1;
    struct tep_event *ev = tep_find_event(tep, id);
    if (!ev || strcmp(ev->system, system) != 0 || ev->format.nr_fields <= 0 ||
        ev->format.nr_common != 4 || (ev->flags & TEP_EVENT_FL_FAILED)) {
        fprintf(stderr, "%s: parsed, but event %d is missing, fieldless or failed\n", path, id);
        return false;
    }
    if (complaints != before) {
        fprintf(stderr, "%s: libtraceevent warned\n", path);
        return false;
    }
    return true;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s DUMP\n", argv[0]);
        return 2;
    }
    FILE *f = fopen(argv[1], "r");
    if (!f) {
        perror(argv[1]);
        return 2;
    }
    struct tep_handle *tep = tep_alloc();
    tep_set_long_size(tep, 4); /* the guest is i386 */
    tep_set_page_size(tep, 4096);
    tep_set_file_bigendian(tep, TEP_LITTLE_ENDIAN);
    static const char marker[] = "=== FORMAT ";
    char *line = NULL, *text = NULL, path[512] = "";
    size_t cap = 0, len = 0, textcap = 0;
    int files = 0, bad = 0;
    ssize_t n;
    bool more = true;
    while (more) {
        n = getline(&line, &cap, f);
        more = n >= 0;
        if (!more || strncmp(line, marker, sizeof marker - 1) == 0) {
            if (path[0]) {
                files++;
                if (!parse_one(tep, path, text ? text : "", len))
                    bad++;
            }
            if (more) {
                snprintf(path, sizeof path, "%s", line + sizeof marker - 1);
                path[strcspn(path, "\n")] = '\0';
                len = 0;
            }
            continue;
        }
        if (len + (size_t)n + 1 > textcap) {
            textcap = (len + (size_t)n + 1) * 2;
            text = realloc(text, textcap);
            if (!text)
                return 2;
        }
        memcpy(text + len, line, (size_t)n + 1);
        len += (size_t)n;
    }
    fclose(f);
    free(line);
    free(text);
    tep_free(tep);
    printf("parse_formats: %d format files, %d refused\n", files, bad);
    return files > 0 && bad == 0 ? 0 : 1;
}
