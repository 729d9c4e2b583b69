/*
 * libc_internal.h - what the library's own files share and programs do not see: the raw
 * `int $0x80` system call and the stdout buffer's flush.
 */
#ifndef USER_LIB_LIBC_INTERNAL_H
#define USER_LIB_LIBC_INTERNAL_H

#include <stdarg.h>

#include "uapi/syscall.h"

/*
 * Makes system call nr with six arguments (the kernel ignores the ones a call does not take)
 * and returns EAX as the kernel left it: a result, or -errno. The sixth argument travels in
 * EBP, which is also the frame pointer here, so the asm saves it and loads it from the
 * stack: the operand a6 is read by the first instruction, before ESP or EBP change.
 */
static inline long syscall_raw(long nr, long a1, long a2, long a3, long a4, long a5, long a6)
{
    long ret;
    asm volatile("pushl %7\n\t"
                 "pushl %%ebp\n\t"
                 "movl 4(%%esp), %%ebp\n\t"
                 "int $0x80\n\t"
                 "popl %%ebp\n\t"
                 "addl $4, %%esp"
                 : "=a"(ret)
                 : "0"(nr), "b"(a1), "c"(a2), "d"(a3), "S"(a4), "D"(a5), "g"(a6)
                 : "memory", "cc");
    return ret;
}

/* The libc convention on top of syscall_raw: a kernel result in -4095..-1 is an error,
 * which goes to errno, and the caller gets -1. Anything else is returned unchanged. */
long syscall_result(long ret);

/* Writes out what every output stream holds (stdio.c: stdout and any fopen-ed one). */
void stdout_flush(void);

/* The formatter behind every printf-family function: calls emit(c, ctx) for each character
 * the format produces and returns how many there were. */
int format_output(void (*emit)(char c, void *ctx), void *ctx, const char *fmt, va_list ap);

#endif
