/* test_uprobe_elf.c - where a uprobe's file offset lands, checked on the real
 * build/user/uprobe_target (read only, never run) against nm's addresses: add_pair's first
 * byte and the lea at uprobe_mid are probe points at those addresses; one byte into the lea
 * is off an instruction boundary (EILSEQ); the data segment and offsets past the file or
 * past the text's file bytes are EINVAL; @+OFFSET's address works for the data segment too;
 * a file that is not an ELF is ENOEXEC. */
#include "unit.h"

#include <stdio.h>
#include <stdlib.h>

#include "kernel/lib/errno.h"
#include "trace/uprobes/uprobe_elf.h"

#define TARGET "build/user/uprobe_target"
#define TEXT_BASE 0x08048000u /* user/user.ld: the text segment maps the file from offset 0 */

static unsigned char *image;
static uint32_t image_len;

static void load_target(void)
{
    if (image)
        return;
    FILE *f = fopen(TARGET, "rb");
    if (!f) {
        fprintf(stderr, "  %s missing: build the user programs first\n", TARGET);
        exit(1);
    }
    static unsigned char buf[1 << 20];
    image_len = (uint32_t)fread(buf, 1, sizeof buf, f);
    fclose(f);
    image = buf;
}

/* nm's address of a symbol of the target (0 if none). */
static uint32_t nm_address(const char *symbol)
{
    char cmd[160], line[256];
    snprintf(cmd, sizeof cmd, "nm %s", TARGET);
    FILE *p = popen(cmd, "r");
    uint32_t found = 0;
    while (p && fgets(line, sizeof line, p)) {
        unsigned long addr;
        char kind, name[128];
        if (sscanf(line, "%lx %c %127s", &addr, &kind, name) == 3 && strcmp(name, symbol) == 0)
            found = (uint32_t)addr;
    }
    if (p)
        pclose(p);
    return found;
}

TEST(entry_and_middle_are_probe_points)
{
    load_target();
    uint32_t entry = nm_address("add_pair"), mid = nm_address("uprobe_mid"), vaddr = 0;
    const char *why = 0;
    CHECK(entry > TEXT_BASE && mid > entry);
    CHECK_EQ_INT(uprobe_elf_check(image, image_len, entry - TEXT_BASE, &vaddr, &why), 0);
    CHECK_EQ_INT(vaddr, entry);
    CHECK_EQ_INT(uprobe_elf_check(image, image_len, mid - TEXT_BASE, &vaddr, &why), 0);
    CHECK_EQ_INT(vaddr, mid);
}

TEST(inside_an_instruction_is_eilseq)
{
    load_target();
    uint32_t mid = nm_address("uprobe_mid"), vaddr;
    const char *why = 0;
    /* uprobe_mid is a 3-byte lea (8d 0c 10): one byte in is no instruction's start. */
    CHECK_EQ_INT(uprobe_elf_check(image, image_len, mid - TEXT_BASE + 1, &vaddr, &why), -EILSEQ);
    CHECK_EQ_STR(why, "Probe point is not an instruction boundary");
}

TEST(outside_the_text_is_einval)
{
    load_target();
    uint32_t data = nm_address("uprobe_data"), vaddr;
    const char *why = 0;
    CHECK(data != 0);
    /* The data segment starts on a page: its file offset is the address's page offset
     * plus the segment's, found through uprobe_elf_address (any segment). */
    uint32_t off = 0;
    for (; off < image_len; off += 4096) {
        uint32_t a;
        if (uprobe_elf_address(image, image_len, off, false, &a, &why) == 0 &&
            (a & ~4095u) == (data & ~4095u))
            break;
    }
    CHECK(off < image_len);
    off += data & 4095u;
    CHECK_EQ_INT(uprobe_elf_address(image, image_len, off, false, &vaddr, &why), 0);
    CHECK_EQ_INT(vaddr, data); /* @+OFFSET reads data */
    CHECK_EQ_INT(uprobe_elf_check(image, image_len, off, &vaddr, &why), -EINVAL);
    CHECK_EQ_STR(why, "Invalid uprobe offset");
    CHECK_EQ_INT(uprobe_elf_check(image, image_len, image_len, &vaddr, &why), -EINVAL);
    CHECK_EQ_INT(uprobe_elf_check(image, image_len, 0xffffffffu, &vaddr, &why), -EINVAL);
    CHECK_EQ_INT(uprobe_elf_address(image, image_len, image_len + 10, false, &vaddr, &why),
                 -EINVAL);
}

TEST(not_an_elf_is_enoexec)
{
    static const unsigned char junk[64] = "#!/bin/sh\n";
    uint32_t vaddr;
    const char *why = 0;
    CHECK_EQ_INT(uprobe_elf_check(junk, sizeof junk, 0, &vaddr, &why), -ENOEXEC);
    CHECK_EQ_INT(uprobe_elf_check(junk, 3, 0, &vaddr, &why), -ENOEXEC);
}

TEST(a_truncated_file_is_never_read_past)
{
    load_target();
    /* Every prefix of the file: any answer, but ASan sees no read past the copy. */
    uint32_t entry = nm_address("add_pair") - TEXT_BASE;
    for (uint32_t len = 0; len < image_len; len += len < 512 ? 1 : 97) {
        unsigned char *copy = malloc(len ? len : 1);
        memcpy(copy, image, len);
        uint32_t vaddr;
        const char *why = 0;
        int ret = uprobe_elf_check(copy, len, entry, &vaddr, &why);
        CHECK(ret == 0 || ret == -EINVAL || ret == -EILSEQ || ret == -ENOEXEC);
        free(copy);
    }
}
