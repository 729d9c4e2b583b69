/*
 * stdio.c - streams (stdio.h): the standard ones, writing and reading a byte at a time,
 * printf and flushing; stdio_file.c opens and closes the others (so that a program that
 * only prints links none of that). Each stream is an fd and one buffer used for reading or
 * for writing, whichever it did last.
 *
 * The standard streams have small static buffers; a stream from fopen/fdopen maps a page
 * (BUFSIZ bytes) of its own and unmaps it at fclose.
 * Writing: bytes gather in the buffer and go out in one write() when it fills, at '\n'
 * for a line-buffered stream, at once for an unbuffered one, and at fflush/fclose/exit().
 * A line of printf output thus reaches the console in one write() even when built from
 * several calls. On a write error the rest is dropped and the error flag set, so a broken
 * console cannot make a program loop.
 * Reading: the buffer is refilled with one read() of up to its size; 0 bytes is end of
 * file. Before reading, a stream first writes out what it holds, and reading stdin writes
 * out stdout, so a prompt shows before the program waits.
 * One thread per process: the table needs no lock.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "libc_internal.h"



/* The standard streams' buffers are small and static (a program that only printf()s
 * costs no more memory than before streams existed); fopen maps a page per stream. */
static char stdin_buf[256], stdout_buf[256], stderr_buf[128];
static struct stdio_stream std_streams[3] = {
    { 0, F_IN_USE | F_READ, _IOLBF, stdin_buf, sizeof stdin_buf, 0, 0, 0, false, 0 },
    { 1, F_IN_USE | F_WRITE, _IOLBF, stdout_buf, sizeof stdout_buf, 0, 0, 0, false, 0 },
    { 2, F_IN_USE | F_WRITE, _IONBF, stderr_buf, sizeof stderr_buf, 0, 0, 0, false, 0 },
};
FILE *stdin = &std_streams[0], *stdout = &std_streams[1], *stderr = &std_streams[2];
struct stdio_stream *stdio_opened;

/* (libc_internal.h) The loop ends at the first failed or empty write. */
int stdio_write_out(FILE *f)
{
    size_t done = 0;
    while (done < f->wlen) {
        ssize_t n = write(f->fd, f->buf + done, f->wlen - done);
        if (n <= 0) {
            f->flags |= F_ERROR;
            f->wlen = 0;
            return EOF;
        }
        done += (size_t)n;
    }
    f->wlen = 0;
    return 0;
}

/* Unread input is given up (the fd's offset stays where the reads left it: the
 * streams here read pipes, the console and files read start to end). */
static void drop_input(FILE *f) { f->rpos = f->rlen = 0; }

/* Every stream: the three standard ones, then those fopen made (stdio_file.c). */
static FILE *next_stream(FILE *f)
{
    if (f >= std_streams && f < std_streams + 2)
        return f + 1;
    return f == &std_streams[2] ? stdio_opened : f->next;
}

int fflush(FILE *f)
{
    if (!f) { /* every stream's pending output; input buffers stay as they are */
        int ret = 0;
        for (FILE *s = std_streams; s; s = next_stream(s))
            if (s->wlen && stdio_write_out(s))
                ret = EOF;
        return ret;
    }
    drop_input(f);
    return stdio_write_out(f);
}

void stdout_flush(void) { fflush(0); }

/* Puts one byte into f's buffer and writes out as f's mode says. Not inlined: every
 * output function calls it, and one copy keeps small programs small. */
__attribute__((noinline)) static int put_byte(FILE *f, char c)
{
    if (!(f->flags & F_WRITE)) {
        f->flags |= F_ERROR;
        errno = EBADF;
        return EOF;
    }
    if (f == stderr)
        stdio_write_out(stdout); /* stdout's lines first, then the message */
    drop_input(f);
    f->buf[f->wlen++] = c;
    if (f->wlen == f->size || (f->mode == _IOLBF && c == '\n'))
        return stdio_write_out(f);
    return 0;
}

