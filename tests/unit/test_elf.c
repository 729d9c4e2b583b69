/*
 * test_elf.c - kernel/proc/elf.c: what it accepts, and every way an image is refused.
 */
#include <stdint.h>
#include <string.h>

#include "kernel/proc/elf.h"
#include "kernel/lib/errno.h"
#include "unit.h"

#define LO 0x08048000u
#define HI 0xbf700000u

/* A minimal valid image: ELF header, two program headers (text r-x, data rw-), some bytes. */
static uint8_t image[4096];

static void put32(uint32_t off, uint32_t v) { memcpy(image + off, &v, 4); }
static void put16(uint32_t off, uint16_t v) { memcpy(image + off, &v, 2); }

/* Program header i: type, file offset, address, sizes, flags. */
static void put_phdr(int i, uint32_t type, uint32_t off, uint32_t va, uint32_t filesz,
                     uint32_t memsz, uint32_t flags)
{
    uint32_t p = 52 + 32 * i;
    put32(p, type);
    put32(p + 4, off);
    put32(p + 8, va);
    put32(p + 12, va);
    put32(p + 16, filesz);
    put32(p + 20, memsz);
    put32(p + 24, flags);
    put32(p + 28, 0x1000);
}

static void build_valid(void)
{
    memset(image, 0, sizeof image);
    memcpy(image, "\177ELF\1\1\1", 7);
    put16(16, 2);   /* ET_EXEC */
    put16(18, 3);   /* EM_386 */
    put32(20, 1);
    put32(24, LO + 0x100); /* entry */
    put32(28, 52);  /* phoff */
    put16(40, 52);
    put16(42, 32);
    put16(44, 2);
    put_phdr(0, 1, 0, LO, 0x200, 0x200, 5);            /* r-x */
    put_phdr(1, 1, 0x200, LO + 0x1200, 0x100, 0x3000, 6); /* rw-, with bss */
}

static int parse(uint32_t len, struct elf_image *img, const char **why)
{
    return elf_parse(image, len, LO, HI, img, why);
}

TEST(accepts_a_valid_image)
{
    build_valid();
    struct elf_image img;
    const char *why = 0;
    CHECK_EQ_INT(parse(0x300, &img, &why), 0);
    CHECK_EQ_INT(img.entry, LO + 0x100);
    CHECK_EQ_INT(img.nsegments, 2);
    CHECK(img.seg[0].executable && !img.seg[0].writable);
    CHECK(img.seg[1].writable && !img.seg[1].executable);
    CHECK_EQ_INT(img.seg[1].memsz, 0x3000);
    CHECK_EQ_INT(img.seg[1].filesz, 0x100);
}

TEST(skips_segments_that_are_not_loadable)
{
    build_valid();
    put_phdr(1, 4 /* PT_NOTE */, 0xffffff00, 0, 0x1000, 0, 0);
    struct elf_image img;
    const char *why;
    CHECK_EQ_INT(parse(0x300, &img, &why), 0);
    CHECK_EQ_INT(img.nsegments, 1);
}

/* Breaks one thing of the valid image and expects -ENOEXEC with the reason given. */
static void expect_reject(uint32_t len, const char *reason)
{
    struct elf_image img;
    const char *why = 0;
    CHECK_EQ_INT(parse(len, &img, &why), -ENOEXEC);
    CHECK(why && strcmp(why, reason) == 0);
}

TEST(rejects_short_files_and_wrong_magic)
{
    build_valid();
    expect_reject(51, "not an ELF file");
    image[1] = 'X';
    expect_reject(0x300, "not an ELF file");
}

TEST(rejects_other_classes_machines_and_types)
{
    build_valid();
    image[4] = 2; /* 64-bit */
    expect_reject(0x300, "not a 32-bit little-endian ELF file of version 1");
    build_valid();
    image[5] = 2; /* big-endian */
    expect_reject(0x300, "not a 32-bit little-endian ELF file of version 1");
    build_valid();
    put16(18, 62); /* x86-64 */
    expect_reject(0x300, "not an i386 executable");
    build_valid();
    put16(16, 1); /* ET_REL */
    expect_reject(0x300, "not an i386 executable");
    build_valid();
    put16(16, 4); /* ET_CORE */
    expect_reject(0x300, "not an i386 executable");
}

TEST(rejects_bad_program_header_tables)
{
    build_valid();
    put16(42, 40);
    expect_reject(0x300, "bad program header table");
    build_valid();
    put16(44, 0);
    expect_reject(0x300, "bad program header table");
    build_valid();
    put32(28, 0xffffffe0); /* phoff + size wraps around */
    expect_reject(0x300, "bad program header table");
    build_valid();
    expect_reject(100, "bad program header table"); /* table cut off by the file's end */
}

