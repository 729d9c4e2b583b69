/*
 * check.c - the TAP-like checks the guest test programs share (tracekern/check.h), and
 * write_file(), which most of them need to poke a tracefs file.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <tracekern/check.h>
#include <unistd.h>

static int checks_passed, checks_failed; /* one thread: see check.h */
static int check_fd = STDOUT_FILENO;

void check_output(int fd) { check_fd = fd; }

/* The name of errno e for a check line: "success" for 0, "errno N" for a number libc has
 * no name for. The text lives in buf or in libc's table. */
static const char *errno_text(int e, char *buf, size_t size)
{
    if (e == 0)
        return "success";
    const char *name = strerrorname_np(e);
    if (name)
        return name;
    snprintf(buf, size, "errno %d", e);
    return buf;
}

/* Counts one check and prints its line; got is shown only when it failed, since a line
 * that passed already says what it got: WANT. */
static bool report(bool ok, const char *what, const char *want, const char *got)
{
    int n = checks_passed + checks_failed + 1;
    if (ok)
        checks_passed++;
    else
        checks_failed++;
    if (!want)
        dprintf(check_fd, "%sok %d - %s\n", ok ? "" : "not ", n, what);
    else if (ok)
        dprintf(check_fd, "ok %d - %s -> %s\n", n, what, want);
    else
        dprintf(check_fd, "not ok %d - %s -> %s (got %s)\n", n, what, want, got);
    return ok;
}

/* Checks the result of a libc call: ret -1 means it failed with errno (anything else is
 * success, so addresses and lengths are fine); want_errno 0 asks for success. Returns
 * whether the call did what was wanted. */
bool check_call(const char *what, long ret, int want_errno)
{
    return check_errno(what, ret == -1 ? errno : 0, want_errno);
}

/* Checks an errno a program saved earlier (0: the operation worked), for operations that
 * are a loop of calls rather than one. */
bool check_errno(const char *what, int got_errno, int want_errno)
{
    char gbuf[24], wbuf[24];
    return report(got_errno == want_errno, what, errno_text(want_errno, wbuf, sizeof wbuf),
                  errno_text(got_errno, gbuf, sizeof gbuf));
}

/* Checks a number the kernel reported, or counted, against the one it must be. */
bool check_number(const char *what, long long got, long long want)
{
    char gbuf[24], wbuf[24];
    snprintf(gbuf, sizeof gbuf, "%lld", got);
    snprintf(wbuf, sizeof wbuf, "%lld", want);
    return report(got == want, what, wbuf, gbuf);
}

/* Checks a condition whose line says it all. */
bool check_true(const char *what, bool ok)
{
    return report(ok, what, 0, 0);
}

/* Prints the last line, "NAME: P passed, F failed", and returns the exit status the
 * program should end with: 0 when nothing failed, 1 otherwise. */
int check_summary(const char *name)
{
    dprintf(check_fd, "%s: %d passed, %d failed\n", name, checks_passed, checks_failed);
    return checks_failed != 0;
}

/* Writes text to path through a descriptor of its own, as `echo text > path` does: 0 when
 * the open and the write worked, else -1 with the errno of the one that failed. */
long write_file(const char *path, const char *text)
{
    int fd = open(path, O_WRONLY);
    if (fd < 0)
        return -1;
    long ret = write(fd, text, strlen(text));
    int saved = errno;
    close(fd);
    errno = saved;
    return ret < 0 ? -1 : 0;
}

long cpus_in_cpuinfo(void)
{
    char text[8192];
    int fd = open("/proc/cpuinfo", O_RDONLY);
    if (fd < 0)
        return -1;
    long n = 0, got;
    while (n < (long)sizeof text - 1 && (got = read(fd, text + n, sizeof text - 1 - n)) > 0)
        n += got;
    close(fd);
    text[n] = '\0';
    long cpus = 0;
    for (const char *line = text; line; line = strchr(line, '\n')) {
        if (*line == '\n')
            line++;
        if (strncmp(line, "processor\t", 10) == 0)
            cpus++;
    }
    return cpus;
}
