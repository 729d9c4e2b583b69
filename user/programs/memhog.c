/*
 * memhog.c - maps all the memory the kernel will give, then checks the kernel still works.
 *
 * Shows that a program cannot starve the kernel: anonymous mappings stop with ENOMEM while
 * the kernel still keeps a reserve of free pages for itself (arch/x86/address_space.c).
 * Holding everything it got but one page, memhog reads /proc/meminfo and writes to trace_marker, which
 * need kernel memory; when it exits, the memory comes back.
 *
 * Usage: memhog            as above
 *        memhog read FILE  reads one byte of FILE, which makes the kernel render all of its
 *                          text for this process, and exits without closing it: the pages
 *                          must come back all the same
 * Prints "memhog: got N MiB, then ENOMEM", the MemFree line of /proc/meminfo while it holds
 * them, and "memhog: trace_marker written"; exit status 0, or 1 if a step failed.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define CHUNK (1024 * 1024)

/* One byte of path, read and left open. */
static int read_one_byte(const char *path)
{
    char c;
    int fd = open(path, O_RDONLY);
    if (fd < 0 || read(fd, &c, 1) != 1) {
        perror("memhog: read");
        return 1;
    }
    printf("memhog: read the first byte of %s\n", path);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], "read") == 0)
        return read_one_byte(argv[2]);
    unsigned mib = 0;
    void *chunk, *last_chunk = MAP_FAILED;
    while ((chunk = mmap(0, CHUNK, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1,
                         0)) != MAP_FAILED)
        mib++, last_chunk = chunk;
    int err = errno;
    /* What the last MiB left over, a page at a time but one: reading /proc/meminfo needs a
     * page for its text, and how much was left over depends on the kernel's size. */
    void *page, *last = MAP_FAILED;
    while ((page = mmap(0, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)) !=
           MAP_FAILED)
        last = page;
    if (last != MAP_FAILED)
        munmap(last, 4096);
    else if (last_chunk != MAP_FAILED) /* the MiBs took it all: give back their last page */
        munmap((char *)last_chunk + CHUNK - 4096, 4096);
    printf("memhog: got %u MiB, then %s\n", mib, strerrorname_np(err));

    char text[512];
    int fd = open("/proc/meminfo", O_RDONLY);
    int len = fd >= 0 ? (int)read(fd, text, sizeof(text) - 1) : -1;
    close(fd);
    char *free_line = len > 0 ? (text[len] = '\0', strstr(text, "MemFree:")) : NULL;
    if (!free_line) {
        perror("memhog: /proc/meminfo");
        return 1;
    }
    *strchr(free_line, '\n') = '\0';
    printf("memhog: %s\n", free_line);

    char line[64];
    int n = snprintf(line, sizeof(line), "memhog holds %u MiB\n", mib);
    fd = open("/sys/kernel/tracing/trace_marker", O_WRONLY);
    if (fd < 0 || write(fd, line, (size_t)n) != n) {
        perror("memhog: trace_marker");
        return 1;
    }
    close(fd);
    printf("memhog: trace_marker written\n");
    return err == ENOMEM ? 0 : 1;
}
