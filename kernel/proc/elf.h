/*
 * elf.h - checking an ELF executable before loading it.
 *
 * The images come from outside (boot modules), so every number in them is checked before
 * the loader trusts it: the file is a 32-bit little-endian i386 executable, every loadable
 * segment lies inside the file and inside the user address range, segments do not share
 * pages, and the entry point is in an executable segment. Portable: tested and fuzzed on
 * the host (tests/unit/test_elf.c, tests/fuzz/fuzz_elf.c).
 */
#ifndef KERNEL_PROC_ELF_H
#define KERNEL_PROC_ELF_H

#include <stdbool.h>
#include <stdint.h>

#define ELF_MAX_SEGMENTS 8

struct elf_segment {
    uint32_t vaddr, memsz;  /* where it goes, and how big it is there */
    uint32_t offset, filesz; /* what of the file it holds; the rest is zero */
    bool writable, executable;
};

struct elf_image {
    uint32_t entry;
    int nsegments;
    struct elf_segment seg[ELF_MAX_SEGMENTS];
};

/* Checks the image and lists its loadable segments, which must lie in [lo, hi).
 * Returns 0, or -ENOEXEC with *why set to a short reason ("not an ELF file", ...). */
int elf_parse(const void *data, uint32_t len, uint32_t lo, uint32_t hi,
              struct elf_image *out, const char **why);

#endif
