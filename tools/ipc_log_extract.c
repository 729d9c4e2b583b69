/*
 * ipc_log_extract.c - prints the IPC logs held in a memory dump of a tracekern machine (or
 * of any 32-bit kernel with Qualcomm's IPC logging, layout version 1 or 2).
 *
 *   ipc_log_extract [-c NAME] DUMP
 *
 * DUMP is QEMU's `pmemsave 0 SIZE DUMP` (raw physical memory) or `dump-guest-memory DUMP`
 * (an ELF core). Every context found is printed as a header line and its events, oldest
 * first, in the kernel's `log` format (tools/ipc_log_dump.h); -c prints only the contexts
 * named NAME. Damage is reported on stderr and skipped, then a summary line follows.
 *
 * What Qualcomm's own parser (ipc_logging.py of linux-ramdump-parser-v2) cannot read is
 * said on stderr too, as notes: an ELF core (that parser scans a raw file only), and
 * events other than the string events of Qualcomm's ipc_logging.c (it stops at the first).
 * Exit status: 0 when a context was printed, 1 when none was (or DUMP cannot be read),
 * 2 on a usage error.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tools/ipc_log_dump.h"

/* Prints the usage and exits with 2. */
static void usage(void)
{
    fputs("usage: ipc_log_extract [-c NAME] DUMP\n"
          "  DUMP     raw physical memory (QEMU pmemsave) or an ELF core (dump-guest-memory;\n"
          "           Qualcomm's ipc_logging.py reads raw memory only)\n"
          "  -c NAME  print only the contexts named NAME\n",
          stderr);
    exit(2);
}

/* Maps the whole file read-only; exits with a message when it cannot. */
static const uint8_t *map_file(const char *path, size_t *size)
{
    struct stat st;
    int fd = open(path, O_RDONLY);
    if (fd < 0 || fstat(fd, &st) < 0) {
        fprintf(stderr, "ipc_log_extract: cannot read %s: %s\n", path, strerror(errno));
        exit(1);
    }
    if (!S_ISREG(st.st_mode) || st.st_size == 0) {
        fprintf(stderr, "ipc_log_extract: %s: not a dump (%s)\n", path,
                S_ISREG(st.st_mode) ? "empty file" : "not a regular file");
        exit(1);
    }
    *size = (size_t)st.st_size;
    void *p = mmap(NULL, *size, PROT_READ, MAP_PRIVATE, fd, 0);
    if (p == MAP_FAILED) {
        fprintf(stderr, "ipc_log_extract: cannot map %s: %s\n", path, strerror(errno));
        exit(1);
    }
    close(fd);
    return p;
}

int main(int argc, char **argv)
{
    const char *only = NULL, *path = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-c") == 0 && i + 1 < argc)
            only = argv[++i];
        else if (argv[i][0] == '-' || path)
            usage();
        else
            path = argv[i];
    }
    if (!path)
        usage();

    size_t size;
    const uint8_t *file = map_file(path, &size);
    struct dump_image img;
    struct extract_result result;
    if (dump_image_open(file, size, &img, stderr) < 0 ||
        ipc_log_extract(&img, only, stdout, stderr, &result) < 0) {
        fputs("ipc_log_extract: out of memory\n", stderr);
        return 1;
    }
    if (img.elf)
        fprintf(stderr, "ipc_log_extract: %s is an ELF core; Qualcomm's ipc_logging.py cannot "
                        "read it (it scans a raw file of physical memory only, as QEMU's "
                        "pmemsave writes)\n", path);
    dump_image_close(&img);
    fprintf(stderr, "ipc_log_extract: %s: %u contexts, %u events, %u problems\n", path,
            result.contexts, result.events, result.problems);
    if (result.contexts == 0) {
        fprintf(stderr, "ipc_log_extract: %s: no IPC logging context%s%s found\n", path,
                only ? " named " : "", only ? only : "");
        return 1;
    }
    return 0;
}
