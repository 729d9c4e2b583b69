/*
 * hostile_fd.c - attacks on the descriptor, pipe, terminal and polling calls (issue 16):
 * each must get Linux's exact refusal and harm nothing (tests/shell/hostile_fd.script).
 *
 * Usage: hostile_fd           every attack, one check line each (tracekern/check.h)
 *        hostile_fd abandon   fills PIPES pipes to the brim and exits with them open:
 *                             their pages must all come back (the script compares MemFree)
 *        hostile_fd block     blocks reading an empty pipe it also writes (killed by the script)
 *        hostile_fd wblock    blocks writing a full pipe it also reads (killed by the script)
 *        hostile_fd flood     writes 64 KiB to the console in one call
 *        hostile_fd spy       run in the background (as another user): waits until a program
 *                             has the terminal, then tries to read, reconfigure and take it
 *                             (tests/shell/hostile_tty.sh); reports any byte it gets
 *        hostile_fd victim    the foreground program of hostile_tty.sh: reads a line, then
 *                             waits in a read for the ^C that must end it
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/select.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <termios.h>
#include <tracekern/check.h>
#include <unistd.h>

#define KERNEL_ADDR ((void *)0xc0000000)
#define PIPES 14 /* 28 descriptors: with 0, 1 and 2, all but one of TASK_FILES_MAX */
#define PIPE_SIZE 65536

static char buf[PIPE_SIZE];

/* MemFree from /proc/meminfo, in kB (-1 if unreadable). */
static long mem_free_kb(void)
{
    char text[512];
    int fd = open("/proc/meminfo", O_RDONLY);
    long n = read(fd, text, sizeof text - 1);
    close(fd);
    if (n <= 0)
        return -1;
    text[n] = '\0';
    char *at = strstr(text, "MemFree:");
    return at ? strtol(at + 8, 0, 10) : -1;
}

/* The pid of a living process called name, found through /proc/PID/status; 0 if none. */
static int find_process(const char *name)
{
    DIR *d = opendir("/proc");
    struct dirent *e;
    int found = 0;
    char want[40];
    snprintf(want, sizeof want, "Name:\t%s\n", name);
    while (d && (e = readdir(d)) != NULL) {
        if (e->d_name[0] < '1' || e->d_name[0] > '9')
            continue;
        char path[64], text[256];
        snprintf(path, sizeof path, "/proc/%s/status", e->d_name);
        int fd = open(path, O_RDONLY);
        long n = fd >= 0 ? read(fd, text, sizeof text - 1) : -1;
        close(fd);
        if (n > 0) {
            text[n] = '\0';
            if (strstr(text, want))
                found = atoi(e->d_name);
        }
    }
    if (d)
        closedir(d);
    return found;
}

