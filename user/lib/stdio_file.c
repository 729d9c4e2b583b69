/*
 * stdio_file.c - streams other than the standard ones (stdio.h): fopen, fdopen, fclose,
 * and the calls only file-reading programs use (fgets, fread, ungetc) and buffer changes
 * (setvbuf, setbuf). Up to FOPEN_MAX - 3 streams at once, each with a page of its own
 * (BUFSIZ) mapped at open and unmapped at fclose; they are on stdio_opened's list, so
 * that fflush(NULL) and exit() write them out.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#include "libc_internal.h"

static struct stdio_stream slots[FOPEN_MAX - 3];

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
        if (f->mapped)
            munmap(f->buf, BUFSIZ);
        f->mapped = false;
        f->buf = buf;
        f->size = size;
    }
    return 0;
}

void setbuf(FILE *f, char *buf) { setvbuf(f, buf, buf ? _IOFBF : _IONBF, BUFSIZ); }

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

/* A free slot of the table for fd, fully buffered, with a page of its own (ENOMEM, or
 * EMFILE when all FOPEN_MAX are in use). */
static FILE *new_stream(int fd, unsigned dirs)
{
    for (unsigned i = 0; i < sizeof slots / sizeof slots[0]; i++) {
        FILE *f = &slots[i];
        if (f->flags & F_IN_USE)
            continue;
        void *page = mmap(0, BUFSIZ, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (page == MAP_FAILED)
            return 0;
        *f = (struct stdio_stream){ fd, F_IN_USE | dirs, _IOFBF, page, BUFSIZ, 0, 0, 0, true,
                                    stdio_opened };
        stdio_opened = f;
        return f;
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
    int ret = stdio_write_out(f);
    if (close(f->fd) < 0)
        ret = EOF;
    if (f->mapped)
        munmap(f->buf, BUFSIZ);
    for (struct stdio_stream **link = &stdio_opened; *link; link = &(*link)->next)
        if (*link == f) {
            *link = f->next;
            break;
        }
    if (f >= slots && f < slots + sizeof slots / sizeof slots[0])
        *f = (struct stdio_stream){ 0 };
    else
        f->flags = 0; /* a standard stream: closed, its slot stays */
    return ret;
}
