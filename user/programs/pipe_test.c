/*
 * pipe_test.c - reads trace_pipe from a program, in small pieces, and checks that nothing
 * is lost or repeated.
 *
 * trace_pipe consumes what it prints, so a program's read() must take from the buffer only
 * what fits in the program's buffer, keep the rest of a straddling line for the next read,
 * and see events that arrive after it has drained the pipe. The test writes numbered lines
 * to trace_marker, reads them back CHUNK bytes at a time, and checks each number arrives
 * once and in order; then it writes one more line after the pipe ran dry and reads again.
 * The boot script turns the COM2 stream off first: it would consume the events too.
 *
 * Usage: pipe_test [LINES [CHUNK]]   (defaults 200 lines, 7 bytes per read)
 * Prints "ok N - WHAT" / "not ok N - WHAT" lines, then "pipe_test: P passed, F failed";
 * exit status 1 if any check failed.
 */
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define TRACEFS "/sys/kernel/tracing/"
#define TEXT_MAX (64 * 1024)

static char text[TEXT_MAX + 1]; /* what the reads returned, NUL-terminated */
static int passed, failed;

static void check(bool ok, const char *what)
{
    if (ok)
        passed++;
    else
        failed++;
    printf("%s %d - %s\n", ok ? "ok" : "not ok", passed + failed, what);
}

/* Reads fd chunk bytes at a time until read() returns 0 (the pipe is empty); the text goes
 * to text[]. Returns its length, or -1 if a read failed or text[] filled up. */
static int read_all(int fd, int chunk)
{
    int len = 0;
    for (;;) {
        if (len + chunk > TEXT_MAX)
            return -1;
        int n = (int)read(fd, text + len, (size_t)chunk);
        if (n < 0)
            return -1;
        if (n == 0)
            break;
        len += n;
    }
    text[len] = '\0';
    return len;
}

/* Whether the marker lines "pipe_test 0" .. "pipe_test count-1" are all in text, each once
 * and in order. */
static bool numbers_in_order(int count)
{
    const char *at = text;
    int next = 0;
    while ((at = strstr(at, "pipe_test ")) != NULL) {
        at += strlen("pipe_test ");
        char *end;
        long n = strtol(at, &end, 10);
        if (end == at || *end != '\n')
            continue; /* "pipe_test after" */
        if (n != next)
            return false;
        next++;
    }
    return next == count;
}

int main(int argc, char **argv)
{
    int lines = argc > 1 ? atoi(argv[1]) : 200;
    int chunk = argc > 2 ? atoi(argv[2]) : 7;
    if (lines < 1 || lines > 500 || chunk < 1 || chunk > 4096) {
        printf("usage: pipe_test [LINES (1-500) [CHUNK (1-4096)]]\n");
        return 2;
    }
    int pipe_fd = open(TRACEFS "trace_pipe", O_RDONLY);
    int marker_fd = open(TRACEFS "trace_marker", O_WRONLY);
    check(pipe_fd >= 0 && marker_fd >= 0, "open trace_pipe and trace_marker");
    if (pipe_fd < 0 || marker_fd < 0)
        return 1;
    check(read_all(pipe_fd, 4096) >= 0, "drain what was there before");

    char line[32];
    bool written = true;
    for (int i = 0; i < lines; i++) {
        int len = snprintf(line, sizeof(line), "pipe_test %d\n", i);
        written = written && write(marker_fd, line, (size_t)len) == len;
    }
    check(written, "write the numbered lines to trace_marker");
    int len = read_all(pipe_fd, chunk);
    check(len > 0, "read them back in small pieces");
    check(len > 0 && numbers_in_order(lines), "every line arrived once, in order");
    check(read(pipe_fd, line, sizeof(line)) == 0, "the pipe is empty afterwards");

    const char *after = "pipe_test after\n";
    check(write(marker_fd, after, strlen(after)) == (int)strlen(after),
          "write one more line after the pipe ran dry");
    len = read_all(pipe_fd, chunk);
    check(len > 0 && strstr(text, "pipe_test after") != NULL,
          "the same descriptor reads the new line");

    close(marker_fd);
    close(pipe_fd);
    printf("pipe_test: %d passed, %d failed\n", passed, failed);
    return failed != 0;
}