static void bad_descriptors(void)
{
    check_call("dup(-1)", dup(-1), EBADF);
    check_call("dup(1000)", dup(1000), EBADF);
    check_call("dup2(0, -1)", dup2(0, -1), EBADF);
    check_call("dup2(0, 32): past the table", dup2(0, 32), EBADF);
    check_call("dup2(0, 0x7fffffff)", dup2(0, 0x7fffffff), EBADF);
    check_call("dup3(0, 5, all flags)", dup3(0, 5, -1), EINVAL);
    check_call("fcntl(-1, F_GETFD)", fcntl(-1, F_GETFD), EBADF);
    check_call("fcntl(F_DUPFD, 0x7fffffff)", fcntl(0, F_DUPFD, 0x7fffffff), EINVAL);
    check_call("fstat(77)", fstat(77, &(struct stat){ 0 }), EBADF);
    check_call("getdents64(-5)", getdents64(-5, buf, 100), EBADF);
    check_call("fchdir(40)", fchdir(40), EBADF);
    check_call("lseek(33)", lseek(33, 0, SEEK_SET), EBADF);
    check_call("ioctl(99, TCGETS)", ioctl(99, TCGETS, buf), EBADF);
    check_call("close_range with flags 0xff", syscall(SYS_close_range, 3, 5, 0xff), EINVAL);
    check_call("pipe2 with every flag", pipe2((int *)buf, -1), EINVAL);
    check_call("fstatat with every flag", fstatat(AT_FDCWD, "/", (struct stat *)buf, -1), EINVAL);
    check_call("statx with every flag", statx(AT_FDCWD, "/", -1, 0, (struct statx *)buf), EINVAL);
    check_call("faccessat2 with every flag", faccessat(AT_FDCWD, "/", 0, -1), EINVAL);
    check_call("readlink with bufsiz -1", readlink("/proc/self", buf, (size_t)-1), EINVAL);
    check_call("FIONREAD on /dev/null", ioctl(open("/dev/null", O_RDONLY), FIONREAD, buf), ENOTTY);
    close(3);
    int dir = open("/dev", O_RDONLY | O_DIRECTORY);
    check_call("mmap of a directory", (long)mmap(0, 4096, PROT_READ, MAP_SHARED, dir, 0) == -1 ? -1 : 0, ENODEV);
    check_call("write to a directory", write(dir, "x", 1), EBADF);
    check_call("ioctl on a directory", ioctl(dir, TCGETS, buf), ENOTTY);
    int p[2];
    pipe(p);
    check_call("mmap of a pipe", (long)mmap(0, 4096, PROT_READ, MAP_SHARED, p[0], 0) == -1 ? -1 : 0, ENODEV);
    check_call("getdents64 of a pipe", getdents64(p[0], buf, 4096), ENOTDIR);
    check_call("fchdir to a pipe", fchdir(p[0]), ENOTDIR);
    check_call("openat relative to a pipe", openat(p[0], "x", O_RDONLY), ENOTDIR);
    close(p[0]);
    close(p[1]);
    close(dir);
    /* Every slot taken by directories: the next open is EMFILE, even of a missing file. */
    int opened = 0;
    while (open("/", O_RDONLY | O_DIRECTORY) >= 0)
        opened++;
    check_errno("opening / until the table is full", errno, EMFILE);
    check_call("open of a missing file with a full table", open("/nothing", O_RDONLY), EMFILE);
    check_call("pipe with a full table", pipe((int *)buf), EMFILE);
    check_call("dup with a full table", dup(0), EMFILE);
    check_call("close_range(3, ~0)", syscall(SYS_close_range, 3, ~0u, 0), 0);
    check_number("29 directories were open", opened, 29);
    check_number("after close_range the next descriptor is 3", dup(0), 3);
    close(3);
    char longpath[300];
    memset(longpath, '/', sizeof longpath - 1);
    longpath[sizeof longpath - 1] = '\0';
    check_call("stat of a 299-byte path", stat(longpath, (struct stat *)buf), ENAMETOOLONG);
}

