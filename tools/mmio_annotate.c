/*
 * mmio_annotate.c - names the device registers an mmiotrace log reads and writes.
 *
 * usage: mmio_annotate [REGFILE...] < LOG > ANNOTATED
 *
 * Copies the log and appends a comment to each access it can place:
 *
 *     W 4 12.345678 1 0xfea00004 0x12345678 0x101234 0  # edu BAR0 LIVENESS = 0x12345678
 *     R 4 12.345690 1 0xfea00020 0x1 0x101240 0  # edu BAR0 STATUS = 0x1 (COMPUTING)
 *     R 4 12.345700 1 0xfea0001c 0x0 0x101250 0  # edu BAR0 +0x1c
 *
 * The PCIDEV lines at the top of a log say which device (vendor:device) has which BARs. An
 * access's physical address falls in one of them; its offset there is looked up in the
 * register description of that vendor:device (the REGFILEs; format in docs/mmio-tools.md),
 * and a register with named bit fields has its value decoded. A device without a description
 * is named by its vendor:device, and two devices of one kind get their bus:dev.fn appended.
 * MAP lines say which physical range each map id covers: an access outside every known BAR
 * but inside its mapping is shown as "map N +0xOFFSET". MAP and UNKNOWN lines are placed the
 * same way (without a value). The IN and OUT lines of tracekern's extension are placed in the
 * devices' I/O BARs the same way. Every other line passes through unchanged; so does a malformed
 * line, which is also reported on stderr with its line number.
 *
 * Exit status: 0; 1 if the log had malformed lines; 2 for a bad REGFILE, usage or I/O error.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mmio_log.h"

#define NAME_LEN 32      /* register, field and device names: at most 31 characters */
#define MAX_REG_SIZE 0x100000000ull
#define COMMENT_LEN 512

/* A named bit field of a register: bits lo..hi. */
struct field {
    unsigned lo, hi;
    char name[NAME_LEN];
};

/* A register (or a larger area, such as a string) of one BAR. */
struct reg {
    int bar;
    uint64_t offset, size;
    char name[NAME_LEN];
    struct field *fields;
    size_t nfields;
};

/* What a REGFILE says about one kind of device. */
struct device_desc {
    char name[NAME_LEN];
    uint16_t vendor, device;
    struct reg *regs;
    size_t nregs;
    const char *where; /* "file:line" of its `device` line, for messages */
};

/* A device of the traced machine, from a PCIDEV line. */
struct pci_fn {
    struct mmio_pcidev pci;
    const struct device_desc *desc; /* NULL if no REGFILE describes it */
};

/* A live mapping, from a MAP line. */
struct mapping {
    uint32_t id;
    uint64_t phys, len;
};

static struct device_desc *descs;
static size_t ndescs;
static struct pci_fn *fns;
static size_t nfns;
static struct mapping *maps;
static size_t nmaps;

/* Ends the program after a failed allocation. */
static void out_of_memory(void)
{
    fprintf(stderr, "mmio_annotate: out of memory\n");
    exit(2);
}

/*
 * Adds one zeroed element of elem_size bytes at the end of a growing array and returns the
 * (possibly moved) array. The capacity doubles whenever the count reaches a power of two.
 */
static void *append(void *array, size_t *count, size_t elem_size)
{
    size_t n = *count;
    if ((n & (n - 1)) == 0) { /* 0, 1, 2, 4, ...: the array is full */
        array = realloc(array, (n ? 2 * n : 1) * elem_size);
        if (array == NULL)
            out_of_memory();
    }
    memset((char *)array + n * elem_size, 0, elem_size);
    *count = n + 1;
    return array;
}

/* ---- register descriptions (REGFILE) ------------------------------------------------- */

/* Where a REGFILE is being read. */
struct regfile {
    const char *path;
    unsigned line;
    struct device_desc *dev; /* the device being described, or NULL before the first */
    int bar;                 /* the BAR its `reg` lines are in */
};

/* Reports an error in a REGFILE and ends the program: a description must be right. */
static void regfile_error(const struct regfile *rf, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "mmio_annotate: %s:%u: ", rf->path, rf->line);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    exit(2);
}

/* Cuts the next blank-separated word out of *p (NUL-terminating it); NULL if none is left. */
static char *next_word(char **p)
{
    char *s = *p, *word;
    while (*s == ' ' || *s == '\t')
        s++;
    if (*s == '\0')
        return NULL;
    word = s;
    while (*s != '\0' && *s != ' ' && *s != '\t')
        s++;
    if (*s != '\0')
        *s++ = '\0';
    *p = s;
    return word;
}

