/*
 * fuzz_elf.c - kernel/proc/elf.c on arbitrary bytes.
 *
 * Besides what ASan/UBSan catch, checks the promises the loader relies on and aborts when
 * one breaks: an accepted image has 1..ELF_MAX_SEGMENTS segments, each inside the file and
 * inside [LO, HI) without wrapping, at an address that agrees with its file offset modulo
 * the page size and below the image's end, filesz <= memsz, no two touching the same page,
 * and the entry inside an executable one; a rejected image gives -ENOEXEC and a reason.
 */
#include <stdint.h>
#include <stdlib.h>

#include "kernel/proc/elf.h"
#include "kernel/lib/errno.h"

#define LO 0x00010000u
#define HI 0xbf700000u

static void check_segment(const struct elf_segment *s, size_t size, uint32_t end)
{
    if ((s->offset - s->vaddr) % 4096 != 0 || (uint64_t)s->vaddr + s->memsz > end)
        abort();
    if (s->filesz > s->memsz || s->memsz == 0)
        abort();
    if ((uint64_t)s->offset + s->filesz > size)
        abort();
    if (s->vaddr < LO || (uint64_t)s->vaddr + s->memsz > HI)
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct elf_image img;
    const char *why = 0;
    int err = elf_parse(data, (uint32_t)size, LO, HI, &img, &why);
    if (err != 0) {
        if (err != -ENOEXEC || why == 0)
            abort();
        return 0;
    }
    if (img.nsegments < 1 || img.nsegments > ELF_MAX_SEGMENTS)
        abort();
    int entry_ok = 0;
    for (int i = 0; i < img.nsegments; i++) {
        const struct elf_segment *s = &img.seg[i];
        check_segment(s, size, img.end);
        if (s->executable && img.entry >= s->vaddr && img.entry - s->vaddr < s->memsz)
            entry_ok = 1;
        for (int j = 0; j < i; j++) {
            const struct elf_segment *t = &img.seg[j];
            if (s->vaddr / 4096 <= (t->vaddr + t->memsz - 1) / 4096 &&
                t->vaddr / 4096 <= (s->vaddr + s->memsz - 1) / 4096)
                abort();
        }
    }
    if (!entry_ok)
        abort();
    return 0;
}