static void bad_pointers(void)
{
    struct stat st;
    check_call("stat(NULL, buf)", stat(NULL, &st), EFAULT);
    check_call("stat into kernel memory", stat("/dev/null", KERNEL_ADDR), EFAULT);
    check_call("stat into our own code", stat("/dev/null", (struct stat *)(void *)bad_pointers), EFAULT);
    check_call("lstat from a kernel path", lstat(KERNEL_ADDR, &st), EFAULT);
    check_call("statx into kernel memory", statx(AT_FDCWD, "/", 0, 0, KERNEL_ADDR), EFAULT);
    check_call("the old fstat into kernel memory", syscall(SYS_fstat, 0, KERNEL_ADDR), EFAULT);
    check_call("pipe into kernel memory", pipe(KERNEL_ADDR), EFAULT);
    check_number("and it left no descriptor behind", dup(0), 3);
    close(3);
    check_call("poll of a kernel array", poll(KERNEL_ADDR, 1, 0), EFAULT);
    check_call("getcwd into kernel memory", getcwd(KERNEL_ADDR, 100) ? 0 : -1, EFAULT);
    check_call("readlink into kernel memory", readlink("/proc/self", KERNEL_ADDR, 10), EFAULT);
    int fd = open("/dev", O_RDONLY);
    check_call("getdents64 into kernel memory", getdents64(fd, KERNEL_ADDR, 4096), EFAULT);
    check_call("getdents64 with count 0", getdents64(fd, buf, 0), EINVAL);
    close(fd);
    check_call("TCGETS into kernel memory", ioctl(0, TCGETS, KERNEL_ADDR), EFAULT);
    check_call("TCSETS from kernel memory", ioctl(0, TCSETS, KERNEL_ADDR), EFAULT);
    check_call("TIOCSPGRP from kernel memory", ioctl(0, TIOCSPGRP, KERNEL_ADDR), EFAULT);
    check_call("select with a kernel fd_set", select(1, KERNEL_ADDR, NULL, NULL, NULL), EFAULT);
    check_call("_llseek's result into kernel memory",
               syscall(SYS_llseek, open("/proc/uptime", O_RDONLY), 0, 0, KERNEL_ADDR, SEEK_SET), EFAULT);
    close(3);
    int p[2];
    pipe(p);
    write(p[1], "abcde", 5);
    check_call("read of a pipe into kernel memory", read(p[0], KERNEL_ADDR, 5), EFAULT);
    int queued = 0;
    ioctl(p[0], FIONREAD, &queued);
    check_number("the bytes stay in the pipe", queued, 5);
    check_call("FIONREAD into kernel memory", ioctl(p[0], FIONREAD, KERNEL_ADDR), EFAULT);
    check_call("write to a pipe from kernel memory", write(p[1], KERNEL_ADDR, 5), EFAULT);
    close(p[0]);
    close(p[1]);
}

static void huge_values(void)
{
    struct pollfd pf = { 1000, POLLIN, 0 };
    check_number("poll of fd 1000", poll(&pf, 1, 0), 1);
    check_number("is POLLNVAL", pf.revents, POLLNVAL);
    check_call("poll with nfds 0xffffffff", poll(&pf, 0xffffffffu, 0), EINVAL);
    fd_set w;
    FD_ZERO(&w);
    FD_SET(1, &w);
    struct timeval tv = { 0, 0 };
    check_number("select with nfds 0x7fffffff (capped)", select(0x7fffffff, NULL, &w, NULL, &tv), 1);
    struct timespec ts = { -1, 0 };
    check_call("ppoll with a negative time", ppoll(&pf, 1, &ts, NULL), EINVAL);
    uint64_t mask = 0;
    check_call("ppoll with sigsetsize 4", syscall(SYS_ppoll, &pf, 1, NULL, &mask, 4), EINVAL);
    ts = (struct timespec){ 0x7fffffff, 0 };
    pf.fd = 1;
    pf.events = POLLOUT;
    check_number("ppoll with a 68-year timeout of a ready fd", ppoll(&pf, 1, &ts, NULL), 1);
    int fd = open("/proc/uptime", O_RDONLY);
    check_call("lseek past 2^31 with _llseek", syscall(SYS_llseek, fd, 1, 0, buf, SEEK_SET), EINVAL);
    check_call("lseek to 0x7fffffff", lseek(fd, 0x7fffffff, SEEK_SET), 0);
    check_call("lseek 0x7fffffff further", lseek(fd, 0x7fffffff, SEEK_CUR), EOVERFLOW);
    close(fd);
}

/* 100 pipes filled to the brim and closed: every page comes back. (One first, so that
 * the kernel heap has grown to what a 64 KiB write needs before MemFree is read.) */
static void pipes_filled(void)
{
    int warm[2];
    pipe(warm);
    fcntl(warm[1], F_SETFL, O_NONBLOCK);
    write(warm[1], buf, PIPE_SIZE);
    read(warm[0], buf, PIPE_SIZE);
    close(warm[0]);
    close(warm[1]);
    long before = mem_free_kb();
    bool all_full = true;
    for (int i = 0; i < 100; i++) {
        int p[2];
        if (pipe2(p, O_NONBLOCK) != 0) {
            all_full = false;
            break;
        }
        all_full = all_full && write(p[1], buf, PIPE_SIZE) == PIPE_SIZE &&
                   write(p[1], buf, 1) == -1 && errno == EAGAIN;
        close(p[0]);
        close(p[1]);
    }
    check_true("100 pipes filled with 64 KiB, then closed", all_full);
    check_true("MemFree is as before", mem_free_kb() == before);
}

