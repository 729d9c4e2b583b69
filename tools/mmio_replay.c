/*
 * mmio_replay.c - turns an mmiotrace log into a tracekern boot script that makes its writes
 * again: "replaying MMIO logs, i.e. re-executing the recorded writes".
 *
 * usage: mmio_replay [--check-reads] LOG > SCRIPT
 *        make trace SCRIPT=SCRIPT DEVICES="edu pci-testdev"
 *
 * Each W record becomes `mmio write DEVICE BAR OFFSET WIDTH VALUE`, in log order, aimed at the
 * same device (bus:dev.fn) and BAR as the original (and so does each OUT record of
 * tracekern's extension, in the device's I/O BAR; IN records as R records; its IRQ,
 * IRQ_SEEN and DMA lines become comments, in place: the device raises its interrupts again
 * if the writes make it): the log's PCIDEV lines give every device's
 * BARs, and the BAR that holds the write's physical address gives the offset. With
 * --check-reads each R record becomes `mmio read DEVICE BAR OFFSET WIDTH` followed by the
 * comment `# expect 0xVALUE`, the value the log says was read (see docs/mmio-tools.md for how
 * to compare). The script turns mmiotrace on first, so the replay is traced in its turn, and
 * puts markers around the replay; the log's own markers are written at their places, so the
 * two traces line up. It ends with `echo nop > current_tracer` and `poweroff`.
 *
 * What cannot be replayed becomes a `# skipped: RECORD (why)` comment and a warning on stderr:
 * an access no BAR holds, an 8-byte access (the mmio command does 1, 2 or 4), an UNKNOWN
 * record (its instruction was not decoded). A loss record becomes a comment and a warning.
 * A malformed line is reported with its number and skipped.
 *
 * Exit status: 0; 1 if the log had malformed lines (the script is still complete); 2 for a
 * usage or I/O error.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mmio_log.h"

#define MARKER_TEXT_MAX 200 /* keeps a marker line under the shell's 255 characters */
#define RECORD_TEXT_MAX 512

static const char *log_path;    /* as given, for messages */
static const char *log_name;    /* its last component, for the script */
static unsigned long line_number;
static bool check_reads;

static struct mmio_pcidev *devices;
static size_t ndevices;

/* Prints a warning about the current log line on stderr. */
static void warn(const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "mmio_replay: %s: line %lu: ", log_path, line_number);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

/* Records a PCIDEV line; a second line for the same bus:dev.fn replaces the first. */
static void learn_pcidev(const struct mmio_pcidev *pci)
{
    for (size_t i = 0; i < ndevices; i++) {
        if (devices[i].bus == pci->bus && devices[i].devfn == pci->devfn) {
            devices[i] = *pci;
            return;
        }
    }
    devices = realloc(devices, (ndevices + 1) * sizeof *devices);
    if (devices == NULL) {
        fprintf(stderr, "mmio_replay: out of memory\n");
        exit(2);
    }
    devices[ndevices++] = *pci;
}

/*
 * Writes text as the inside of a "..." word of tracekern's shell: \ and " escaped, bytes the
 * console does not take (controls, non-ASCII) as '?', at most MARKER_TEXT_MAX characters.
 */
static void put_quoted(const char *text, size_t len)
{
    size_t out = 0;
    for (size_t i = 0; i < len && out < MARKER_TEXT_MAX; i++) {
        unsigned char c = (unsigned char)text[i];
        if (c == '"' || c == '\\') {
            putchar('\\');
            out++;
        }
        putchar(c >= 0x20 && c < 0x7f ? c : '?');
        out++;
    }
}

/* Writes `echo "TEXT" > trace_marker`. */
static void put_marker(const char *prefix, const char *text, size_t len)
{
    fputs("echo \"", stdout);
    put_quoted(prefix, strlen(prefix));
    put_quoted(text, len);
    fputs("\" > trace_marker\n", stdout);
}

/* Comments a record out of the script, says why, and warns on stderr. */
static void skip(const struct mmio_record *r, const char *fmt, ...)
{
    char record[RECORD_TEXT_MAX], why[128];
    va_list ap;

    mmio_log_format(r, record, sizeof record);
    va_start(ap, fmt);
    vsnprintf(why, sizeof why, fmt, ap);
    va_end(ap);
    printf("# skipped: %s (%s)\n", record, why);
    warn("not replayed: %s (%s)", record, why);
}

