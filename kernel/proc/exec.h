/*
 * exec.h - loading a program into a new address space, as Linux's fs/binfmt_elf.c does on
 * i386: the ELF image's segments (kernel/proc/elf.h says which images load, and where), the
 * heap's start (brk) just above them, and the stack at the top of user space with the
 * argument and environment strings, argc, argv, envp and the auxiliary vector in the order
 * and at the alignment of Linux's create_elf_tables (docs/memory.md draws it).
 */
#ifndef KERNEL_PROC_EXEC_H
#define KERNEL_PROC_EXEC_H

#include <stdint.h>

#include "uapi/syscall.h"

struct addr_space;
struct cred;

#define USER_STACK_PAGES 16 /* 64 KiB of stack mapped at start; it grows on demand from there */
/* Linux's limits on what execve passes: one argument or environment string may be
 * MAX_ARG_STRLEN bytes, its NUL included; all of them with their pointers together a
 * quarter of the stack's limit (bprm_stack_limits with an 8 MiB RLIMIT_STACK: 2 MiB).
 * More is E2BIG. */
#define EXEC_ARG_STRLEN_MAX (32u * 4096u)
#define EXEC_ARGS_MAX (USER_STACK_MAX / 4)
/* An image may lie anywhere in user space below the stack's largest extent and the page
 * under it. */
#define USER_IMAGE_TOP (USER_STACK_TOP - USER_STACK_MAX - 4096u)

/* What the new program gets. argv has argc strings; envp is NULL-terminated (NULL: no
 * environment); path is the file's name as the caller knows it (AT_EXECFN; NULL: argv[0]
 * or ""); cred gives AT_UID/AT_EUID/AT_GID/AT_EGID. The strings are kernel memory: the
 * caller copied them from the old program already. */
struct exec_args {
    const char *path;
    int argc;
    char *const *argv;
    char *const *envp;
    const struct cred *cred;
};

/* Where the program starts: the entry point, the stack pointer (at argc, 16-byte aligned),
 * and the initial break (also in vm_layout(as)). */
struct exec_start {
    uint32_t entry;
    uint32_t user_esp;
    uint32_t brk;
};

/* Maps the ELF image's segments and the initial stack into as, which must have no user
 * pages, and records the layout (vm_layout). 0 with *start filled, or -ENOEXEC (bad image,
 * reported on the console with its reason, e.g. a dynamically linked program), -ENOMEM, or
 * -E2BIG (arguments and environment too long). On an error as may hold some pages: the
 * caller destroys it. */
int exec_load(struct addr_space *as, const void *elf, uint32_t len,
              const struct exec_args *args, struct exec_start *start);

#endif
