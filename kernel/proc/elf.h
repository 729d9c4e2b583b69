/*
 * elf.h - checking an ELF executable before loading it.
 *
 * The images come from outside (boot modules), so every number in them is checked before
 * the loader trusts it: the file is a 32-bit little-endian i386 static executable, either
 * ET_EXEC (loaded at its own addresses) or ET_DYN without PT_INTERP (static-pie: loaded at
 * ELF_ET_DYN_BASE, as Linux does for ia32, and never at a random place: there is no
 * address randomisation here); every loadable segment lies inside the file and, once
 * placed, inside the user address range, its file offset and address agree modulo the page
 * size (so a file page maps to a memory page, as Linux's mmap of the file needs), segments
 * do not share pages, and the entry point is in an executable segment. A dynamically linked
 * program (PT_INTERP) is refused: there is no dynamic loader. Portable: tested and fuzzed on
 * the host (tests/unit/test_elf.c, tests/fuzz/fuzz_elf.c).
 */
#ifndef KERNEL_PROC_ELF_H
#define KERNEL_PROC_ELF_H

#include <stdbool.h>
#include <stdint.h>

#define ELF_MAX_SEGMENTS 8
/* Where a static-pie (ET_DYN) image's first page goes: Linux's ELF_ET_DYN_BASE for ia32. */
#define ELF_ET_DYN_BASE 0x400000u

struct elf_segment {
    uint32_t vaddr, memsz;  /* where it goes (load bias added), and how big it is there */
    uint32_t offset, filesz; /* what of the file it holds; the rest is zero */
    bool writable, executable;
};

struct elf_image {
    uint32_t entry;          /* load bias added */
    uint32_t load_bias;      /* 0 for ET_EXEC; added to every address of an ET_DYN image */
    uint32_t phdr_addr;      /* where the program headers are in memory (AT_PHDR) */
    uint16_t phnum;          /* how many (AT_PHNUM) */
    uint32_t end;            /* one past the highest byte of any segment: brk starts above */
    int nsegments;
    struct elf_segment seg[ELF_MAX_SEGMENTS];
};

/* Checks the image and lists its loadable segments, which must lie in [lo, hi) once
 * placed. Returns 0, or -ENOEXEC with *why set to a short reason ("not an ELF file", ...). */
int elf_parse(const void *data, uint32_t len, uint32_t lo, uint32_t hi,
              struct elf_image *out, const char **why);

#endif
