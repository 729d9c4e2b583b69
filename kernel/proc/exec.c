/*
 * exec.c - builds a process's memory from an ELF image: its segments, then the stack that
 * Linux's i386 create_elf_tables builds, so that an unmodified static glibc, musl or
 * busybox binary finds at _start what it finds on Linux:
 *
 *   USER_STACK_TOP   4 zero bytes
 *                    the AT_EXECFN string (the program's path)
 *                    environment strings, argument strings (argv[0] lowest)
 *                    then, 16-byte aligned: "i686" (AT_PLATFORM), 16 random bytes
 *                    (AT_RANDOM), padding
 *                    auxv: AT_HWCAP ... AT_PLATFORM, AT_NULL (id, value pairs)
 *                    NULL, envp[envc-1] ... envp[0]
 *                    NULL, argv[argc-1] ... argv[0]
 *   esp ->           argc                     (esp is 16-byte aligned)
 */
#include "kernel/proc/exec.h"

#include "kernel/arch.h"
#include "kernel/lib/errno.h"
#include "kernel/lib/string.h"
#include "kernel/log/printk.h"
#include "kernel/mm/page_alloc.h"
#include "kernel/mm/vm.h"
#include "kernel/proc/cred.h"
#include "kernel/proc/elf.h"
#include "uapi/auxv.h"

#define AUXV_PAIRS 19 /* the entries build_auxv writes, AT_NULL included */

#define ELF_PLATFORM "i686"
#define ELF_PHDR_SIZE 32

/* Copies len bytes to user address va of as, page by page (the frames are not adjacent).
 * Every page must be mapped. */
static void copy_to_space(struct addr_space *as, uint32_t va, const void *src, uint32_t len)
{
    const uint8_t *from = src;
    while (len > 0) {
        uint32_t chunk = PAGE_SIZE - (va & (PAGE_SIZE - 1));
        if (chunk > len)
            chunk = len;
        void *to = vm_kmap(as, va);
        memcpy(to, from, chunk);
        vm_kunmap(to);
        va += chunk, from += chunk, len -= chunk;
    }
}

