/*
 * pid_filter.c - a known task for the pid filter tests (tests/shell/pid_filter.script):
 * lists itself in a pid filter file and makes known system calls.
 *
 * Usage: pid_filter FILE [fork]
 * Prints "pid_filter: pid N", writes N to /sys/kernel/tracing/FILE (set_event_pid,
 * set_ftrace_pid, ...) as `echo N > FILE` does, then calls getpid() three times and
 * getppid() once; with "fork", a child (which prints "pid_filter: child pid M") calls
 * getppid() twice and exits, and the parent waits for it. Exit status 0, or 1 with perror.
 *
 * Usage: pid_filter --all-cpus
 * Writes the mask of every CPU online (sysconf) to tracing_cpumask, as `echo f >` does on
 * four CPUs, so a script puts every CPU back whatever their count; prints the mask.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* pid_filter --all-cpus: 0, or 1 with perror. */
static int mask_all_cpus(void)
{
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    char text[16];
    int n = cpus > 0 && cpus < 32 ? snprintf(text, sizeof text, "%lx\n", (1ul << cpus) - 1) : 0;
    int fd = open("/sys/kernel/tracing/tracing_cpumask", O_WRONLY | O_TRUNC);
    if (n == 0 || fd < 0 || write(fd, text, (size_t)n) != n) {
        perror("pid_filter: write tracing_cpumask");
        return 1;
    }
    close(fd);
    printf("pid_filter: tracing_cpumask %s", text);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 2 && strcmp(argv[1], "--all-cpus") == 0)
        return mask_all_cpus();
    if (argc < 2) {
        fprintf(stderr, "usage: pid_filter FILE [fork]\n");
        return 2;
    }
    int pid = getpid();
    printf("pid_filter: pid %d\n", pid);
    char path[128], text[16];
    snprintf(path, sizeof path, "/sys/kernel/tracing/%s", argv[1]);
    int fd = open(path, O_WRONLY | O_TRUNC);
    int n = snprintf(text, sizeof text, "%d\n", pid);
    if (fd < 0 || write(fd, text, (size_t)n) != n) {
        perror("pid_filter: write the pid");
        return 1;
    }
    close(fd);
    for (int i = 0; i < 3; i++)
        getpid();
    getppid();
    if (argc > 2 && strcmp(argv[2], "fork") == 0) {
        int child = fork();
        if (child < 0) {
            perror("pid_filter: fork");
            return 1;
        }
        if (child == 0) {
            printf("pid_filter: child pid %d\n", getpid());
            getppid();
            getppid();
            _exit(0);
        }
        int status;
        waitpid(child, &status, 0);
    }
    return 0;
}