/* Sets sig's action to SIG_IGN (ignore true) or SIG_DFL. */
static void ignore_signal(int sig, bool ignore)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = (void (*)(int))(ignore ? SIG_IGN : SIG_DFL);
    sigaction(sig, &sa, 0);
}

/* The foreground group may only become one of our own session's (Linux's tiocspgrp): the
 * sleeper, started by `run` as a session of its own, is EPERM; a child's new group is
 * allowed, and then we are the background: reading the terminal, changing it or taking it
 * back is refused (EIO, ENOTTY) until we ignore SIGTTOU, as a job-control shell does. */
static void foreign_group(void)
{
    int me = getpid();
    int sleeper = find_process("sleeper");
    check_true("a sleeper runs (found through /proc/PID/status)", sleeper > 0);
    check_call("TIOCSPGRP to the sleeper's group (run made it a session)",
               ioctl(0, TIOCSPGRP, &sleeper), EPERM);
    int go[2];
    pipe(go);
    int job = fork();
    if (job == 0) {
        setpgid(0, 0);
        read(go[0], buf, 1); /* until the parent is done */
        _exit(0);
    }
    setpgid(job, job);
    check_call("TIOCSPGRP to a child's group, in our session", ioctl(0, TIOCSPGRP, &job), 0);
    struct termios now;
    tcgetattr(0, &now);
    int n = 0;
    check_call("a read from the background", read(0, buf, 1), EIO);
    check_call("FIONREAD from the background", ioctl(0, FIONREAD, &n), EIO);
    check_call("TCSETS from the background", ioctl(0, TCSETS, &now), EIO);
    check_call("TCFLSH from the background", ioctl(0, TCFLSH, 0), EIO);
    check_call("TIOCSPGRP back from the background", ioctl(0, TIOCSPGRP, &me), ENOTTY);
    ignore_signal(SIGTTOU, true);
    check_call("with SIGTTOU ignored, TCSETS from the background", ioctl(0, TCSETS, &now), 0);
    check_call("with SIGTTOU ignored, TIOCSPGRP back", ioctl(0, TIOCSPGRP, &me), 0);
    ignore_signal(SIGTTOU, false);
    write(go[1], "x", 1);
    waitpid(job, 0, 0);
    close(go[0]);
    close(go[1]);
    int ready[2];
    pipe(ready);
    int child = fork();
    if (child == 0) {
        char c = setsid() == getpid() ? 'y' : 'n';
        write(ready[1], &c, 1);
        pause(); /* until the parent kills it */
        _exit(0);
    }
    char answer = 0;
    read(ready[0], &answer, 1);
    check_true("a child leads a session of its own (setsid)", answer == 'y');
    check_call("TIOCSPGRP to the group of another session", ioctl(0, TIOCSPGRP, &child), EPERM);
    int pgrp = 0;
    ioctl(0, TIOCGPGRP, &pgrp);
    check_true("the foreground group is still ours", pgrp == me);
    kill(child, SIGKILL);
    waitpid(child, 0, 0);
    close(ready[0]);
    close(ready[1]);
    /* Settings that make no sense are kept, and undone. */
    struct termios saved, odd;
    tcgetattr(0, &saved);
    memset(&odd, 0xff, sizeof odd);
    check_call("TCSETS with every bit set", ioctl(0, TCSETS, &odd), 0);
    int fl = fcntl(0, F_GETFL);
    fcntl(0, F_SETFL, fl | O_NONBLOCK);
    check_call("a nonblocking read under them", read(0, buf, 100), EAGAIN);
    fcntl(0, F_SETFL, fl);
    check_call("TCSETS back", tcsetattr(0, TCSANOW, &saved), 0);
}

