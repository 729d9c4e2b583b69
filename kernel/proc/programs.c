/*
 * programs.c - the table of user programs, and /bin, which shows it.
 */
#include "kernel/proc/programs.h"

#include "kernel/proc/elf.h"
#include "kernel/proc/exec.h"
#include "kernel/mm/heap.h"
#include "kernel/log/printk.h"
#include "kernel/lib/string.h"
#include "kernel/fs/fs_tree.h"
#include "uapi/syscall.h"

static struct program *programs;

bool program_is_elf(const void *data, uint32_t len)
{
    return len >= 4 && memcmp(data, "\177ELF", 4) == 0;
}

const struct program *program_find(const char *name)
{
    for (const struct program *p = programs; p; p = p->next)
        if (strcmp(p->name, name) == 0)
            return p;
    return 0;
}

const struct program *program_list(void) { return programs; }

/* The operating-system ABI byte of an ELF header (e_ident[EI_OSABI]), as file(1) names it. */
static const char *osabi_name(uint8_t osabi)
{
    switch (osabi) {
    case 0: return "SYSV";
    case 3: return "GNU/Linux";
    default: return 0;
    }
}

void program_describe(const struct program *p, struct fs_writer *out)
{
    struct elf_image img;
    const char *why;
    if (elf_parse(p->image, p->size, USER_BASE, USER_IMAGE_TOP, &img, &why) != 0) {
        fs_printf(out, "%s, %u bytes, not loadable: %s\n",
                  program_is_elf(p->image, p->size) ? "ELF" : "data", p->size, why);
        return;
    }
    /* elf_parse checked the header: it is all there, 32-bit little-endian i386. */
    const uint8_t *ident = p->image;
    const char *abi = osabi_name(ident[7]);
    fs_printf(out, "ELF 32-bit LSB %s, Intel 80386, version %u (", img.load_bias ? "pie executable" : "executable",
              ident[6]);
    if (abi)
        fs_puts(out, abi);
    else
        fs_printf(out, "OS/ABI %u", ident[7]);
    fs_printf(out, "), %s\n", img.load_bias ? "static-pie linked" : "statically linked");
    fs_printf(out, "  %u bytes, entry %#x", p->size, img.entry);
    if (img.load_bias)
        fs_printf(out, ", loaded at ELF_ET_DYN_BASE %#x", img.load_bias);
    fs_puts(out, "\n");
    for (int i = 0; i < img.nsegments; i++)
        fs_printf(out, "  LOAD %#010x %6u bytes (%u from the file) %c%c%c\n", img.seg[i].vaddr,
                  img.seg[i].memsz, img.seg[i].filesz, 'r', img.seg[i].writable ? 'w' : '-',
                  img.seg[i].executable ? 'x' : '-');
}

/* /bin/NAME reads as the image itself, byte for byte, as the program's file on Linux. */
static const void *program_bytes(struct fs_node *file, uint32_t *size)
{
    const struct program *p = file->data;
    *size = p->size;
    return p->image;
}

static const struct fs_file_ops program_ops = { .bytes = program_bytes };

const struct program *program_of_node(const struct fs_node *node)
{
    return node->ops == &program_ops ? node->data : 0;
}

void program_add(const char *args, const void *image, uint32_t size)
{
    /* The name: the first word's last path component. */
    size_t end = 0;
    while (args[end] && args[end] != ' ')
        end++;
    size_t start = end;
    while (start > 0 && args[start - 1] != '/')
        start--;
    struct program *p = kzalloc(sizeof *p);
    if (!p || end == start || end - start >= sizeof p->name) {
        printk("programs: cannot add module '%s'\n", args);
        kfree(p);
        return;
    }
    memcpy(p->name, args + start, end - start);
    if (program_find(p->name)) {
        printk("programs: '%s' given twice; the first one stays\n", p->name);
        kfree(p);
        return;
    }
    p->image = image;
    p->size = size;
    struct program **tail = &programs;
    while (*tail)
        tail = &(*tail)->next;
    *tail = p;
    struct fs_node *node = fs_set_mode(
        fs_create(fs_set_mode(fs_mkdir_path("bin"), 0755, 0, 0), p->name, &program_ops, p),
        0755, 0, 0);
    if (node)
        node->size = size; /* stat's st_size: the image's, as the file's on Linux */
}
