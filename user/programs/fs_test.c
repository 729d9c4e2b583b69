/*
 * fs_test.c - the file, directory, pipe, terminal and polling calls of issue 16 as a
 * program sees them, each checked against Linux's behaviour (tests/shell/fs_calls.script).
 *
 * Usage: fs_test           every check, as root
 *        fs_test user      the permission checks of an ordinary user (run -u 1000)
 *        fs_test sigpipe   writes to a pipe nobody reads with SIGPIPE's default action:
 *                          the process must die of it (the shell reports "killed by SIGPIPE")
 * Prints check lines (tracekern/check.h) and "fs_test: P passed, F failed".
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/select.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <termios.h>
#include <time.h>
#include <tracekern/check.h>
#include <unistd.h>

#define PIPE_SIZE 65536

static char buf[PIPE_SIZE + 16];

static bool has_entry(const char *dir, const char *name, unsigned char type)
{
    DIR *d = opendir(dir);
    if (!d)
        return false;
    bool found = false;
    struct dirent *e;
    while ((e = readdir(d)) != NULL)
        if (strcmp(e->d_name, name) == 0 && e->d_type == type)
            found = true;
    closedir(d);
    return found;
}

static long long now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void descriptors(void)
{
    int fd = open("/dev/null", O_RDWR);
    check_true("open /dev/null gives the lowest free descriptor, 3", fd == 3);
    check_number("dup(3) is 4", dup(fd), 4);
    check_number("dup2(3, 10) is 10", dup2(fd, 10), 10);
    check_number("dup2(10, 10) is 10", dup2(10, 10), 10);
    check_call("dup2(20, 20) of a closed fd", dup2(20, 20), EBADF);
    check_call("dup3(10, 10, 0)", dup3(10, 10, 0), EINVAL);
    check_call("dup3 with a flag other than O_CLOEXEC", dup3(fd, 11, O_NONBLOCK), EINVAL);
    check_number("dup3(3, 11, O_CLOEXEC) is 11", dup3(fd, 11, O_CLOEXEC), 11);
    check_number("F_GETFD of 11 is FD_CLOEXEC", fcntl(11, F_GETFD), FD_CLOEXEC);
    check_number("F_GETFD of 10 is 0", fcntl(10, F_GETFD), 0);
    check_call("F_SETFD FD_CLOEXEC on 10", fcntl(10, F_SETFD, FD_CLOEXEC), 0);
    check_number("F_GETFD of 10 is now FD_CLOEXEC", fcntl(10, F_GETFD), FD_CLOEXEC);
    check_number("F_DUPFD from 15 is 15", fcntl(fd, F_DUPFD, 15), 15);
    check_number("F_DUPFD_CLOEXEC from 15 is 16", fcntl(fd, F_DUPFD_CLOEXEC, 15), 16);
    check_number("and 16 is close-on-exec", fcntl(16, F_GETFD), FD_CLOEXEC);
    check_call("F_DUPFD above the table", fcntl(fd, F_DUPFD, 4096), EINVAL);
    check_number("F_GETFL is O_RDWR", fcntl(fd, F_GETFL), O_RDWR);
    check_call("F_SETFL O_NONBLOCK|O_APPEND|O_WRONLY", fcntl(fd, F_SETFL, O_NONBLOCK | O_APPEND | O_WRONLY), 0);
    check_number("F_GETFL: the status flags changed, the access mode did not",
                 fcntl(fd, F_GETFL), O_RDWR | O_NONBLOCK | O_APPEND);
    check_number("a dup shares the status flags", fcntl(4, F_GETFL), O_RDWR | O_NONBLOCK | O_APPEND);
    check_call("fcntl with an unknown command", fcntl(fd, 9999), EINVAL);
    check_call("fcntl on a closed fd", fcntl(25, F_GETFD), EBADF);
    check_call("close_range(10, 16, CLOSE_RANGE_CLOEXEC)",
               syscall(SYS_close_range, 10, 16, CLOSE_RANGE_CLOEXEC), 0);
    check_number("close_range's CLOEXEC marked 15", fcntl(15, F_GETFD), FD_CLOEXEC);
    check_call("close_range(4, ~0, 0)", syscall(SYS_close_range, 4, ~0u, 0), 0);
    check_call("close_range closed 16", fcntl(16, F_GETFD), EBADF);
    check_call("close_range with first > last", syscall(SYS_close_range, 9, 8, 0), EINVAL);
    check_number("after it the lowest free descriptor is 4 again", dup(fd), 4);
    close(4);
    close(fd);
    check_call("open with O_CLOEXEC", fd = open("/dev/null", O_RDONLY | O_CLOEXEC), 0);
    check_number("O_CLOEXEC sets FD_CLOEXEC", fcntl(fd, F_GETFD), FD_CLOEXEC);
    close(fd);
}

static void pipes(void)
{
    int p[2];
    check_call("pipe", pipe(p), 0);
    check_call("write 5 bytes", write(p[1], "hello", 5), 0);
    int queued = -1;
    check_call("FIONREAD", ioctl(p[0], FIONREAD, &queued), 0);
    check_number("FIONREAD says 5", queued, 5);
    check_number("read takes what is there (5 of 100)", read(p[0], buf, 100), 5);
    check_true("and it is what was written", memcmp(buf, "hello", 5) == 0);
    check_call("read of the write end", read(p[1], buf, 1), EBADF);
    check_call("write to the read end", write(p[0], "x", 1), EBADF);
    check_call("lseek on a pipe", lseek(p[0], 0, SEEK_SET), ESPIPE);
    check_call("isatty on a pipe", isatty(p[0]) ? 0 : -1, ENOTTY);
    struct stat st;
    check_call("fstat of a pipe", fstat(p[0], &st), 0);
    check_true("st_mode is S_IFIFO", S_ISFIFO(st.st_mode));
    struct stat st2;
    fstat(p[1], &st2);
    check_true("both ends are one inode", st.st_ino == st2.st_ino);
    check_call("F_SETFL O_NONBLOCK on the write end", fcntl(p[1], F_SETFL, O_NONBLOCK), 0);
    long total = 0, n;
    memset(buf, 'p', sizeof buf);
    while ((n = write(p[1], buf, 4096)) > 0)
        total += n;
    check_errno("a full pipe's nonblocking write", errno, EAGAIN);
    check_number("the pipe held 65536 bytes", total, PIPE_SIZE);
    ioctl(p[0], FIONREAD, &queued);
    check_number("FIONREAD of a full pipe", queued, PIPE_SIZE);
    check_number("read 4000 of them", read(p[0], buf, 4000), 4000);
    check_call("a 4096-byte write does not fit in 4000 bytes: EAGAIN, nothing written",
               write(p[1], buf, 4096), EAGAIN);
    check_number("a 4000-byte write fits", write(p[1], buf, 4000), 4000);
    struct pollfd pf[2] = { { p[0], POLLIN, 0 }, { p[1], POLLOUT, 0 } };
    check_number("poll: the read end is readable, the write end not writable", poll(pf, 2, 0), 1);
    check_true("revents POLLIN, 0", pf[0].revents == POLLIN && pf[1].revents == 0);
    close(p[1]);
    total = 0;
    while ((n = read(p[0], buf, sizeof buf)) > 0)
        total += n;
    check_number("everything written is read after the writer closed", total, PIPE_SIZE);
    check_number("then read gives 0 (end of file)", read(p[0], buf, 10), 0);
    pf[0].revents = 0;
    check_number("poll: the writer is gone", poll(pf, 1, 0), 1);
    check_true("revents POLLHUP", pf[0].revents == POLLHUP);
    close(p[0]);

    check_call("pipe2 with a bad flag", pipe2(p, O_APPEND), EINVAL);
    check_call("pipe2(O_CLOEXEC|O_NONBLOCK)", pipe2(p, O_CLOEXEC | O_NONBLOCK), 0);
    check_number("both ends close-on-exec", fcntl(p[0], F_GETFD) + fcntl(p[1], F_GETFD), 2);
    check_number("and nonblocking", fcntl(p[0], F_GETFL), O_RDONLY | O_NONBLOCK);
    check_call("an empty nonblocking pipe's read", read(p[0], buf, 1), EAGAIN);
    struct sigaction ign = { .sa_handler = (void (*)(int))SIG_IGN };
    sigaction(SIGPIPE, &ign, 0);
    close(p[0]);
    check_call("a write with no reader (SIGPIPE ignored)", write(p[1], "x", 1), EPIPE);
    pf[0] = (struct pollfd){ p[1], POLLOUT, 0 };
    poll(pf, 1, 0);
    check_true("poll says POLLERR on it", pf[0].revents & POLLERR);
    close(p[1]);
}

static void metadata(void)
{
    struct stat st, st2;
    check_call("stat /dev/null", stat("/dev/null", &st), 0);
    check_number("its st_mode is crw-rw-rw-", st.st_mode, S_IFCHR | 0666);
    check_number("its st_rdev is 1:3", st.st_rdev, (1 << 8) | 3);
    check_number("st_blksize 4096", st.st_blksize, 4096);
    check_number("st_nlink 1", st.st_nlink, 1);
    stat("/dev/zero", &st2);
    check_true("/dev/zero is another inode, 1:5", st2.st_ino != st.st_ino && st2.st_rdev == 0x105);
    stat("/dev/console", &st);
    check_number("/dev/console is 5:1", st.st_rdev, 0x501);
    stat("/dev/ttyS0", &st);
    check_number("/dev/ttyS0 is 4:64", st.st_rdev, 0x440);
    stat("/dev/ttyS1", &st);
    check_number("/dev/ttyS1 is 4:65", st.st_rdev, 0x441);
    stat("/dev/kmsg", &st);
    check_number("/dev/kmsg is 1:11", st.st_rdev, 0x10b);
    /* Linux's access_ok: a buffer reaching past user space is EFAULT before any file says
     * how much it holds, for generated text as for a program's bytes. */
    char small[16];
    int meminfo = open("/proc/meminfo", O_RDONLY);
    check_errno("read of /proc/meminfo with a count reaching past user space",
                read(meminfo, small, 0xffffffffu) < 0 ? errno : 0, EFAULT);
    check_true("and a good read after it gets the text from its start",
               read(meminfo, small, 8) == 8 && memcmp(small, "MemTotal", 8) == 0);
    close(meminfo);
    check_call("stat /proc", stat("/proc", &st), 0);
    check_number("/proc is dr-xr-xr-x", st.st_mode, S_IFDIR | 0555);
    check_true("with 2 links and one per subdirectory", st.st_nlink > 2);
    check_call("stat /bin/fs_test", stat("/bin/fs_test", &st), 0);
    check_true("a program is a regular file with its image's size",
               S_ISREG(st.st_mode) && st.st_size > 1000);
    check_call("stat /sys/kernel/tracing/trace", stat("/sys/kernel/tracing/trace", &st), 0);
    check_true("generated text has size 0", S_ISREG(st.st_mode) && st.st_size == 0);
    check_call("lstat /proc/self", lstat("/proc/self", &st), 0);
    check_true("it is a symbolic link", S_ISLNK(st.st_mode));
    check_call("stat /proc/self", stat("/proc/self", &st), 0);
    check_true("which leads to a directory", S_ISDIR(st.st_mode));
    check_call("stat /dev/nothing", stat("/dev/nothing", &st), ENOENT);
    check_call("stat /dev/null/x", stat("/dev/null/x", &st), ENOTDIR);
    check_call("stat of an empty path", stat("", &st), ENOENT);
    int fd = open("/dev", O_RDONLY | O_DIRECTORY);
    check_call("fstatat(/dev fd, \"null\")", fstatat(fd, "null", &st, 0), 0);
    check_number("gives /dev/null", st.st_rdev, 0x103);
    check_call("fstatat(fd, \"\", AT_EMPTY_PATH)", fstatat(fd, "", &st, AT_EMPTY_PATH), 0);
    check_true("gives the directory", S_ISDIR(st.st_mode));
    check_call("fstatat(fd, \"\", 0)", fstatat(fd, "", &st, 0), ENOENT);
    check_call("fstatat with an unknown flag", fstatat(fd, "null", &st, 0x8000), EINVAL);
    close(fd);
    struct statx sx;
    check_call("statx /dev/null", statx(AT_FDCWD, "/dev/null", 0, STATX_BASIC_STATS, &sx), 0);
    check_true("statx: basic stats, 1:3, crw-rw-rw-",
               sx.stx_mask == STATX_BASIC_STATS && sx.stx_rdev_major == 1 &&
               sx.stx_rdev_minor == 3 && sx.stx_mode == (S_IFCHR | 0666));
    check_call("statx with STATX__RESERVED", statx(AT_FDCWD, "/dev/null", 0, STATX__RESERVED, &sx), EINVAL);
    check_call("statx with both sync types", statx(AT_FDCWD, "/dev/null", AT_STATX_SYNC_TYPE, 0, &sx), EINVAL);
    unsigned char old[64];
    check_call("the old stat (106)", syscall(SYS_stat, "/dev/null", old), 0);
    check_true("its st_mode (16 bits at offset 8)", (old[8] | old[9] << 8) == (S_IFCHR | 0666));

    char link[64];
    char want[16];
    snprintf(want, sizeof want, "%d", getpid());
    long n = readlink("/proc/self", link, sizeof link);
    check_true("readlink /proc/self is our pid", n == (long)strlen(want) && memcmp(link, want, (size_t)n) == 0);
    n = readlink("/proc/self/exe", link, sizeof link);
    check_true("readlink /proc/self/exe is /bin/fs_test", n == 12 && memcmp(link, "/bin/fs_test", 12) == 0);
    check_number("readlink cuts to bufsiz", readlink("/proc/self/exe", link, 4), 4);
    check_call("readlink of a file", readlink("/dev/null", link, sizeof link), EINVAL);
    check_call("readlink with bufsiz 0", readlink("/proc/self", link, 0), EINVAL);
    fd = open("/proc", O_RDONLY | O_DIRECTORY);
    check_number("readlinkat(/proc fd, \"self\")", readlinkat(fd, "self", link, sizeof link), (long)strlen(want));
    close(fd);
    fd = open("/proc/self/status", O_RDONLY);
    n = read(fd, buf, 1000);
    buf[n > 0 ? n : 0] = '\0';
    check_true("/proc/self/status names us", strstr(buf, "Name:\tfs_test\n") != NULL);
    close(fd);
    check_call("open /proc/self with O_NOFOLLOW", open("/proc/self", O_RDONLY | O_NOFOLLOW), ELOOP);
    check_call("open /dev/null with O_DIRECTORY", open("/dev/null", O_RDONLY | O_DIRECTORY), ENOTDIR);
    check_call("open /dev for writing", open("/dev", O_WRONLY), EISDIR);
    fd = open("/dev", O_RDONLY);
    check_call("read of a directory", read(fd, buf, 10), EISDIR);
    close(fd);

    check_true("readdir /dev: \"null\" is DT_CHR", has_entry("/dev", "null", DT_CHR));
    check_true("readdir /dev: \".\" and \"..\" are DT_DIR",
               has_entry("/dev", ".", DT_DIR) && has_entry("/dev", "..", DT_DIR));
    check_true("readdir /proc: \"self\" is DT_LNK", has_entry("/proc", "self", DT_LNK));
    check_true("readdir /: \"sys\" is DT_DIR", has_entry("/", "sys", DT_DIR));
    check_true("readdir /sys/kernel/tracing: \"trace\" is DT_REG",
               has_entry("/sys/kernel/tracing", "trace", DT_REG));
    check_true("readdir /sys/kernel/debug: \"tracing\" is DT_LNK",
               has_entry("/sys/kernel/debug", "tracing", DT_LNK));
    fd = open("/dev", O_RDONLY | O_DIRECTORY);
    check_call("getdents64 with room for no entry", getdents64(fd, buf, 10), EINVAL);
    check_call("getdents64 of a file", getdents64(0, buf, 100), ENOTDIR);
    unsigned char old_buf[512];
    n = syscall(SYS_getdents, fd, old_buf, sizeof old_buf);
    check_true("getdents (141): \".\" first, d_type DT_DIR as the record's last byte",
               n > 0 && old_buf[10] == '.' && old_buf[11] == 0 &&
               old_buf[(old_buf[8] | old_buf[9] << 8) - 1] == DT_DIR);
    close(fd);
}

