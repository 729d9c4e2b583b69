/*
 * hostile_console.c - what a program can do with a standard output the shell redirected
 * (`run -u 1000 hostile_console > /dev/ttyS1`): it writes there, as on Linux, but that
 * gives it nothing else. Run as user 1000 with its output sent to a root:dialout 0660 file
 * it may not open itself.
 *
 * Its check lines go to that output (tracekern/check.h), ending with
 * "hostile_console: P passed, F failed"; then it closes the descriptor and exits with status
 * 0 only if a write to it then fails with EBADF (and 1 if a check failed).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <tracekern/check.h>
#include <unistd.h>

#define UNMAPPED_ADDRESS 0x1000
#define TCGETS 0x5401
#define WRITE_MAX (64 << 10) /* the most one write() takes (kernel/syscall/sys_file.c) */

static char big[WRITE_MAX + 4096];

int main(void)
{
    char byte;
    check_call("open /dev/ttyS1 itself as user 1000", open("/dev/ttyS1", O_WRONLY), EACCES);
    check_number("write a line to the redirected stdout",
                 write(STDOUT_FILENO, "hostile_console: through the redirection\n", 41), 41);
    check_call("read the write-only stdout", read(STDOUT_FILENO, &byte, 1), EBADF);
    check_call("TCGETS on a file that is no terminal", ioctl(STDOUT_FILENO, TCGETS, 0), ENOTTY);
    check_call("write from an unmapped buffer",
               write(STDOUT_FILENO, (const void *)UNMAPPED_ADDRESS, 16), EFAULT);
    memset(big, '\n', sizeof big);
    check_number("write more than one write() takes: a short write",
                 write(STDOUT_FILENO, big, sizeof big), WRITE_MAX);
    int failed = check_summary("hostile_console");
    close(STDOUT_FILENO);
    if (write(STDOUT_FILENO, "x", 1) != -1 || errno != EBADF)
        return 2;
    return failed ? 1 : 0;
}
