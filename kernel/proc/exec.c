/*
 * exec.c - builds a process's memory from an ELF image: its segments, then a stack laid
 * out as Linux's i386 ABI has it at _start:
 *
 *   esp ->  argc
 *           argv[0] ... argv[argc-1], NULL
 *           envp[0] ... envp[envc-1], NULL
 *           AT_NULL, 0                (an empty auxiliary vector)
 *           the argument and environment strings
 */
#include "kernel/proc/exec.h"

#include "kernel/proc/elf.h"
#include "kernel/lib/errno.h"
#include "kernel/mm/page_alloc.h"
#include "kernel/log/printk.h"
#include "kernel/lib/string.h"
#include "kernel/mm/vm.h"

/* Copies len bytes to user address va of as, page by page (the frames are not adjacent). */
static void copy_to_space(struct addr_space *as, uint32_t va, const void *src, uint32_t len)
{
    const uint8_t *from = src;
    while (len > 0) {
        uint32_t chunk = PAGE_SIZE - (va & (PAGE_SIZE - 1));
        if (chunk > len)
            chunk = len;
        memcpy(vm_kernel_ptr(as, va), from, chunk);
        va += chunk, from += chunk, len -= chunk;
    }
}

/* Maps fresh zeroed pages over [va, va+size) with the given rights. */
static int map_range(struct addr_space *as, uint32_t va, uint32_t size, unsigned rights)
{
    for (uint32_t page = PAGE_ALIGN_DOWN(va); page < va + size; page += PAGE_SIZE) {
        int err = vm_map_new(as, page, rights);
        if (err)
            return err;
    }
    return 0;
}

/* Copies count strings to the stack at *str_va on, and their addresses to the pointer
 * block at *ptr_va on, followed by a NULL; advances both. */
static void put_strings(struct addr_space *as, int count, char *const strings[],
                        uint32_t *str_va, uint32_t *ptr_va)
{
    for (int i = 0; i < count; i++) {
        uint32_t n = strlen(strings[i]) + 1;
        copy_to_space(as, *str_va, strings[i], n);
        copy_to_space(as, *ptr_va, str_va, 4);
        *str_va += n, *ptr_va += 4;
    }
    uint32_t null = 0;
    copy_to_space(as, *ptr_va, &null, 4);
    *ptr_va += 4;
}

/* Puts the argument and environment strings and the pointer block on the stack; returns
 * the stack pointer (pointing at argc), or 0 when they do not fit (USER_ARGS_MAX bytes of
 * strings and pointers together, as Linux counts them). */
static uint32_t build_stack(struct addr_space *as, int argc, char *const argv[], int envc,
                            char *const envp[])
{
    uint32_t strings = 0;
    for (int i = 0; i < argc; i++)
        strings += strlen(argv[i]) + 1;
    for (int i = 0; i < envc; i++)
        strings += strlen(envp[i]) + 1;
    uint32_t words = 1 + (uint32_t)argc + 1 + (uint32_t)envc + 1 + 2;
    if (argc < 0 || envc < 0 || argc > USER_ARGC_MAX || envc > USER_ARGC_MAX ||
        strings + words * 4 > USER_ARGS_MAX)
        return 0;
    uint32_t str_va = USER_STACK_TOP - strings;
    uint32_t sp = (str_va - words * 4) & ~15u;
    uint32_t ptr_va = sp, word = (uint32_t)argc;
    copy_to_space(as, ptr_va, &word, 4);
    ptr_va += 4;
    put_strings(as, argc, argv, &str_va, &ptr_va);
    put_strings(as, envc, envp, &str_va, &ptr_va);
    uint32_t auxv_end[2] = { 0, 0 }; /* AT_NULL */
    copy_to_space(as, ptr_va, auxv_end, sizeof auxv_end);
    return sp;
}

int exec_load(struct addr_space *as, const void *elf, uint32_t len, int argc,
              char *const argv[], int envc, char *const envp[], uint32_t *entry,
              uint32_t *user_esp)
{
    struct elf_image img;
    const char *why;
    if (elf_parse(elf, len, USER_BASE, USER_IMAGE_TOP, &img, &why) != 0) {
        printk("exec: %s: %s\n", argc > 0 ? argv[0] : "?", why);
        return -ENOEXEC;
    }
    for (int i = 0; i < img.nsegments; i++) {
        const struct elf_segment *s = &img.seg[i];
        int err = map_range(as, s->vaddr, s->memsz, VM_READ | (s->writable ? VM_WRITE : 0));
        if (err)
            return err;
        copy_to_space(as, s->vaddr, (const uint8_t *)elf + s->offset, s->filesz);
    }
    uint32_t stack_size = USER_STACK_PAGES * PAGE_SIZE;
    int err = map_range(as, USER_STACK_TOP - stack_size, stack_size, VM_READ | VM_WRITE);
    if (err)
        return err;
    uint32_t sp = build_stack(as, argc, argv, envc, envp);
    if (!sp)
        return -E2BIG;
    *entry = img.entry;
    *user_esp = sp;
    return 0;
}
