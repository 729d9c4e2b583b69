/*
 * libc_linux.c - the parts of the user library that follow Linux's and glibc's headers
 * (issue 16), checked in the guest: <linux/types.h> sizes, <endian.h>, <asm/bitsperlong.h>,
 * <linux/ioctl.h> numbers against the kernel's, sysconf, uname, getrandom, gettimeofday,
 * time, and FILE streams (fopen/fgets/fread/fwrite/fprintf/fflush/setvbuf/ungetc/feof,
 * stdout and stderr). One TAP-like line per check (tracekern/check.h).
 */
#include <asm/bitsperlong.h>
#include <endian.h>
#include <errno.h>
#include <linux/types.h>
#include <linux/user_events.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>
#include <sys/time.h>
#include <sys/utsname.h>
#include <time.h>
#include <tracekern/check.h>
#include <unistd.h>

#define TRACEFS "/sys/kernel/tracing/"

static void headers(void)
{
    check_true("__u8/__u16/__u32/__u64 and __s64 have Linux's sizes",
               sizeof(__u8) == 1 && sizeof(__u16) == 2 && sizeof(__u32) == 4 &&
                   sizeof(__u64) == 8 && sizeof(__s64) == 8 && (__s8)-1 < 0);
    check_number("__BITS_PER_LONG", __BITS_PER_LONG, 8 * sizeof(long));
    uint32_t v = 0x11223344;
    check_true("htole32 keeps, htobe32 swaps, be64toh swaps back",
               htole32(v) == v && htobe32(v) == 0x44332211u &&
                   be64toh(htobe64(0x0102030405060708ull)) == 0x0102030405060708ull);
    check_number("DIAG_IOCSREG = _IOWR('*', 0, struct user_reg *)", DIAG_IOCSREG, 0xc0042a00);
    check_number("sizeof(struct user_reg) (6.4)", sizeof(struct user_reg), 28);
}

static void system_calls(void)
{
    check_number("sysconf(_SC_PAGESIZE)", sysconf(_SC_PAGESIZE), 4096);
    check_number("sysconf(_SC_CLK_TCK)", sysconf(_SC_CLK_TCK), 100);
    check_number("sysconf(_SC_NPROCESSORS_ONLN) = /proc/cpuinfo's processors",
                 sysconf(_SC_NPROCESSORS_ONLN), cpus_in_cpuinfo());
    check_number("sysconf(_SC_OPEN_MAX)", sysconf(_SC_OPEN_MAX), 32);
    check_call("sysconf(12345) -> EINVAL", sysconf(12345), EINVAL);
    struct utsname u;
    check_call("uname", uname(&u), 0);
    check_true("uname: Linux i686", strcmp(u.sysname, "Linux") == 0 && strcmp(u.machine, "i686") == 0);
    unsigned char r[8] = { 0 };
    check_number("getrandom(8)", getrandom(r, sizeof r, 0), 8);
    struct timeval tv;
    check_call("gettimeofday", gettimeofday(&tv, 0), 0);
    time_t t = 0, now = time(&t);
    check_true("time() agrees with itself and with gettimeofday",
               now == t && now - tv.tv_sec >= 0 && now - tv.tv_sec <= 1);
}

static void streams(void)
{
    FILE *f = fopen("/proc/meminfo", "r");
    check_true("fopen /proc/meminfo", f != 0);
    char line[128] = "";
    check_true("fgets its first line: MemTotal:",
               f && fgets(line, sizeof line, f) && strncmp(line, "MemTotal:", 9) == 0 &&
                   line[strlen(line) - 1] == '\n');
    int c = f ? fgetc(f) : EOF;
    check_true("fgetc then ungetc give the same byte back",
               f && c != EOF && ungetc(c, f) == c && fgetc(f) == c);
    char rest[4096];
    size_t n = f ? fread(rest, 1, sizeof rest, f) : 0;
    check_true("fread reads to the end; feof then, no error",
               n > 0 && n < sizeof rest && f && feof(f) && !ferror(f));
    check_call("fclose", f ? fclose(f) : -1, 0);

    check_true("fopen of a missing file -> NULL, ENOENT",
               fopen("/no/such/file", "r") == 0 && errno == ENOENT);
    check_true("fopen with mode \"q\" -> NULL, EINVAL", fopen("/proc/meminfo", "q") == 0 && errno == EINVAL);

    FILE *marker = fopen(TRACEFS "trace_marker", "w");
    check_true("fopen trace_marker for writing", marker != 0);
    if (marker) {
        check_number("fprintf to it", fprintf(marker, "libc_linux %s %d", "fprintf", 42), 21);
        check_call("fflush writes it out", fflush(marker), 0);
        check_number("fwrite a second marker", fwrite("libc_linux fwrite", 1, 17, marker), 17);
        check_call("fclose writes the rest", fclose(marker), 0);
    }
    FILE *trace = fopen(TRACEFS "trace", "r");
    char text[8192];
    size_t len = trace ? fread(text, 1, sizeof text - 1, trace) : 0;
    text[len] = '\0';
    if (trace)
        fclose(trace);
    check_true("both markers are in the trace, one record each",
               strstr(text, "tracing_mark_write: libc_linux fprintf 42\n") &&
                   strstr(text, "tracing_mark_write: libc_linux fwrite\n"));

    check_call("setvbuf(stdout, _IOFBF) before output", setvbuf(stdout, 0, _IOFBF, 0), 0);
    printf("# fully buffered: this line and the next go out in one write\n");
    fputs("# ... at fflush\n", stdout);
    check_call("fflush(stdout)", fflush(stdout), 0);
    check_call("setvbuf(stdout, _IOLBF) again", setvbuf(stdout, 0, _IOLBF, 0), 0);
    check_true("fileno of the standard streams",
               fileno(stdin) == 0 && fileno(stdout) == 1 && fileno(stderr) == 2);
    check_number("fprintf(stderr)", fprintf(stderr, "# libc_linux: to stderr\n"), 24);
    check_call("setvbuf with a bad mode -> EINVAL", setvbuf(stderr, 0, 7, 0), EINVAL);
}

int main(void)
{
    headers();
    system_calls();
    streams();
    return check_summary("libc_linux");
}
