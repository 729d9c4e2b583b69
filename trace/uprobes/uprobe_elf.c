/*
 * uprobe_elf.c - a uprobe's file offset checked against the program's segments, symbol
 * table and instructions (uprobe_elf.h).
 */
#include "trace/uprobes/uprobe_elf.h"

#include "kernel/arch.h"
#include "kernel/lib/errno.h"
#include "kernel/proc/elf.h"
#include "kernel/proc/exec.h"

#define SHDR_SIZE 40
#define SYM_SIZE 16
#define SHT_SYMTAB 2
#define STT_FUNC 2

static uint32_t get32(const uint8_t *p)
{
    return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}
static uint16_t get16(const uint8_t *p) { return (uint16_t)(p[0] | p[1] << 8); }

/* The loadable segment whose file bytes hold offset (an executable one if asked), or NULL. */
static const struct elf_segment *segment_of(const struct elf_image *img, uint32_t offset,
                                            bool executable)
{
    for (int i = 0; i < img->nsegments; i++) {
        const struct elf_segment *s = &img->seg[i];
        if (offset >= s->offset && offset - s->offset < s->filesz &&
            (!executable || s->executable))
            return s;
    }
    return 0;
}

int uprobe_elf_address(const void *image, uint32_t len, uint32_t offset, bool executable,
                       uint32_t *vaddr, const char **why)
{
    struct elf_image img;
    int err = elf_parse(image, len, USER_BASE, USER_IMAGE_TOP, &img, why);
    if (err)
        return err;
    const struct elf_segment *s = segment_of(&img, offset, executable);
    if (!s) {
        *why = "Invalid uprobe offset";
        return -EINVAL;
    }
    *vaddr = s->vaddr + (offset - s->offset);
    return 0;
}

/* The STT_FUNC symbol of .symtab whose [value, value + size) holds vaddr: true with *start
 * and *size (an address and bytes) set. Symbols' values are the linked addresses: bias is
 * added (a static-pie's). */
static bool function_of(const uint8_t *p, uint32_t len, uint32_t bias, uint32_t vaddr,
                        uint32_t *start, uint32_t *size)
{
    uint32_t shoff = get32(p + 32);
    uint16_t shentsize = get16(p + 46), shnum = get16(p + 48);
    if (shentsize != SHDR_SIZE || shoff > len || (uint32_t)shnum * SHDR_SIZE > len - shoff)
        return false;
    for (uint32_t i = 0; i < shnum; i++) {
        const uint8_t *sh = p + shoff + i * SHDR_SIZE;
        if (get32(sh + 4) != SHT_SYMTAB)
            continue;
        uint32_t off = get32(sh + 16), bytes = get32(sh + 20);
        if (off > len || bytes > len - off)
            return false;
        for (uint32_t at = off; bytes - (at - off) >= SYM_SIZE; at += SYM_SIZE) {
            const uint8_t *sym = p + at;
            uint32_t value = get32(sym + 4) + bias, sz = get32(sym + 8);
            if ((sym[12] & 0xf) == STT_FUNC && sz > 0 && vaddr >= value && vaddr - value < sz) {
                *start = value;
                *size = sz;
                return true;
            }
        }
    }
    return false;
}

int uprobe_elf_check(const void *image, uint32_t len, uint32_t offset, uint32_t *vaddr,
                     const char **why)
{
    const uint8_t *p = image;
    struct elf_image img;
    int err = elf_parse(image, len, USER_BASE, USER_IMAGE_TOP, &img, why);
    if (err)
        return err;
    const struct elf_segment *s = segment_of(&img, offset, true);
    if (!s) {
        *why = "Invalid uprobe offset";
        return -EINVAL;
    }
    *vaddr = s->vaddr + (offset - s->offset);
    uint32_t seg_end = s->offset + s->filesz; /* the instruction must lie in the segment */
    uint32_t start, size;
    if (function_of(p, len, img.load_bias, *vaddr, &start, &size) && start >= s->vaddr) {
        uint32_t func_off = s->offset + (start - s->vaddr);
        if (func_off < seg_end && size > seg_end - func_off)
            size = seg_end - func_off;
        int b = func_off < seg_end ? insn_boundary(p + func_off, size, offset - func_off) : -2;
        if (b == -1) {
            *why = "Probe point is not an instruction boundary";
            return -EILSEQ;
        }
        if (b != 0) {
            *why = "An instruction before it cannot be decoded";
            return -EINVAL;
        }
    }
    struct insn in;
    uint32_t avail = seg_end - offset < INSN_MAX ? seg_end - offset : INSN_MAX;
    if (insn_decode(p + offset, avail, &in) != 0) {
        *why = "The instruction cannot be decoded";
        return -EINVAL;
    }
    *why = insn_kprobe_refusal(&in);
    return *why ? -EINVAL : 0;
}