/* Reads a whole word as a number: decimal, or hex with 0x. False if it is not one. */
static bool parse_number(const char *s, uint64_t *v)
{
    char *end;
    if (s == NULL || s[0] < '0' || s[0] > '9')
        return false;
    errno = 0;
    *v = strtoull(s, &end, 0);
    return errno == 0 && *end == '\0';
}

/* Checks a name: letters, digits and '_' (and, if `device`, '-' and '.'), at most 31. */
static void check_name(const struct regfile *rf, const char *name, bool device)
{
    if (name == NULL)
        regfile_error(rf, "missing name");
    if (strlen(name) >= NAME_LEN)
        regfile_error(rf, "name %s is longer than %d characters", name, NAME_LEN - 1);
    for (const char *c = name; *c; c++) {
        bool ok = (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || *c == '_' ||
                  (*c >= '0' && *c <= '9' && c != name) || (device && (*c == '-' || *c == '.'));
        if (!ok)
            regfile_error(rf, "bad name %s (letters, digits and _ only)", name);
    }
}

/* Reads exactly four hex digits (a PCI vendor or device id). */
static bool parse_id(const char *s, uint16_t *id)
{
    unsigned v = 0;
    for (int i = 0; i < 4; i++) {
        char c = s[i];
        int d = c >= '0' && c <= '9' ? c - '0'
              : c >= 'a' && c <= 'f' ? c - 'a' + 10
              : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
        if (d < 0)
            return false;
        v = v << 4 | (unsigned)d;
    }
    *id = (uint16_t)v;
    return true;
}

/* `device NAME VVVV:DDDD [description]`: starts the description of a kind of device. */
static void directive_device(struct regfile *rf, char *args)
{
    char *name = next_word(&args), *id = next_word(&args);
    uint16_t vendor, device;
    char where[256];

    check_name(rf, name, true);
    if (id == NULL || strlen(id) != 9 || id[4] != ':' || !parse_id(id, &vendor) ||
        !parse_id(id + 5, &device))
        regfile_error(rf, "device: expected NAME VENDOR:DEVICE, e.g. edu 1234:11e8");
    for (size_t i = 0; i < ndescs; i++)
        if (descs[i].vendor == vendor && descs[i].device == device)
            regfile_error(rf, "device %04x:%04x is already described at %s", vendor, device,
                          descs[i].where);
    descs = append(descs, &ndescs, sizeof *descs);
    rf->dev = &descs[ndescs - 1];
    snprintf(rf->dev->name, sizeof rf->dev->name, "%s", name);
    rf->dev->vendor = vendor;
    rf->dev->device = device;
    snprintf(where, sizeof where, "%s:%u", rf->path, rf->line);
    if ((rf->dev->where = strdup(where)) == NULL)
        out_of_memory();
    rf->bar = 0;
}

/* `bar N`: the following registers are in BAR N (0-5). BAR 0 until a `bar` line says. */
static void directive_bar(struct regfile *rf, char *args)
{
    uint64_t bar;
    if (!parse_number(next_word(&args), &bar) || bar > 5)
        regfile_error(rf, "bar: expected a BAR number from 0 to 5");
    rf->bar = (int)bar;
}

/* `reg OFFSET SIZE NAME [description]`: a register of SIZE bytes at OFFSET in the BAR. */
static void directive_reg(struct regfile *rf, char *args)
{
    char *offset_word = next_word(&args), *size_word = next_word(&args);
    char *name = next_word(&args);
    struct device_desc *d = rf->dev;
    uint64_t offset, size;
    struct reg *r;

    if (!parse_number(offset_word, &offset) || !parse_number(size_word, &size) || size == 0 ||
        size > MAX_REG_SIZE || offset >= UINT64_MAX - size)
        regfile_error(rf, "reg: expected OFFSET SIZE NAME, e.g. reg 0x04 4 LIVENESS");
    check_name(rf, name, false);
    for (size_t i = 0; i < d->nregs; i++) {
        const struct reg *o = &d->regs[i];
        if (o->bar == rf->bar && offset < o->offset + o->size && o->offset < offset + size)
            regfile_error(rf, "reg %s overlaps %s in BAR %d", name, o->name, rf->bar);
    }
    d->regs = append(d->regs, &d->nregs, sizeof *d->regs);
    r = &d->regs[d->nregs - 1];
    r->bar = rf->bar;
    r->offset = offset;
    r->size = size;
    snprintf(r->name, sizeof r->name, "%s", name);
}

/* `bits OFFSET BIT[:LOW] NAME [description]`: a named field of the register at OFFSET. */
static void directive_bits(struct regfile *rf, char *args)
{
    char *offset_word = next_word(&args), *bits_word = next_word(&args);
    char *name = next_word(&args), *colon;
    uint64_t offset, hi, lo;
    struct reg *r = NULL;
    struct field *f;

    if (!parse_number(offset_word, &offset) || bits_word == NULL)
        regfile_error(rf, "bits: expected OFFSET BIT NAME or OFFSET HIGH:LOW NAME");
    colon = strchr(bits_word, ':');
    if (colon != NULL)
        *colon = '\0';
    if (!parse_number(bits_word, &hi))
        hi = UINT64_MAX;
    if (colon == NULL)
        lo = hi;
    else if (!parse_number(colon + 1, &lo))
        lo = UINT64_MAX;
    if (hi == UINT64_MAX || lo > hi)
        regfile_error(rf, "bits: expected a bit number or HIGH:LOW, e.g. 7 or 7:4");
    check_name(rf, name, false);
    for (size_t i = 0; i < rf->dev->nregs; i++)
        if (rf->dev->regs[i].bar == rf->bar && rf->dev->regs[i].offset == offset)
            r = &rf->dev->regs[i];
    if (r == NULL)
        regfile_error(rf, "bits: no reg at 0x%" PRIx64 " in BAR %d (write the reg line first)",
                      offset, rf->bar);
    if (r->size > 8 || hi >= 8 * r->size)
        regfile_error(rf, "bits: %s has no bit %" PRIu64, r->name, hi);
    for (size_t i = 0; i < r->nfields; i++)
        if (lo <= r->fields[i].hi && r->fields[i].lo <= hi)
            regfile_error(rf, "bits %s overlaps %s", name, r->fields[i].name);
    r->fields = append(r->fields, &r->nfields, sizeof *r->fields);
    f = &r->fields[r->nfields - 1];
    f->lo = (unsigned)lo;
    f->hi = (unsigned)hi;
    snprintf(f->name, sizeof f->name, "%s", name);
}

/* Reads one REGFILE, line by line; any error ends the program. */
static void load_regfile(const char *path)
{
    struct regfile rf = { path, 0, NULL, 0 };
    FILE *f = fopen(path, "r");
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;

    if (f == NULL) {
        fprintf(stderr, "mmio_annotate: %s: %s\n", path, strerror(errno));
        exit(2);
    }
    while ((n = getline(&line, &cap, f)) >= 0) {
        char *p = line, *word;
        rf.line++;
        while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r'))
            line[--n] = '\0';
        if ((word = next_word(&p)) == NULL || word[0] == '#')
            continue;
        if (strcmp(word, "device") == 0) {
            directive_device(&rf, p);
            continue;
        }
        if (rf.dev == NULL)
            regfile_error(&rf, "%s before the first device line", word);
        if (strcmp(word, "bar") == 0)
            directive_bar(&rf, p);
        else if (strcmp(word, "reg") == 0)
            directive_reg(&rf, p);
        else if (strcmp(word, "bits") == 0)
            directive_bits(&rf, p);
        else
            regfile_error(&rf, "unknown directive %s (device, bar, reg, bits)", word);
    }
    free(line);
    fclose(f);
}

/* ---- what the log says about the machine --------------------------------------------- */

/* The description of a vendor:device, or NULL. */
static const struct device_desc *find_desc(uint16_t vendor, uint16_t device)
{
    for (size_t i = 0; i < ndescs; i++)
        if (descs[i].vendor == vendor && descs[i].device == device)
            return &descs[i];
    return NULL;
}

/* Records a PCIDEV line; a second line for the same bus:dev.fn replaces the first. */
static void learn_pcidev(const struct mmio_pcidev *pci)
{
    struct pci_fn *f = NULL;
    for (size_t i = 0; i < nfns; i++)
        if (fns[i].pci.bus == pci->bus && fns[i].pci.devfn == pci->devfn)
            f = &fns[i];
    if (f == NULL) {
        fns = append(fns, &nfns, sizeof *fns);
        f = &fns[nfns - 1];
    }
    f->pci = *pci;
    f->desc = find_desc(pci->vendor, pci->device);
}

/* The live mapping with this id, or NULL. */
static struct mapping *find_map(uint32_t id)
{
    for (size_t i = 0; i < nmaps; i++)
        if (maps[i].id == id)
            return &maps[i];
    return NULL;
}

/* Records a MAP line (replacing a mapping of the same id) or forgets an UNMAPped one. */
static void learn_map(const struct mmio_record *r)
{
    struct mapping *m = find_map(r->map_id);
    if (r->kind == MMIO_UNMAP) {
        if (m != NULL)
            *m = maps[--nmaps];
        return;
    }
    if (m == NULL) {
        maps = append(maps, &nmaps, sizeof *maps);
        m = &maps[nmaps - 1];
    }
    m->id = r->map_id;
    m->phys = r->phys;
    m->len = r->len;
}

/* ---- comments ------------------------------------------------------------------------ */

/* The comment being built for one line. */
struct comment {
    char text[COMMENT_LEN];
    size_t len;
};

/* Appends printf-formatted text to the comment (cut at COMMENT_LEN - 1 characters). */
static void add(struct comment *c, const char *fmt, ...)
{
    va_list ap;
    int n;
    if (c->len >= sizeof c->text - 1)
        return;
    va_start(ap, fmt);
    n = vsnprintf(c->text + c->len, sizeof c->text - c->len, fmt, ap);
    va_end(ap);
    if (n > 0)
        c->len += (size_t)n < sizeof c->text - c->len ? (size_t)n : sizeof c->text - 1 - c->len;
}

/* Names a device: its description's name or its vendor:device, plus bus:dev.fn if another
 * device of the same kind is in the log. */
static void add_device(struct comment *c, const struct pci_fn *f)
{
    size_t same = 0;
    for (size_t i = 0; i < nfns; i++)
        same += fns[i].pci.vendor == f->pci.vendor && fns[i].pci.device == f->pci.device;
    if (f->desc != NULL)
        add(c, "%s", f->desc->name);
    else
        add(c, "%04x:%04x", f->pci.vendor, f->pci.device);
    if (same > 1)
        add(c, "@%02x:%02x.%x", f->pci.bus, f->pci.devfn >> 3, f->pci.devfn & 7);
}

/* The device whose memory BAR (I/O BAR if io) holds addr (the BAR and the offset in *bar,
 * *offset), or NULL. */
static const struct pci_fn *find_bar(bool io, uint64_t addr, int *bar, uint64_t *offset)
{
    for (size_t i = 0; i < nfns; i++) {
        *bar = io ? mmio_pcidev_io_bar_of(&fns[i].pci, addr, offset)
                  : mmio_pcidev_bar_of(&fns[i].pci, addr, offset);
        if (*bar >= 0)
            return &fns[i];
    }
    return NULL;
}

/* The register of a description that holds this offset of this BAR, or NULL. */
static const struct reg *find_reg(const struct device_desc *d, int bar, uint64_t offset)
{
    for (size_t i = 0; d != NULL && i < d->nregs; i++) {
        const struct reg *r = &d->regs[i];
        if (r->bar == bar && offset >= r->offset && offset - r->offset < r->size)
            return r;
    }
    return NULL;
}

/* The bits lo..hi of a 64-bit word. */
static uint64_t field_mask(const struct field *f)
{
    unsigned bits = f->hi - f->lo + 1;
    return (bits == 64 ? UINT64_MAX : ((uint64_t)1 << bits) - 1) << f->lo;
}

/*
 * Decodes a value of `width` bytes read from or written to the start of a register with
 * fields: " (A|B|WIDE=0x3|0x100)" names each one-bit field that is set, gives each wider
 * field that is not zero its value, and shows the set bits no field covers. Fields beyond
 * the access's width are left out; nothing is added when no bit is set.
 */
static void add_fields(struct comment *c, const struct reg *r, unsigned width, uint64_t value)
{
    uint64_t covered = 0;
    bool any = false;

    if (r->nfields == 0)
        return;
    for (size_t i = 0; i < r->nfields; i++) {
        const struct field *f = &r->fields[i];
        uint64_t mask = field_mask(f);
        if (f->hi >= 8 * width)
            continue;
        covered |= mask;
        if ((value & mask) == 0)
            continue;
        add(c, any ? "|" : " (");
        any = true;
        if (f->hi == f->lo)
            add(c, "%s", f->name);
        else
            add(c, "%s=0x%" PRIx64, f->name, (value & mask) >> f->lo);
    }
    if ((value & ~covered) != 0) {
        add(c, any ? "|0x%" PRIx64 : " (0x%" PRIx64, value & ~covered);
        any = true;
    }
    if (any)
        add(c, ")");
}

/*
 * Says where an access (R, W, UNKNOWN; IN and OUT in I/O BARs) went: "edu BAR0 LIVENESS =
 * 0x12345678" (with the value if has_value), "edu BAR0 STATUS+0x1", "edu BAR0 +0x1c", or
 * "map 3 +0x1c" when only its mapping is known. False if nothing is known about the address.
 */
static bool add_access(struct comment *c, const struct mmio_record *r, bool has_value)
{
    const struct pci_fn *f;
    const struct reg *reg;
    const struct mapping *m;
    uint64_t offset;
    int bar;

    bool port = r->kind == MMIO_IN || r->kind == MMIO_OUT;
    f = find_bar(port, r->phys, &bar, &offset);
    if (f == NULL && port)
        return false;
    if (f == NULL) {
        m = find_map(r->map_id);
        if (m == NULL || r->phys < m->phys || r->phys - m->phys >= m->len)
            return false;
        add(c, "map %" PRIu32 " +0x%" PRIx64, r->map_id, r->phys - m->phys);
        return true;
    }
    add_device(c, f);
    add(c, " BAR%d", bar);
    reg = find_reg(f->desc, bar, offset);
    if (reg == NULL)
        add(c, " +0x%" PRIx64, offset);
    else if (offset != reg->offset)
        add(c, " %s+0x%" PRIx64, reg->name, offset - reg->offset);
    else {
        add(c, " %s", reg->name);
        if (has_value) {
            add(c, " = 0x%" PRIx64, r->value);
            add_fields(c, reg, r->width, r->value);
        }
    }
    return true;
}

/* Says which device and BAR a MAP line maps: "edu BAR0", or "edu BAR0 +0x1000". */
static bool add_mapping(struct comment *c, const struct mmio_record *r)
{
    uint64_t offset;
    int bar;
    const struct pci_fn *f = find_bar(false, r->phys, &bar, &offset);
    if (f == NULL)
        return false;
    add_device(c, f);
    add(c, " BAR%d", bar);
    if (offset != 0)
        add(c, " +0x%" PRIx64, offset);
    return true;
}

/*
 * Writes a log line: unchanged if comment is NULL; otherwise without its trailing blanks,
 * followed by "  # comment" and the line's own ending ("\n", "\r\n" or none).
 */
static void emit(const char *line, size_t len, const struct comment *comment)
{
    size_t body, ending;
    if (comment == NULL) {
        fwrite(line, 1, len, stdout);
        return;
    }
    ending = len;
    while (ending > 0 && (line[ending - 1] == '\n' || line[ending - 1] == '\r'))
        ending--;
    body = ending;
    while (body > 0 && (line[body - 1] == ' ' || line[body - 1] == '\t'))
        body--;
    fwrite(line, 1, body, stdout);
    printf("  # %s", comment->text);
    fwrite(line + ending, 1, len - ending, stdout);
}

/* Learns from one log line and writes it, with a comment when there is one to add. */
static void annotate_line(const char *line, size_t len, const struct mmio_record *r)
{
    struct comment c = { .len = 0 };
    bool commented = false;

    c.text[0] = '\0';
    switch (r->kind) {
    case MMIO_PCIDEV:
        learn_pcidev(&r->pci);
        break;
    case MMIO_MAP:
        learn_map(r);
        commented = add_mapping(&c, r);
        break;
    case MMIO_UNMAP:
        learn_map(r);
        break;
    case MMIO_READ:
    case MMIO_WRITE:
    case MMIO_IN:
    case MMIO_OUT:
        commented = add_access(&c, r, true);
        break;
    case MMIO_UNKNOWN:
        commented = add_access(&c, r, false);
        break;
    default:
        break;
    }
    emit(line, len, commented ? &c : NULL);
}

int main(int argc, char **argv)
{
    struct mmio_record rec;
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    unsigned long number = 0, malformed = 0;

    for (int i = 1; i < argc; i++) {
        if (argv[i][0] == '-') {
            fprintf(stderr, "usage: mmio_annotate [REGFILE...] < LOG > ANNOTATED\n");
            return 2;
        }
        load_regfile(argv[i]);
    }
    while ((n = getline(&line, &cap, stdin)) >= 0) {
        number++;
        if (mmio_log_parse_line(line, (size_t)n, &rec) < 0) {
            fprintf(stderr, "mmio_annotate: line %lu: %s\n", number, rec.error);
            malformed++;
            emit(line, (size_t)n, NULL);
            continue;
        }
        annotate_line(line, (size_t)n, &rec);
    }
    free(line);
    if (ferror(stdin) || fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "mmio_annotate: %s\n", strerror(errno));
        return 2;
    }
    if (malformed > 0)
        fprintf(stderr, "mmio_annotate: %lu malformed line%s passed through unchanged\n",
                malformed, malformed == 1 ? "" : "s");
    return malformed > 0 ? 1 : 0;
}
