/*
 * uapi/auxv.h - the keys of the auxiliary vector execve puts on a new program's stack, above
 * its environment (Linux's include/uapi/linux/auxvec.h and arch/x86's AT_SYSINFO*):
 * pairs of (key, value) ending with AT_NULL. Shared by the loader (kernel/proc/exec.c) and
 * the programs that check what it built.
 */
#ifndef UAPI_AUXV_H
#define UAPI_AUXV_H

#define AT_NULL 0
#define AT_PHDR 3      /* the program headers, in memory */
#define AT_PHENT 4     /* the size of one */
#define AT_PHNUM 5     /* how many */
#define AT_PAGESZ 6
#define AT_BASE 7      /* the interpreter's load address: 0, none here */
#define AT_FLAGS 8
#define AT_ENTRY 9     /* the program's entry point */
#define AT_UID 11
#define AT_EUID 12
#define AT_GID 13
#define AT_EGID 14
#define AT_PLATFORM 15 /* a string: "i686" */
#define AT_HWCAP 16    /* CPUID.1:EDX */
#define AT_CLKTCK 17   /* times()'s ticks per second */
#define AT_SECURE 23
#define AT_RANDOM 25   /* 16 random bytes */
#define AT_HWCAP2 26
#define AT_EXECFN 31   /* a string: the path execve was given */
#define AT_SYSINFO 32  /* the vDSO's system call entry: never given here */
#define AT_SYSINFO_EHDR 33 /* the vDSO: never given here */

#endif