TEST(rejects_segments_outside_the_file)
{
    build_valid();
    put_phdr(1, 1, 0x2f0, LO + 0x12f0, 0x100, 0x100, 6);
    expect_reject(0x300, "segment data lies outside the file");
    build_valid();
    put_phdr(1, 1, 0xffffff00, LO + 0x1000, 0x200, 0x200, 6); /* offset + size wraps */
    expect_reject(0x300, "segment data lies outside the file");
}

TEST(rejects_segments_outside_user_memory)
{
    build_valid();
    put_phdr(1, 1, 0x200, 0xc0100200, 0x100, 0x100, 6); /* kernel memory */
    expect_reject(0x300, "segment lies outside user memory");
    build_valid();
    put_phdr(1, 1, 0x200, 0x200, 0x100, 0x100, 6); /* the null page */
    expect_reject(0x300, "segment lies outside user memory");
    build_valid();
    put_phdr(1, 1, 0x200, HI - 0xe00, 0x10, 0x1000, 6); /* runs past the top */
    expect_reject(0x300, "segment lies outside user memory");
    build_valid();
    put_phdr(1, 1, 0x200, 0xfffff200, 0x10, 0x2000, 6); /* wraps around */
    expect_reject(0x300, "segment lies outside user memory");
}

TEST(rejects_inconsistent_sizes_and_shared_pages)
{
    build_valid();
    put_phdr(1, 1, 0x200, LO + 0x1200, 0x100, 0x80, 6);
    expect_reject(0x300, "segment sizes are inconsistent");
    build_valid();
    put_phdr(1, 1, 0x200, LO + 0x1200, 0, 0, 6);
    expect_reject(0x300, "segment sizes are inconsistent");
    build_valid();
    put_phdr(1, 1, 0x200, LO + 0x200, 0x10, 0x10, 6); /* same page as the text */
    expect_reject(0x300, "segments share a page");
}

TEST(rejects_an_entry_outside_executable_code)
{
    build_valid();
    put32(24, LO + 0x1200); /* in the data segment */
    expect_reject(0x300, "entry point is not in an executable segment");
    build_valid();
    put32(24, LO + 0x200); /* just past the text */
    expect_reject(0x300, "entry point is not in an executable segment");
}

TEST(rejects_too_many_segments)
{
    build_valid();
    put16(44, ELF_MAX_SEGMENTS + 1);
    for (int i = 0; i <= ELF_MAX_SEGMENTS; i++)
        put_phdr(i, 1, 0, LO + 0x1000u * (uint32_t)i, 0x10, 0x10, 5);
    expect_reject(0x400, "too many loadable segments");
}

TEST(rejects_offsets_that_disagree_with_addresses_modulo_the_page)
{
    build_valid();
    put_phdr(1, 1, 0x200, LO + 0x1000, 0x100, 0x100, 6); /* offset 0x200 at page offset 0 */
    expect_reject(0x300, "segment offset and address differ modulo the page size");
}

TEST(refuses_dynamically_linked_programs)
{
    build_valid();
    put16(44, 3);
    put_phdr(2, 3 /* PT_INTERP */, 0x100, 0, 0x10, 0x10, 4);
    expect_reject(0x300, "dynamically linked (PT_INTERP): only static programs run here");
}

TEST(places_static_pie_at_elf_et_dyn_base)
{
    build_valid();
    put16(16, 3); /* ET_DYN, linked at 0 */
    put32(24, 0x100);
    put_phdr(0, 1, 0, 0, 0x200, 0x200, 5);
    put_phdr(1, 1, 0x200, 0x1200, 0x100, 0x3000, 6);
    struct elf_image img;
    const char *why = 0;
    CHECK_EQ_INT(elf_parse(image, 0x300, 0x10000, HI, &img, &why), 0);
    CHECK_EQ_INT(img.load_bias, ELF_ET_DYN_BASE);
    CHECK_EQ_INT(img.entry, ELF_ET_DYN_BASE + 0x100);
    CHECK_EQ_INT(img.seg[1].vaddr, ELF_ET_DYN_BASE + 0x1200);
    CHECK_EQ_INT(img.end, ELF_ET_DYN_BASE + 0x4200);
    CHECK_EQ_INT(img.phdr_addr, ELF_ET_DYN_BASE + 52); /* inside the first segment */
    CHECK_EQ_INT(img.phnum, 2);
}

TEST(reports_where_an_executables_headers_are)
{
    build_valid();
    struct elf_image img;
    const char *why = 0;
    CHECK_EQ_INT(parse(0x300, &img, &why), 0);
    CHECK_EQ_INT(img.load_bias, 0);
    CHECK_EQ_INT(img.phdr_addr, LO + 52);
    CHECK_EQ_INT(img.end, LO + 0x4200);
}
