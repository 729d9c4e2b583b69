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

/* A stdio stream (stdio.h's FILE). */
#include <stdbool.h>
#include <stddef.h>
#define F_READ 1u
#define F_WRITE 2u
#define F_EOF 4u
#define F_ERROR 8u
#define F_IN_USE 16u
struct stdio_stream {
    int fd;
    unsigned flags;
    int mode;             /* _IOFBF, _IOLBF or _IONBF */
    char *buf;
    size_t size;
    size_t wlen;          /* bytes written to the buffer, not yet to the fd */
    size_t rpos, rlen;    /* unread bytes are buf[rpos, rlen) */
    bool mapped;          /* buf is a page of its own, from mmap (fopen, fdopen) */
    struct stdio_stream *next; /* the next of stdio_opened's list */
};
/* The streams fopen/fdopen made, newest first (stdio_file.c adds and removes them). */
extern struct stdio_stream *stdio_opened;
/* Writes out what a stream holds for its fd: 0, or EOF with the error flag on a failed
 * write (the rest is dropped). */
int stdio_write_out(struct stdio_stream *f);

/* Writes out what every output stream holds (stdio.c: stdout and any fopen-ed one). */
void stdout_flush(void);

/* The formatter behind every printf-family function: calls emit(c, ctx) for each character
 * the format produces and returns how many there were. */
int format_output(void (*emit)(char c, void *ctx), void *ctx, const char *fmt, va_list ap);

#endif