static void directories(void)
{
    char cwd[64];
    check_true("getcwd is the shell's, /sys/kernel/tracing, at the start",
               getcwd(cwd, sizeof cwd) && strcmp(cwd, "/sys/kernel/tracing") == 0);
    check_call("stat trace, relative to it", stat("trace", &(struct stat){ 0 }), 0);
    check_call("chdir /dev", chdir("/dev"), 0);
    check_true("getcwd is /dev", getcwd(cwd, sizeof cwd) && strcmp(cwd, "/dev") == 0);
    check_call("getcwd into 4 bytes", getcwd(cwd, 4) ? 0 : -1, ERANGE);
    struct stat st;
    check_call("stat of a relative path", stat("null", &st), 0);
    check_number("finds /dev/null", st.st_rdev, 0x103);
    check_call("stat ../proc/self/exe", stat("../proc/self/exe", &st), 0);
    check_call("access(\"zero\", R_OK)", access("zero", R_OK), 0);
    check_call("chdir to a file", chdir("null"), ENOTDIR);
    check_call("chdir ..", chdir(".."), 0);
    check_true("getcwd is / again", getcwd(cwd, sizeof cwd) && strcmp(cwd, "/") == 0);
    int dev = open("/dev", O_RDONLY | O_DIRECTORY);
    int fd = openat(dev, "zero", O_RDONLY);
    check_true("openat(/dev fd, \"zero\")", fd >= 0);
    memset(buf, 1, 16);
    check_true("/dev/zero reads zeros", read(fd, buf, 16) == 16 && buf[0] == 0 && buf[15] == 0);
    check_call("openat with a file as the directory", openat(fd, "x", O_RDONLY), ENOTDIR);
    check_call("openat with a closed descriptor", openat(30, "x", O_RDONLY), EBADF);
    int abs = openat(30, "/dev/null", O_RDONLY);
    check_true("openat ignores the directory for an absolute path", abs >= 0);
    close(abs);
    close(fd);
    check_call("fchdir(/dev fd)", fchdir(dev), 0);
    check_true("getcwd is /dev", getcwd(cwd, sizeof cwd) && strcmp(cwd, "/dev") == 0);
    fd = open("null", O_WRONLY);
    check_true("open of a relative path after fchdir", fd >= 0);
    close(fd);
    fd = open("/dev/null", O_RDONLY);
    check_call("fchdir to a file", fchdir(fd), ENOTDIR);
    close(fd);
    close(dev);
    chdir("/sys/kernel/debug/tracing/events");
    check_true("chdir through debugfs's tracing link: getcwd /sys/kernel/tracing/events",
               getcwd(cwd, sizeof cwd) && strcmp(cwd, "/sys/kernel/tracing/events") == 0);
    chdir("/");
    check_number("umask was 022", umask(077), 022);
    check_number("umask now 077", umask(022), 077);
    fd = open("/proc/meminfo", O_RDONLY);
    char first[20], again[20];
    read(fd, first, sizeof first);
    check_number("lseek(fd, 0, SEEK_CUR) after 20 bytes", lseek(fd, 0, SEEK_CUR), 20);
    check_number("lseek(fd, 3, SEEK_SET)", lseek(fd, 3, SEEK_SET), 3);
    read(fd, again, sizeof again);
    check_true("reads from offset 3", memcmp(first + 3, again, 17) == 0);
    check_call("SEEK_END on generated text", lseek(fd, 0, SEEK_END), EINVAL);
    check_call("lseek to a negative offset", lseek(fd, -100, SEEK_SET), EINVAL);
    check_call("lseek with whence 7", lseek(fd, 0, 7), EINVAL);
    long long result = -1;
    check_call("_llseek to 5", syscall(SYS_llseek, fd, 0, 5, &result, SEEK_SET), 0);
    check_number("_llseek's result", result, 5);
    check_call("lseek beyond the text", lseek(fd, 100000, SEEK_SET), 0);
    check_number("then read gives 0", read(fd, again, sizeof again), 0);
    close(fd);
    check_call("lseek on the console", lseek(0, 0, SEEK_CUR), ESPIPE);
    check_call("access with mode 8", access("/dev/null", 8), EINVAL);
    check_call("faccessat2 with an unknown flag", faccessat(AT_FDCWD, "/dev/null", R_OK, 0x4000), EINVAL);
    check_call("access(/proc/self/exe, X_OK)", access("/proc/self/exe", X_OK), 0);
    /* Each "self" is a link: a walk may pass through many (ELOOP is past 40, which a
     * path of FS_PATH_MAX cannot reach here: tests/unit/test_fs_tree.c checks it). */
    char many[256] = "/proc";
    for (int i = 0; i < 30; i++)
        memcpy(many + 5 + i * 8, "/self/..", 9);
    check_call("a walk through 30 links", stat(many, &st), 0);
}

