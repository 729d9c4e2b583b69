/*
 * exec.h - loading a program into a new address space.
 */
#ifndef KERNEL_PROC_EXEC_H
#define KERNEL_PROC_EXEC_H

#include <stdint.h>

struct addr_space;

#define USER_STACK_PAGES 16 /* 64 KiB below USER_STACK_TOP; the page below is never mapped */
#define USER_IMAGE_TOP (USER_STACK_TOP - (USER_STACK_PAGES + 1) * 4096u)
#define USER_ARGS_MAX 2048  /* bytes of argument strings, NULs included */
#define USER_ARGC_MAX 64

/* Maps the ELF image's segments and a stack with argc/argv in as. 0 with the entry point
 * and initial stack pointer set, or -ENOEXEC (bad image, reported with its reason),
 * -ENOMEM, or -E2BIG (arguments too long). */
int exec_load(struct addr_space *as, const void *elf, uint32_t len, int argc,
              char *const argv[], uint32_t *entry, uint32_t *user_esp);

#endif
