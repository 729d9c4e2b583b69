/*
 * stdio.c - streams (stdio.h): a fixed table of FOPEN_MAX streams, each an fd and one
 * buffer used for reading or for writing, whichever the stream did last.
 *
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
    char own[BUFSIZ];
};

static struct stdio_stream streams[FOPEN_MAX] = {
    { 0, F_IN_USE | F_READ, _IOLBF, streams[0].own, BUFSIZ, 0, 0, 0, { 0 } },
    { 1, F_IN_USE | F_WRITE, _IOLBF, streams[1].own, 256, 0, 0, 0, { 0 } },
    { 2, F_IN_USE | F_WRITE, _IONBF, streams[2].own, BUFSIZ, 0, 0, 0, { 0 } },
};
FILE *stdin = &streams[0], *stdout = &streams[1], *stderr = &streams[2];

/* Writes out what f holds for its fd: 0, or EOF with the error flag on a failed write. */
static int write_out(FILE *f)
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

int fflush(FILE *f)
{
    if (!f) {
        int ret = 0;
        for (int i = 0; i < FOPEN_MAX; i++)
            if ((streams[i].flags & F_IN_USE) && fflush(&streams[i]))
                ret = EOF;
        return ret;
    }
    drop_input(f);
    return write_out(f);
}

void stdout_flush(void) { fflush(0); }

/* Puts one byte into f's buffer and writes out as f's mode says. */
static int put_byte(FILE *f, char c)
{
    if (!(f->flags & F_WRITE)) {
        f->flags |= F_ERROR;
        errno = EBADF;
        return EOF;
    }
    if (f == stderr)
        write_out(stdout); /* stdout's lines first, then the message */
    drop_input(f);
    f->buf[f->wlen++] = c;
    if (f->wlen == f->size || (f->mode == _IOLBF && c == '\n'))
        return write_out(f);
    return 0;
}

/* The end of one call's output: an unbuffered stream writes it out now, in one write(). */
static int finish(FILE *f) { return f->mode == _IONBF && f->wlen ? write_out(f) : 0; }

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
    write_out(f);
    if (f == stdin)
        write_out(stdout);
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

/* One byte back, in front of what is unread; only where the buffer has room before it. */
int ungetc(int c, FILE *f)
{
    if (c == EOF || f->rpos == 0)
        return EOF;
    f->buf[--f->rpos] = (char)c;
    f->flags &= ~F_EOF;
    return (unsigned char)c;
}

char *fgets(char *s, int size, FILE *f)
{
    int n = 0;
    while (n + 1 < size) {
        int c = fgetc(f);
        if (c == EOF)
            break;
        s[n++] = (char)c;
        if (c == '\n')
            break;
    }
    if (n == 0 || size <= 0)
        return 0;
    s[n] = '\0';
    return s;
}

size_t fread(void *p, size_t size, size_t n, FILE *f)
{
    char *bytes = p;
    size_t total = size * n, i = 0;
    for (; i < total; i++) {
        int c = fgetc(f);
        if (c == EOF)
            break;
        bytes[i] = (char)c;
    }
    return size ? i / size : 0;
}

int setvbuf(FILE *f, char *buf, int mode, size_t size)
{
    if ((mode != _IOFBF && mode != _IOLBF && mode != _IONBF) || f->wlen || f->rlen) {
        errno = EINVAL;
        return -1; /* C allows it only before the first read or write */
    }
    f->mode = mode;
    if (buf && size > 0) {
        f->buf = buf;
        f->size = size;
    }
    return 0;
}

void setbuf(FILE *f, char *buf) { setvbuf(f, buf, buf ? _IOFBF : _IONBF, BUFSIZ); }
int fileno(FILE *f) { return f->fd; }
int feof(FILE *f) { return (f->flags & F_EOF) != 0; }
int ferror(FILE *f) { return (f->flags & F_ERROR) != 0; }
void clearerr(FILE *f) { f->flags &= ~(F_EOF | F_ERROR); }

/* "r", "w", "a", each with an optional "+"; "b" (and "e", "x" as glibc takes them) may
 * follow. Returns open() flags and the stream's directions, or -1. */
static int parse_mode(const char *mode, unsigned *dirs)
{
    int flags;
    switch (mode[0]) {
    case 'r': flags = O_RDONLY; *dirs = F_READ; break;
    case 'w': flags = O_WRONLY | O_CREAT | O_TRUNC; *dirs = F_WRITE; break;
    case 'a': flags = O_WRONLY | O_CREAT | O_APPEND; *dirs = F_WRITE; break;
    default: return -1;
    }
    for (const char *m = mode + 1; *m; m++) {
        if (*m == '+') {
            flags = (flags & ~O_ACCMODE) | O_RDWR;
            *dirs = F_READ | F_WRITE;
        } else if (*m != 'b' && *m != 'e' && *m != 'x') {
            return -1;
        }
    }
    return flags;
}

/* A free slot of the table for fd, fully buffered. */
static FILE *new_stream(int fd, unsigned dirs)
{
    for (int i = 3; i < FOPEN_MAX; i++) {
        FILE *f = &streams[i];
        if (!(f->flags & F_IN_USE)) {
            f->fd = fd;
            f->flags = F_IN_USE | dirs;
            f->mode = _IOFBF;
            f->buf = f->own;
            f->size = BUFSIZ;
            f->wlen = f->rpos = f->rlen = 0;
            return f;
        }
    }
    errno = EMFILE;
    return 0;
}

FILE *fopen(const char *path, const char *mode)
{
    unsigned dirs;
    int flags = parse_mode(mode, &dirs);
    if (flags < 0) {
        errno = EINVAL;
        return 0;
    }
    int fd = open(path, flags, 0666);
    if (fd < 0)
        return 0;
    FILE *f = new_stream(fd, dirs);
    if (!f)
        close(fd);
    return f;
}

FILE *fdopen(int fd, const char *mode)
{
    unsigned dirs;
    if (parse_mode(mode, &dirs) < 0) {
        errno = EINVAL;
        return 0;
    }
    return new_stream(fd, dirs);
}

int fclose(FILE *f)
{
    int ret = write_out(f);
    if (close(f->fd) < 0)
        ret = EOF;
    f->flags = 0;
    f->wlen = f->rpos = f->rlen = 0;
    return ret;
}

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
