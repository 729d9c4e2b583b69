/*
 * hostile_stream.c - attacks on the binary capture's switch, options/stream_raw (the COM2
 * stream's binary mode, trace/core/trace_stream.c), from ring 3:
 *
 * Usage: hostile_stream garbage       writes that are not 0 or 1: each EINVAL (a pointer the
 *                                     program does not own: EFAULT), the setting unchanged
 *        hostile_stream toggle R N F  R rounds of: stream_raw 1, N markers, stream_raw 0, N
 *                                     markers, while a child writes F markers of its own;
 *                                     every switch succeeds
 *        hostile_stream flood N       N markers as fast as the CPU writes them
 * What became of the markers (each in the capture's pages, on COM2 as text, or counted lost)
 * is tests/shell/hostile_stream.check's, on the host. Prints one line per check
 * (tracekern/check.h), "# wrote N markers" and "hostile_stream MODE: P passed, F failed".
 * Exit status 0 when nothing failed, 1 otherwise, 2 for a usage error.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <tracekern/check.h>
#include <unistd.h>

#define TRACEFS "/sys/kernel/tracing/"
#define STREAM_RAW TRACEFS "options/stream_raw"

/* The setting as the file reads it: '0', '1', or '?' when it cannot be read. */
static char stream_raw_now(void)
{
    char c = '?';
    int fd = open(STREAM_RAW, O_RDONLY);
    if (fd >= 0) {
        if (read(fd, &c, 1) != 1)
            c = '?';
        close(fd);
    }
    return c;
}

/* One write of len bytes from data to stream_raw; the errno, 0 on success. */
static int write_raw(const void *data, size_t len)
{
    int fd = open(STREAM_RAW, O_WRONLY);
    if (fd < 0)
        return errno;
    int err = write(fd, data, len) < 0 ? errno : 0;
    close(fd);
    return err;
}

static void garbage(void)
{
    /* Refused by Linux's kstrtoul_from_user(.., 10, ..) and by any flag file here alike:
     * base 10 only, no blank before the number. */
    static const char *const bad[] = { "2\n", "-1\n", "abc\n", "1x\n", "\n", " 1 1\n",
                                       "10\n", "0x1\n", " 1\n" };
    char before = stream_raw_now();
    check_true("stream_raw reads 0 or 1", before == '0' || before == '1');
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char what[80];
        char shown[16];
        snprintf(shown, sizeof shown, "%s", bad[i]);
        shown[strlen(shown) - 1] = '\0'; /* without the newline */
        snprintf(what, sizeof what, "write of \"%s\" to options/stream_raw", shown);
        check_errno(what, write_raw(bad[i], strlen(bad[i])), EINVAL);
    }
    static char huge[65536];
    memset(huge, 'x', sizeof huge);
    check_errno("write of 64 KiB of 'x' to options/stream_raw", write_raw(huge, sizeof huge),
                EINVAL);
    check_errno("write from an address the program does not own",
                write_raw((const void *)0x10, 2), EFAULT);
    check_true("stream_raw unchanged by the refused writes", stream_raw_now() == before);
}

/* Writes count markers "TAG-ROUND-I"; returns how many writes succeeded. */
static long markers(const char *tag, int round, long count)
{
    int fd = open(TRACEFS "trace_marker", O_WRONLY);
    if (fd < 0)
        return 0;
    long ok = 0;
    for (long i = 0; i < count; i++) {
        char text[64];
        int n = snprintf(text, sizeof text, "%s-%d-%ld", tag, round, i);
        if (write(fd, text, (size_t)n) == n)
            ok++;
    }
    close(fd);
    return ok;
}

static void toggle(int rounds, long count, long flood)
{
    long wrote = 0;
    int switched = 0;
    pid_t child = fork();
    if (child == 0)
        _exit(markers("hs-child", 0, flood) == flood ? 0 : 1);
    check_true("a child floods meanwhile", child > 0);
    for (int r = 0; r < rounds; r++) {
        switched += write_raw("1\n", 2) == 0;
        wrote += markers("hs-raw", r, count);
        switched += write_raw("0\n", 2) == 0;
        wrote += markers("hs-text", r, count);
    }
    int status = -1;
    check_call("waitpid for the flooding child", waitpid(child, &status, 0), 0);
    check_true("the child wrote all its markers", WIFEXITED(status) && WEXITSTATUS(status) == 0);
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
        wrote += flood;
    check_number("stream_raw switched on and off", switched, 2 * rounds);
    check_number("markers written", wrote, 2L * rounds * count + flood);
    check_true("stream_raw is 0 after the last switch", stream_raw_now() == '0');
    printf("# wrote %ld markers in %d raw sessions\n", wrote, rounds);
}

static void flood(long count)
{
    long wrote = markers("hs-flood", 0, count);
    check_number("flood markers written", wrote, count);
    printf("# wrote %ld markers\n", wrote);
}

int main(int argc, char **argv)
{
    if (argc == 2 && strcmp(argv[1], "garbage") == 0)
        garbage();
    else if (argc == 5 && strcmp(argv[1], "toggle") == 0)
        toggle(atoi(argv[2]), strtol(argv[3], NULL, 10), strtol(argv[4], NULL, 10));
    else if (argc == 3 && strcmp(argv[1], "flood") == 0)
        flood(strtol(argv[2], NULL, 10));
    else {
        fprintf(stderr, "usage: hostile_stream garbage | toggle ROUNDS N FLOOD | flood N\n");
        return 2;
    }
    char name[32];
    snprintf(name, sizeof name, "hostile_stream %s", argv[1]);
    return check_summary(name) ? 1 : 0;
}