static void terminal(void)
{
    check_true("isatty(0)", isatty(0));
    struct termios t;
    check_call("TCGETS", tcgetattr(0, &t), 0);
    check_true("the defaults: ICANON ECHO ISIG, OPOST ONLCR, ICRNL, VERASE DEL, VEOF ^D, VMIN 1",
               (t.c_lflag & (ICANON | ECHO | ISIG)) == (ICANON | ECHO | ISIG) &&
               (t.c_oflag & (OPOST | ONLCR)) == (OPOST | ONLCR) && (t.c_iflag & ICRNL) &&
               t.c_cc[VERASE] == 0177 && t.c_cc[VEOF] == 4 && t.c_cc[VMIN] == 1);
    struct termios raw = t;
    cfmakeraw(&raw);
    check_call("TCSETS raw", tcsetattr(0, TCSANOW, &raw), 0);
    struct termios got;
    tcgetattr(0, &got);
    check_true("TCGETS gives the raw settings back", !(got.c_lflag & (ICANON | ECHO | ISIG)));
    write(1, "raw\n", 4);
    write(1, "\r", 1);
    check_call("TCSETSF back to the defaults", tcsetattr(0, TCSAFLUSH, &t), 0);
    check_call("tcsetattr with when 5", tcsetattr(0, 5, &t), EINVAL);
    struct winsize ws;
    check_call("TIOCGWINSZ", ioctl(0, TIOCGWINSZ, &ws), 0);
    check_true("80 x 24", ws.ws_col == 80 && ws.ws_row == 24);
    int pgrp = 0;
    check_call("TIOCGPGRP", ioctl(0, TIOCGPGRP, &pgrp), 0);
    check_true("the foreground group is ours", pgrp == getpid());
    check_call("TIOCSPGRP to our own group", ioctl(0, TIOCSPGRP, &pgrp), 0);
    int none = 99999;
    check_call("TIOCSPGRP to a group nobody has", ioctl(0, TIOCSPGRP, &none), ESRCH);
    int negative = -5;
    check_call("TIOCSPGRP to a negative group", ioctl(0, TIOCSPGRP, &negative), EINVAL);
    check_call("TIOCSCTTY", ioctl(0, TIOCSCTTY, 0), 0);
    check_call("TCGETS on /dev/null", ioctl(open("/dev/null", O_RDONLY), TCGETS, &t), ENOTTY);
    check_call("an unknown ioctl on the console", ioctl(0, 0x5499, 0), ENOTTY);
    int fl = fcntl(0, F_GETFL);
    fcntl(0, F_SETFL, fl | O_NONBLOCK);
    check_call("a nonblocking read of the console with nothing typed", read(0, buf, 10), EAGAIN);
    fcntl(0, F_SETFL, fl);
    struct pollfd pf = { 0, POLLIN | POLLOUT, 0 };
    check_number("poll: the console is writable, nothing to read", poll(&pf, 1, 0), 1);
    check_true("revents POLLOUT", pf.revents == POLLOUT);
}