/* A background program that wants what is typed to the foreground one, and the terminal
 * itself: with SIGTTIN and SIGTTOU ignored (nothing may stop it), once another program has
 * the terminal it reads, clears ISIG, resizes, flushes and makes its own group the
 * foreground; each must be refused. Then it keeps reading until killed, and says so if a
 * single byte ever comes. */
static int __attribute__((noreturn)) spy(void)
{
    ignore_signal(SIGTTIN, true);
    ignore_signal(SIGTTOU, true);
    int me = getpgrp(), fg = me;
    while (ioctl(0, TIOCGPGRP, &fg) == 0 && fg == me)
        usleep(10000);
    struct termios t;
    tcgetattr(0, &t);
    t.c_lflag &= ~(unsigned)(ISIG | ICANON | ECHO);
    struct winsize w = { .ws_row = 1, .ws_col = 1 };
    int n = 0;
    check_call("spy: a background read while a program has the terminal", read(0, buf, 1), EIO);
    check_call("spy: FIONREAD", ioctl(0, FIONREAD, &n), EIO);
    check_call("spy: TCSETS without ISIG", ioctl(0, TCSETS, &t), EIO);
    check_call("spy: TIOCSWINSZ", ioctl(0, TIOCSWINSZ, &w), EIO);
    check_call("spy: TCFLSH", ioctl(0, TCFLSH, 0), EIO);
    check_call("spy: TIOCSPGRP to its own group", ioctl(0, TIOCSPGRP, &me), ENOTTY);
    ioctl(0, TIOCGPGRP, &n);
    check_true("spy: the foreground group is still the program's", n == fg);
    printf("hostile_fd spy: attacks done\n");
    for (;;) {
        if (read(0, buf, 1) == 1)
            printf("hostile_fd spy: stole byte 0x%02x\n", (unsigned char)buf[0]);
        ioctl(0, TCSETS, &t);
        ioctl(0, TIOCSPGRP, &me);
        usleep(5000);
    }
}

/* The foreground program the spy attacks: prints the line typed to it, then waits in a read
 * for the ^C that must still end it (ISIG as `run` set it). */
static int victim(void)
{
    printf("hostile_fd victim: type a line\n");
    long n = read(0, buf, sizeof buf - 1);
    buf[n > 0 ? n : 0] = '\0';
    printf("hostile_fd victim: read %ld: %s", n, buf);
    printf("hostile_fd victim: waiting for ^C\n");
    n = read(0, buf, 1);
    printf("hostile_fd victim: the read returned %ld (0x%02x)\n", n, (unsigned char)buf[0]);
    return 1;
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "";
    int p[2];
    if (strcmp(mode, "abandon") == 0) {
        for (int i = 0; i < PIPES; i++)
            if (pipe2(p, O_NONBLOCK) != 0 || write(p[1], buf, PIPE_SIZE) != PIPE_SIZE)
                printf("hostile_fd: pipe %d not filled\n", i);
        printf("hostile_fd: %d full pipes left open\n", PIPES);
        return 0;
    }
    if (strcmp(mode, "block") == 0) {
        pipe(p);
        read(p[0], buf, 1);
        printf("hostile_fd: the read of an empty pipe returned\n");
        return 1;
    }
    if (strcmp(mode, "wblock") == 0) {
        pipe(p);
        write(p[1], buf, PIPE_SIZE);
        write(p[1], buf, 1);
        printf("hostile_fd: the write to a full pipe returned\n");
        return 1;
    }
    if (strcmp(mode, "spy") == 0)
        return spy();
    if (strcmp(mode, "victim") == 0)
        return victim();
    if (strcmp(mode, "flood") == 0) {
        memset(buf, 'F', sizeof buf);
        for (int i = 63; i < PIPE_SIZE; i += 64)
            buf[i] = '\n';
        long n = write(1, buf, PIPE_SIZE);
        printf("\nhostile_fd: the console took %ld bytes\n", n);
        return 0;
    }
    bad_descriptors();
    bad_pointers();
    huge_values();
    pipes_filled();
    foreign_group();
    return check_summary("hostile_fd");
}
