/*
 * elf.c - reads an ELF32 header and program header table without trusting any of it, and
 * places the image (ET_EXEC where linked, ET_DYN at ELF_ET_DYN_BASE).
 */
#include "kernel/proc/elf.h"

#include "kernel/lib/errno.h"
#include "kernel/lib/string.h"

#define EHDR_SIZE 52
#define PHDR_SIZE 32
#define ET_EXEC 2
#define ET_DYN 3
#define EM_386 3
#define PT_LOAD 1
#define PT_INTERP 3
#define PF_X 1
#define PF_W 2
#define PAGE 4096u

/* Little-endian fields at byte offsets, read without alignment assumptions. */
static uint32_t get32(const uint8_t *p) { return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24; }
static uint16_t get16(const uint8_t *p) { return (uint16_t)(p[0] | p[1] << 8); }

/* [start, start+size) fits in [lo, hi) without wrapping around. */
static bool range_within(uint32_t start, uint32_t size, uint32_t lo, uint32_t hi)
{
    return start >= lo && start <= hi && size <= hi - start;
}

static int reject(const char **why, const char *reason)
{
    *why = reason;
    return -ENOEXEC;
}

/* Checks one PT_LOAD entry and fills seg from it, placed bias higher. */
static int parse_segment(const uint8_t *ph, uint32_t len, uint32_t lo, uint32_t hi,
                         uint32_t bias, struct elf_segment *seg, const char **why)
{
    seg->offset = get32(ph + 4);
    uint32_t linked = get32(ph + 8);
    seg->vaddr = linked + bias;
    seg->filesz = get32(ph + 16);
    seg->memsz = get32(ph + 20);
    uint32_t flags = get32(ph + 24);
    seg->writable = flags & PF_W;
    seg->executable = flags & PF_X;
    if (seg->memsz == 0 || seg->filesz > seg->memsz)
        return reject(why, "segment sizes are inconsistent");
    if (!range_within(seg->offset, seg->filesz, 0, len))
        return reject(why, "segment data lies outside the file");
    if ((seg->offset - linked) % PAGE)
        return reject(why, "segment offset and address differ modulo the page size");
    if (!range_within(seg->vaddr, seg->memsz, lo, hi))
        return reject(why, "segment lies outside user memory");
    return 0;
}

/* The load bias: 0 for ET_EXEC; for ET_DYN, what puts the first PT_LOAD's page at
 * ELF_ET_DYN_BASE (Linux's load_bias, without randomisation). Also refuses PT_INTERP. */
static int choose_bias(const uint8_t *p, uint32_t phoff, uint16_t phnum, bool dyn,
                       uint32_t *bias, const char **why)
{
    bool first = true;
    *bias = 0;
    for (uint32_t i = 0; i < phnum; i++) {
        const uint8_t *ph = p + phoff + i * PHDR_SIZE;
        if (get32(ph) == PT_INTERP)
            return reject(why, "dynamically linked (PT_INTERP): only static programs run here");
        if (get32(ph) == PT_LOAD && first && dyn) {
            *bias = ELF_ET_DYN_BASE - (get32(ph + 8) & ~(PAGE - 1));
            first = false;
        }
    }
    return 0;
}

/* AT_PHDR: the program headers' address in memory, found through the loadable segment
 * whose file bytes hold them (or, as Linux does when none does, through the first one). */
static uint32_t phdr_address(const struct elf_image *img, uint32_t phoff, uint32_t size)
{
    for (int i = 0; i < img->nsegments; i++) {
        const struct elf_segment *s = &img->seg[i];
        if (phoff >= s->offset && phoff - s->offset <= s->filesz &&
            size <= s->filesz - (phoff - s->offset))
            return s->vaddr + (phoff - s->offset);
    }
    return img->nsegments ? img->seg[0].vaddr - img->seg[0].offset + phoff : 0;
}

/* True when two segments touch a common page (they would need different rights). */
static bool segments_share_page(const struct elf_segment *a, const struct elf_segment *b)
{
    uint32_t a_first = a->vaddr / PAGE, a_last = (a->vaddr + a->memsz - 1) / PAGE;
    uint32_t b_first = b->vaddr / PAGE, b_last = (b->vaddr + b->memsz - 1) / PAGE;
    return a_first <= b_last && b_first <= a_last;
}

int elf_parse(const void *data, uint32_t len, uint32_t lo, uint32_t hi,
              struct elf_image *out, const char **why)
{
    const uint8_t *p = data;
    memset(out, 0, sizeof *out);
    if (len < EHDR_SIZE || memcmp(p, "\177ELF", 4) != 0)
        return reject(why, "not an ELF file");
    if (p[4] != 1 || p[5] != 1 || p[6] != 1)
        return reject(why, "not a 32-bit little-endian ELF file of version 1");
    uint16_t type = get16(p + 16);
    if ((type != ET_EXEC && type != ET_DYN) || get16(p + 18) != EM_386)
        return reject(why, "not an i386 executable");
    uint32_t phoff = get32(p + 28);
    uint16_t phentsize = get16(p + 42), phnum = get16(p + 44);
    if (phentsize != PHDR_SIZE || phnum == 0 ||
        !range_within(phoff, (uint32_t)phnum * PHDR_SIZE, 0, len))
        return reject(why, "bad program header table");
    uint32_t bias;
    int err = choose_bias(p, phoff, phnum, type == ET_DYN, &bias, why);
    if (err)
        return err;
    out->load_bias = bias;
    out->phnum = phnum;
    for (uint32_t i = 0; i < phnum; i++) {
        const uint8_t *ph = p + phoff + i * PHDR_SIZE;
        if (get32(ph) != PT_LOAD)
            continue;
        if (out->nsegments == ELF_MAX_SEGMENTS)
            return reject(why, "too many loadable segments");
        struct elf_segment *seg = &out->seg[out->nsegments];
        err = parse_segment(ph, len, lo, hi, bias, seg, why);
        if (err)
            return err;
        if (seg->vaddr + seg->memsz > out->end)
            out->end = seg->vaddr + seg->memsz;
        for (int j = 0; j < out->nsegments; j++)
            if (segments_share_page(seg, &out->seg[j]))
                return reject(why, "segments share a page");
        out->nsegments++;
    }
    out->entry = get32(p + 24) + bias;
    out->phdr_addr = phdr_address(out, phoff, (uint32_t)phnum * PHDR_SIZE);
    for (int i = 0; i < out->nsegments; i++) {
        const struct elf_segment *s = &out->seg[i];
        if (s->executable && out->entry >= s->vaddr && out->entry - s->vaddr < s->memsz)
            return 0;
    }
    return reject(why, "entry point is not in an executable segment");
}