static void polling(void)
{
    int p[2];
    pipe(p);
    struct pollfd pf[3] = { { p[0], POLLIN, 0 }, { -1, POLLIN, 0 }, { 29, POLLIN, 0 } };
    long long start = now_ms();
    check_number("poll times out after 50 ms", poll(pf, 2, 50), 0);
    check_true("and no sooner", now_ms() - start >= 50);
    check_number("a closed fd is POLLNVAL", poll(pf, 3, 0), 1);
    check_true("revents 0, 0, POLLNVAL", pf[0].revents == 0 && pf[1].revents == 0 && pf[2].revents == POLLNVAL);
    check_call("poll of more than RLIMIT_NOFILE", poll(pf, 1025, 0), EINVAL);
    write(p[1], "x", 1);
    struct timespec ts = { 0, 0 };
    check_number("ppoll sees the byte", ppoll(pf, 1, &ts, NULL), 1);
    uint64_t mask = 0;
    check_number("ppoll with a signal mask", ppoll(pf, 1, &ts, &mask), 1);
    ts.tv_nsec = 1000000000;
    check_call("ppoll with tv_nsec 10^9", ppoll(pf, 1, &ts, NULL), EINVAL);
    fd_set r, w;
    FD_ZERO(&r);
    FD_ZERO(&w);
    FD_SET(p[0], &r);
    FD_SET(p[1], &w);
    struct timeval tv = { 1, 0 };
    check_number("select: read end and write end ready", select(p[1] + 1, &r, &w, NULL, &tv), 2);
    check_true("both bits kept", FD_ISSET(p[0], &r) && FD_ISSET(p[1], &w));
    read(p[0], buf, 1);
    FD_ZERO(&r);
    FD_SET(p[0], &r);
    tv = (struct timeval){ 0, 20000 };
    start = now_ms();
    check_number("select times out after 20 ms", select(p[0] + 1, &r, NULL, NULL, &tv), 0);
    check_true("its timeval says no time is left", tv.tv_sec == 0 && tv.tv_usec == 0 && now_ms() - start >= 20);
    check_true("and the read bit is cleared", !FD_ISSET(p[0], &r));
    FD_SET(28, &r);
    check_call("select of a closed fd", select(29, &r, NULL, NULL, &tv), EBADF);
    check_call("select with nfds -1", select(-1, NULL, NULL, NULL, &tv), EINVAL);
    tv = (struct timeval){ 0, 0 };
    check_number("select with a huge nfds and no sets", select(1 << 30, NULL, NULL, NULL, &tv), 0);
    tv.tv_usec = 2000000;
    check_call("select with tv_usec 2000000", select(1, NULL, NULL, NULL, &tv), EINVAL);
    long pargs[6] = { p[1] + 1, 0, (long)&w, 0, (long)&ts, 0 };
    ts = (struct timespec){ 0, 0 };
    FD_ZERO(&w);
    FD_SET(p[1], &w);
    check_number("pselect6 (308)", syscall(SYS_pselect6, pargs[0], pargs[1], pargs[2], pargs[3], pargs[4], pargs[5]), 1);
    long long ts64[2] = { 0, 0 };
    check_number("ppoll_time64 (414)", syscall(SYS_ppoll_time64, pf, 1, ts64, 0, 8), 0);
    long sel[5] = { p[1] + 1, 0, (long)&w, 0, (long)&tv };
    tv = (struct timeval){ 0, 0 };
    check_number("the old select (82)", syscall(SYS_select, sel), 1);
    close(p[0]);
    close(p[1]);
}

