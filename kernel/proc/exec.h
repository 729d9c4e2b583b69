/*
 * exec.h - loading a program into a new address space.
 */
#ifndef KERNEL_PROC_EXEC_H
#define KERNEL_PROC_EXEC_H

#include <stdint.h>

struct addr_space;

#define USER_STACK_PAGES 16 /* 64 KiB below USER_STACK_TOP; the page below is never mapped */
#define USER_IMAGE_TOP (USER_STACK_TOP - (USER_STACK_PAGES + 1) * 4096u)
#define USER_ARGS_MAX 32768 /* bytes of argument and environment strings (NULs included)
                            * and their pointers: half the stack (Linux: a quarter of
                            * RLIMIT_STACK); more is E2BIG */
#define USER_ARGC_MAX 8192  /* strings in argv, and in envp */

/* Maps the ELF image's segments and a stack with argc/argv and envc/envp in as. 0 with
 * the entry point and initial stack pointer set, or -ENOEXEC (bad image, reported with its
 * reason), -ENOMEM, or -E2BIG (arguments too long). */
int exec_load(struct addr_space *as, const void *elf, uint32_t len, int argc,
              char *const argv[], int envc, char *const envp[], uint32_t *entry,
              uint32_t *user_esp);

#endif