/* Writes the mmio command that repeats an R or W record (IN or OUT: in an I/O BAR), or a
 * skipped comment. */
static void replay_access(const struct mmio_record *r)
{
    const struct mmio_pcidev *d = NULL;
    uint64_t offset = 0;
    int bar = -1;
    bool port = r->kind == MMIO_IN || r->kind == MMIO_OUT;
    bool read = r->kind == MMIO_READ || r->kind == MMIO_IN;

    if (read && !check_reads)
        return;
    for (size_t i = 0; i < ndevices && bar < 0; i++) {
        d = &devices[i];
        bar = port ? mmio_pcidev_io_bar_of(d, r->phys, &offset) : mmio_pcidev_bar_of(d, r->phys, &offset);
    }
    if (bar < 0) {
        skip(r, "no %s BAR contains 0x%" PRIx64, port ? "I/O" : "memory", r->phys);
        return;
    }
    if (r->width > 4) {
        skip(r, "width %u: the mmio command does 1, 2 or 4 bytes", r->width);
        return;
    }
    printf("mmio %s %02x:%02x.%x %d 0x%" PRIx64 " %u", read ? "read" : "write",
           d->bus, d->devfn >> 3, d->devfn & 7, bar, offset, r->width);
    if (!read)
        printf(" 0x%" PRIx64 "\n", r->value);
    else
        printf("\n# expect 0x%" PRIx64 "\n", r->value);
}

/* Writes what one log record becomes in the script. */
static void replay_record(const struct mmio_record *r)
{
    switch (r->kind) {
    case MMIO_PCIDEV:
        learn_pcidev(&r->pci);
        break;
    case MMIO_READ:
    case MMIO_WRITE:
    case MMIO_IN:
    case MMIO_OUT:
        replay_access(r);
        break;
    case MMIO_IRQ:
    case MMIO_IRQ_SEEN:
    case MMIO_DMA:
        /* What the device or the kernel did, not the driver: the replayed writes cause it
         * again, or not; a comment keeps its place. */
        {
            char record[RECORD_TEXT_MAX];
            mmio_log_format(r, record, sizeof record);
            printf("# %s\n", record);
        }
        break;
    case MMIO_UNKNOWN:
        skip(r, "instruction not decoded: its access is unknown");
        break;
    case MMIO_MARK:
        put_marker("", r->text, r->text_len);
        break;
    case MMIO_LOST:
        printf("# the log lost %" PRIu64 " events here: their writes are not replayed\n", r->lost);
        warn("the log lost %" PRIu64 " events: the replay misses their writes", r->lost);
        break;
    default: /* VERSION, MAP, UNMAP, LSPCI, blank lines: nothing to do again */
        break;
    }
}

int main(int argc, char **argv)
{
    struct mmio_record rec;
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    unsigned long malformed = 0;
    FILE *in;
    int arg = 1;

    if (arg < argc && strcmp(argv[arg], "--check-reads") == 0) {
        check_reads = true;
        arg++;
    }
    if (arg != argc - 1 || argv[arg][0] == '-') {
        fprintf(stderr, "usage: mmio_replay [--check-reads] LOG > SCRIPT\n");
        return 2;
    }
    log_path = argv[arg];
    log_name = strrchr(log_path, '/') ? strrchr(log_path, '/') + 1 : log_path;
    if ((in = fopen(log_path, "r")) == NULL) {
        fprintf(stderr, "mmio_replay: %s: %s\n", log_path, strerror(errno));
        return 2;
    }

    printf("# replay of %.100s by mmio_replay%s (docs/mmio-tools.md)\n", log_name,
           check_reads ? " --check-reads" : "");
    printf("echo mmiotrace > current_tracer\n");
    put_marker("replay of ", log_name, strlen(log_name));
    while ((n = getline(&line, &cap, in)) >= 0) {
        line_number++;
        if (mmio_log_parse_line(line, (size_t)n, &rec) < 0) {
            warn("%s", rec.error);
            printf("# skipped: line %lu is malformed (%s)\n", line_number, rec.error);
            malformed++;
            continue;
        }
        replay_record(&rec);
    }
    put_marker("end of replay of ", log_name, strlen(log_name));
    printf("echo nop > current_tracer\n");
    printf("poweroff\n");

    if (ferror(in) || fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "mmio_replay: %s\n", strerror(errno));
        return 2;
    }
    fclose(in);
    free(line);
    free(devices);
    return malformed > 0 ? 1 : 0;
}