/* The end of one call's output: an unbuffered stream writes it out now, in one write(). */
static int finish(FILE *f) { return f->mode == _IONBF && f->wlen ? stdio_write_out(f) : 0; }

int fputc(int c, FILE *f)
{
    if (put_byte(f, (char)c) || finish(f))
        return EOF;
    return (unsigned char)c;
}
int putc(int c, FILE *f) { return fputc(c, f); }
int putchar(int c) { return fputc(c, stdout); }

size_t fwrite(const void *p, size_t size, size_t n, FILE *f)
{
    const char *bytes = p;
    size_t total = size * n, i = 0;
    for (; i < total; i++)
        if (put_byte(f, bytes[i]))
            break;
    finish(f);
    return size ? i / size : 0;
}

int fputs(const char *s, FILE *f)
{
    size_t len = strlen(s);
    return fwrite(s, 1, len, f) == len ? 1 : EOF;
}

/* As C says: s and a newline; a non-negative number on success. */
int puts(const char *s)
{
    if (fputs(s, stdout) == EOF || put_byte(stdout, '\n') || finish(stdout))
        return EOF;
    return 1;
}

/* format_output's sink for a stream. */
static void emit_to_stream(char c, void *ctx) { put_byte(ctx, c); }

int vfprintf(FILE *f, const char *fmt, va_list ap)
{
    int n = format_output(emit_to_stream, f, fmt, ap);
    finish(f);
    return f->flags & F_ERROR ? -1 : n;
}

int fprintf(FILE *f, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vfprintf(f, fmt, ap);
    va_end(ap);
    return n;
}

int vprintf(const char *fmt, va_list ap) { return vfprintf(stdout, fmt, ap); }

int printf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vprintf(fmt, ap);
    va_end(ap);
    return n;
}

/* Refills f's buffer: 1 when there is input, 0 at end of file or an error (flag set). */
static int refill(FILE *f)
{
    if (!(f->flags & F_READ)) {
        f->flags |= F_ERROR;
        errno = EBADF;
        return 0;
    }
    stdio_write_out(f);
    if (f == stdin)
        stdio_write_out(stdout);
    ssize_t n = read(f->fd, f->buf, f->size);
    f->rpos = 0;
    f->rlen = n > 0 ? (size_t)n : 0;
    if (n == 0)
        f->flags |= F_EOF;
    else if (n < 0)
        f->flags |= F_ERROR;
    return n > 0;
}

int fgetc(FILE *f)
{
    if (f->rpos == f->rlen && !refill(f))
        return EOF;
    return (unsigned char)f->buf[f->rpos++];
}

int getc(FILE *f) { return fgetc(f); }
int getchar(void) { return fgetc(stdin); }





int fileno(FILE *f) { return f->fd; }
int feof(FILE *f) { return (f->flags & F_EOF) != 0; }
int ferror(FILE *f) { return (f->flags & F_ERROR) != 0; }
void clearerr(FILE *f) { f->flags &= ~(F_EOF | F_ERROR); }






/* dprintf's output gathers in a small buffer on the stack, written when full and at the end. */
struct fd_sink {
    int fd;
    unsigned len;
    char buf[128];
};

static void fd_sink_flush(struct fd_sink *s)
{
    unsigned done = 0;
    while (done < s->len) {
        ssize_t n = write(s->fd, s->buf + done, s->len - done);
        if (n <= 0)
            break;
        done += (unsigned)n;
    }
    s->len = 0;
}

static void emit_to_fd(char c, void *ctx)
{
    struct fd_sink *s = ctx;
    s->buf[s->len++] = c;
    if (s->len == sizeof(s->buf))
        fd_sink_flush(s);
}

int dprintf(int fd, const char *fmt, ...)
{
    struct fd_sink s = { fd, 0, { 0 } };
    va_list ap;
    fflush(0);
    va_start(ap, fmt);
    int n = format_output(emit_to_fd, &s, fmt, ap);
    va_end(ap);
    fd_sink_flush(&s);
    return n;
}