/* As an ordinary user: access() checks the real ids, a refusal is EACCES. */
static void as_user(void)
{
    check_call("access(/dev/kmsg, W_OK)", access("/dev/kmsg", W_OK), EACCES);
    check_call("access(/dev/kmsg, R_OK)", access("/dev/kmsg", R_OK), 0);
    check_call("access(/sys/kernel/tracing/trace, R_OK)", access("/sys/kernel/tracing/trace", R_OK), EACCES);
    check_call("chdir /sys/kernel/tracing/events", chdir("/sys/kernel/tracing/events"), EACCES);
    check_call("stat in a directory we may not search",
               stat("/sys/kernel/tracing/events/enable", &(struct stat){ 0 }), EACCES);
    check_call("stat /proc/self/exe", stat("/proc/self/exe", &(struct stat){ 0 }), 0);
}

/* As root with the real uid 1000: access() says what uid 1000 may do, AT_EACCESS what root may. */
static void real_ids(void)
{
    check_call("setresuid(1000, 0, 0)", setresuid(1000, 0, 0), 0);
    check_call("access(/dev/kmsg, W_OK) with real uid 1000", access("/dev/kmsg", W_OK), EACCES);
    check_call("faccessat(AT_EACCESS) with effective uid 0",
               faccessat(AT_FDCWD, "/dev/kmsg", W_OK, AT_EACCESS), 0);
    setresuid(0, 0, 0);
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "sigpipe") == 0) {
        int p[2];
        pipe(p);
        close(p[0]);
        write(p[1], "x", 1);
        printf("fs_test: still alive after writing to a broken pipe\n");
        return 1;
    }
    if (argc > 1 && strcmp(argv[1], "user") == 0) {
        as_user();
        return check_summary("fs_test user");
    }
    descriptors();
    pipes();
    metadata();
    directories();
    terminal();
    polling();
    real_ids();
    return check_summary("fs_test");
}
