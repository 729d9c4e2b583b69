/*
 * stdio.c - printf and friends on file descriptors.
 *
 * Output for fd 1 collects in one line buffer, written out at each '\n', when the buffer is
 * full, and by stdout_flush() (called by exit(), dprintf() and perror() so that lines keep
 * their order). A program's line thus reaches the console in one write() even when built
 * from several printf calls.
 */
#include <stdio.h>
#include <unistd.h>

#include "libc_internal.h"

static char stdout_buf[256];
static size_t stdout_len;

/* Writes out the buffer; on a write error the rest is dropped (there is nowhere to report
 * it), so a broken console cannot make a program loop. */
void stdout_flush(void)
{
    size_t done = 0;
    while (done < stdout_len) {
        ssize_t n = write(STDOUT_FILENO, stdout_buf + done, stdout_len - done);
        if (n <= 0)
            break;
        done += (size_t)n;
    }
    stdout_len = 0;
}

static void emit_to_stdout(char c, void *ctx)
{
    (void)ctx;
    stdout_buf[stdout_len++] = c;
    if (c == '\n' || stdout_len == sizeof(stdout_buf))
        stdout_flush();
}

int vprintf(const char *fmt, va_list ap) { return format_output(emit_to_stdout, 0, fmt, ap); }

int printf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vprintf(fmt, ap);
    va_end(ap);
    return n;
}

int putchar(int c)
{
    emit_to_stdout((char)c, 0);
    return (unsigned char)c;
}

/* As C says: s and a newline; a non-negative number on success. */
int puts(const char *s)
{
    int n = 0;
    for (; s[n]; n++)
        emit_to_stdout(s[n], 0);
    emit_to_stdout('\n', 0);
    return n + 1;
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
    stdout_flush();
    va_start(ap, fmt);
    int n = format_output(emit_to_fd, &s, fmt, ap);
    va_end(ap);
    fd_sink_flush(&s);
    return n;
}