static void put_word(struct addr_space *as, uint32_t va, uint32_t value)
{
    copy_to_space(as, va, &value, 4);
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

/* Maps one segment as Linux's mmap of the file would show it: the file's bytes from the
 * start of the page holding p_offset to p_offset + p_filesz, at the page holding p_vaddr
 * (elf_parse checked they agree modulo the page size); everything after them, the rest of
 * the last file page included, is zero (the pages come zeroed), up to p_vaddr + p_memsz. */
static int load_segment(struct addr_space *as, const uint8_t *elf, const struct elf_segment *s)
{
    int err = map_range(as, s->vaddr, s->memsz, VM_READ | (s->writable ? VM_WRITE : 0));
    if (err)
        return err;
    uint32_t lead = s->vaddr & (PAGE_SIZE - 1);
    copy_to_space(as, s->vaddr - lead, elf + s->offset - lead, s->filesz + lead);
    return 0;
}

/* The number of strings in a NULL-terminated array (NULL: none), or -1 past limit. */
static int count_strings(char *const *v, int limit)
{
    int n = 0;
    while (v && v[n])
        if (++n > limit)
            return -1;
    return n;
}

/* Places a string at *at, moves *at past it, and returns where it went. */
static uint32_t put_string(struct addr_space *as, uint32_t *at, const char *str)
{
    uint32_t size = strlen(str) + 1, addr = *at;
    copy_to_space(as, addr, str, size);
    *at += size;
    return addr;
}

/*
 * Builds the stack of the comment at the top of this file. The pointer arrays are written
 * straight into the new stack (they can be thousands of words: too many for a kernel
 * stack). Returns the stack pointer, or 0 with *err set.
 */
static uint32_t build_stack(struct addr_space *as, const struct exec_args *a,
                            const struct elf_image *img, int *err)
{
    int envc = count_strings(a->envp, (int)(EXEC_ARGS_MAX / sizeof(char *)));
    const char *execfn = a->path ? a->path : a->argc > 0 ? a->argv[0] : "";
    uint32_t strings = 0;
    for (int i = 0; i < a->argc; i++)
        strings += strlen(a->argv[i]) + 1;
    for (int i = 0; envc > 0 && i < envc; i++)
        strings += strlen(a->envp[i]) + 1;
    if (envc < 0 || a->argc < 0 ||
        strings + 4u * (uint32_t)(a->argc + envc) > EXEC_ARGS_MAX) {
        *err = -E2BIG;
        return 0;
    }
    strings += strlen(execfn) + 1; /* AT_EXECFN's copy, which Linux does not count */

    /* Everything below is at most this big: map it (and at least USER_STACK_PAGES). */
    uint32_t words = 1 + (uint32_t)(a->argc + 1 + envc + 1) + 2 * AUXV_PAIRS;
    uint32_t need = PAGE_ALIGN_UP(4 + strings + 16 + sizeof ELF_PLATFORM + 16 + words * 4 + 16);
    if (need < USER_STACK_PAGES * PAGE_SIZE)
        need = USER_STACK_PAGES * PAGE_SIZE;
    *err = map_range(as, USER_STACK_TOP - need, need, VM_READ | VM_WRITE);
    if (*err)
        return 0;
    vm_layout(as)->stack_low = USER_STACK_TOP - need;

    /* The strings: argv's, envp's, then the path, then 4 zero bytes at the very top. */
    uint32_t strings_at = USER_STACK_TOP - 4 - strings;

    /* Below the strings, 16-byte aligned: the platform string and the random bytes. */
    uint32_t q = strings_at & ~15u;
    q -= sizeof ELF_PLATFORM;
    uint32_t platform_at = q;
    copy_to_space(as, platform_at, ELF_PLATFORM, sizeof ELF_PLATFORM);
    q -= 16;
    uint32_t random_at = q;
    uint8_t random[16];
    arch_random_bytes(random, sizeof random);
    copy_to_space(as, random_at, random, sizeof random);

    /* argc, the pointers and auxv below that, rounded down to 16 bytes as Linux does. */
    uint32_t sp = (q - words * 4) & ~15u;
    uint32_t w = sp;
    put_word(as, w, (uint32_t)a->argc), w += 4;
    uint32_t at = strings_at;
    struct vm_layout *layout = vm_layout(as);
    layout->arg_start = at;
    for (int i = 0; i < a->argc; i++)
        put_word(as, w, put_string(as, &at, a->argv[i])), w += 4;
    put_word(as, w, 0), w += 4;
    layout->arg_end = layout->env_start = at;
    for (int i = 0; i < envc; i++)
        put_word(as, w, put_string(as, &at, a->envp[i])), w += 4;
    put_word(as, w, 0), w += 4;
    layout->env_end = at;
    uint32_t execfn_at = put_string(as, &at, execfn);

    const struct cred *c = a->cred;
    const uint32_t auxv[AUXV_PAIRS][2] = {
        { AT_HWCAP, arch_hwcap() },
        { AT_PAGESZ, PAGE_SIZE },
        { AT_CLKTCK, TICK_HZ },
        { AT_PHDR, img->phdr_addr },
        { AT_PHENT, ELF_PHDR_SIZE },
        { AT_PHNUM, img->phnum },
        { AT_BASE, 0 },   /* no interpreter */
        { AT_FLAGS, 0 },
        { AT_ENTRY, img->entry },
        { AT_UID, c->uid },
        { AT_EUID, c->euid },
        { AT_GID, c->gid },
        { AT_EGID, c->egid },
        { AT_SECURE, 0 }, /* no set-user-id programs here */
        { AT_RANDOM, random_at },
        { AT_HWCAP2, 0 },
        { AT_EXECFN, execfn_at },
        { AT_PLATFORM, platform_at },
        { AT_NULL, 0 },
    };
    copy_to_space(as, w, auxv, sizeof auxv);
    return sp;
}

int exec_load(struct addr_space *as, const void *elf, uint32_t len,
              const struct exec_args *args, struct exec_start *start)
{
    struct elf_image img;
    const char *why;
    if (elf_parse(elf, len, USER_BASE, USER_IMAGE_TOP, &img, &why) != 0) {
        const char *name = args->path ? args->path : args->argc > 0 ? args->argv[0] : "?";
        printk("exec: %s: %s\n", name, why);
        return -ENOEXEC;
    }
    for (int i = 0; i < img.nsegments; i++) {
        int err = load_segment(as, elf, &img.seg[i]);
        if (err)
            return err;
    }
    struct vm_layout *layout = vm_layout(as);
    layout->start_brk = layout->brk = PAGE_ALIGN_UP(img.end);
    int err = 0;
    uint32_t sp = build_stack(as, args, &img, &err);
    if (!sp)
        return err;
    start->entry = img.entry;
    start->user_esp = sp;
    start->brk = layout->brk;
    return 0;
}
