/*
 * exe_bytes.c - a program reads its own file, as `md5sum /bin/busybox` or a debugger does on
 * Linux: /proc/self/exe and /bin/exe_bytes give the ELF image byte for byte, as many bytes
 * as stat's st_size, in any piece size, at any offset (read, lseek, pread64); the read-only
 * segments the loader placed in memory are those very bytes. Then the hostile reads: past
 * the end, huge counts, buffers the kernel may not write, negative and wrapping offsets,
 * each with Linux's answer.
 *
 * Prints one line per check (tracekern/check.h) and ends with "exe_bytes: P passed, F
 * failed"; the exit status is 1 when anything failed.
 */
#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <tracekern/check.h>
#include <unistd.h>

#define IMAGE_MAX (512u << 10)
#define KERNEL_TEXT 0xc0100000u
#define PT_LOAD 1
#define PF_W 2

/* The ELF header and program header fields this test reads (Linux's elf.h, 32-bit). */
struct elf_header {
    unsigned char ident[16];
    uint16_t type, machine;
    uint32_t version, entry, phoff, shoff, flags;
    uint16_t ehsize, phentsize, phnum, shentsize, shnum, shstrndx;
};
struct program_header {
    uint32_t type, offset, vaddr, paddr, filesz, memsz, flags, align;
};

extern char _start[];

static unsigned char image[IMAGE_MAX];  /* /proc/self/exe, read in odd pieces */
static unsigned char again[IMAGE_MAX];  /* /bin/exe_bytes, read in one piece */
static unsigned char small[64];

/* pread64 as Linux i386 takes it: the 64-bit offset in two registers, low half first. */
static long pread_at(int fd, void *buf, uint32_t count, uint64_t pos)
{
    return syscall(SYS_pread64, fd, buf, count, (uint32_t)pos, (uint32_t)(pos >> 32));
}

/* Reads the whole file from where fd is, piece bytes at a time: the total, or -1. */
static long read_all(int fd, unsigned char *buf, uint32_t room, uint32_t piece)
{
    uint32_t total = 0;
    for (;;) {
        uint32_t want = room - total < piece ? room - total : piece;
        long n = read(fd, buf + total, want);
        if (n < 0)
            return -1;
        if (n == 0 || want == 0)
            return total;
        total += (uint32_t)n;
    }
}

/* The read-only loadable segments in memory are the file's bytes at their offsets. */
static void check_segments(const unsigned char *file, uint32_t size)
{
    const struct elf_header *eh = (const void *)file;
    int compared = 0;
    bool headers_inside = size >= sizeof *eh && memcmp(eh->ident, "\177ELF", 4) == 0 &&
                          eh->phentsize >= sizeof(struct program_header) &&
                          eh->phoff <= size && (uint32_t)eh->phnum * eh->phentsize <= size - eh->phoff;
    if (!check_true("the program headers lie inside what was read", headers_inside))
        return;
    for (uint16_t i = 0; i < eh->phnum; i++) {
        const struct program_header *ph =
            (const void *)(file + eh->phoff + (uint32_t)i * eh->phentsize);
        if (ph->type != PT_LOAD || (ph->flags & PF_W))
            continue;
        if (ph->offset > size || ph->filesz > size - ph->offset)
            continue;
        check_true("a read-only segment in memory equals the file's bytes at its offset",
                   memcmp((const void *)(uintptr_t)ph->vaddr, file + ph->offset, ph->filesz) == 0);
        compared++;
    }
    check_true("the image has a read-only segment to compare", compared > 0);
}

int main(void)
{
    int fd = open("/proc/self/exe", O_RDONLY);
    check_call("open /proc/self/exe", fd, 0);
    struct stat st;
    check_call("fstat it", fstat(fd, &st), 0);
    check_true("st_size is an image that fits the test's buffer",
               st.st_size > 0 && st.st_size < (off_t)IMAGE_MAX);
    uint32_t size = (uint32_t)st.st_size;

    /* The whole file, in pieces of 777 bytes: exactly st_size bytes, then the end. */
    long total = read_all(fd, image, sizeof image, 777);
    check_number("read in 777-byte pieces gives st_size bytes", total, size);
    check_number("a read at the end gives 0", read(fd, small, sizeof small), 0);
    const struct elf_header *eh = (const void *)image;
    check_true("it starts with the ELF magic", memcmp(eh->ident, "\177ELF", 4) == 0);
    check_true("32-bit little-endian (ELFCLASS32, ELFDATA2LSB)",
               eh->ident[4] == 1 && eh->ident[5] == 1);
    check_number("e_machine is EM_386", eh->machine, 3);
    check_true("the entry point is this program's own code",
               eh->entry == (uint32_t)(uintptr_t)_start);
    check_segments(image, size);

    /* /bin/exe_bytes is the same file, read in one piece. */
    int bin = open("/bin/exe_bytes", O_RDONLY);
    check_call("open /bin/exe_bytes", bin, 0);
    check_number("one read of /bin/exe_bytes gives st_size bytes",
                 read(bin, again, sizeof again), size);
    check_true("the same bytes as /proc/self/exe", memcmp(image, again, size) == 0);

    /* lseek and pread64 at any offset. */
    check_number("lseek to the end says st_size", lseek(fd, 0, SEEK_END), size);
    check_number("lseek 16 before the end", lseek(fd, -16, SEEK_END), size - 16);
    check_number("read there gives the last 16 bytes", read(fd, small, sizeof small), 16);
    check_true("and they are the image's last 16", memcmp(small, image + size - 16, 16) == 0);
    check_number("pread64 of 3 bytes at offset 1", pread_at(fd, small, 3, 1), 3);
    check_true("gives \"ELF\"", memcmp(small, "ELF", 3) == 0);
    check_number("pread64 left the offset at the end", lseek(fd, 0, SEEK_CUR), size);
    check_number("pread64 at the last byte asking for 64 gives 1",
                 pread_at(fd, small, 64, size - 1), 1);
    check_number("pread64 at st_size gives 0", pread_at(fd, small, 64, size), 0);

    /* Hostile reads. */
    check_number("lseek far past the end is allowed", lseek(fd, 0x7fff0000, SEEK_SET), 0x7fff0000);
    check_number("read there gives 0", read(fd, small, sizeof small), 0);
    check_number("pread64 at 4 GiB + 1 (above 32 bits) gives 0",
                 pread_at(fd, small, 8, 0x100000001ull), 0);
    check_call("pread64 at a negative offset: EINVAL",
               pread_at(fd, small, 8, 0xffffffff00000000ull), EINVAL);
    check_call("pread64 at offset -1: EINVAL", pread_at(fd, small, 8, ~0ull), EINVAL);
    check_call("pread64 whose offset + count wraps past 2^63: EINVAL",
               pread_at(fd, small, 8, 0x7ffffffffffffffcull), EINVAL);
    check_number("lseek back to 100", lseek(fd, 100, SEEK_SET), 100);
    check_call("read of 4 GiB - 1 bytes: EFAULT (the buffer cannot be that big)",
               read(fd, small, 0xffffffffu), EFAULT);
    check_call("read into NULL: EFAULT", read(fd, 0, 16), EFAULT);
    check_call("read into the kernel: EFAULT", read(fd, (void *)KERNEL_TEXT, 16), EFAULT);
    check_call("read into this program's read-only code: EFAULT",
               read(fd, (void *)_start, 16), EFAULT);
    check_call("pread64 into the kernel: EFAULT",
               pread_at(fd, (void *)KERNEL_TEXT, 16, 0), EFAULT);
    check_number("a failed read leaves the offset where it was", lseek(fd, 0, SEEK_CUR), 100);
    check_number("lseek 10 before the end", lseek(fd, -10, SEEK_END), size - 10);
    check_number("a read asking for 256 MiB into a small buffer gets the 10 left",
                 read(fd, again, 256u << 20), 10);

    /* mmap: a private mapping holds the file's bytes, zero past the end of the last page;
     * writing it changes the process's copy only. */
    uint32_t mapped = (size + 4095) & ~4095u;
    unsigned char *map = mmap(0, mapped, PROT_READ, MAP_PRIVATE, fd, 0);
    check_true("mmap of the whole file, PROT_READ, MAP_PRIVATE", map != MAP_FAILED);
    if (map != MAP_FAILED) {
        check_true("it holds the file's bytes", memcmp(map, image, size) == 0);
        int zero = 1;
        for (uint32_t i = size; i < mapped; i++)
            zero &= map[i] == 0;
        check_true("and zeros after the end, to the end of the page", zero);
        check_call("munmap it", munmap(map, mapped), 0);
    }
    map = mmap(0, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 4096);
    check_true("mmap of the second page, writable, MAP_PRIVATE", map != MAP_FAILED);
    if (map != MAP_FAILED) {
        check_true("it holds the file's bytes at 4096", memcmp(map, image + 4096, 4096) == 0);
        memset(map, 0x55, 16);
        check_number("pread64 after writing the mapping", pread_at(bin, small, 16, 4096), 16);
        check_true("the file still has its own bytes", memcmp(small, image + 4096, 16) == 0);
        check_call("munmap it", munmap(map, 4096), 0);
    }
    check_call("mmap MAP_SHARED: ENODEV (only private copies here)",
               (long)mmap(0, 4096, PROT_READ, MAP_SHARED, fd, 0) == (long)MAP_FAILED ? -1 : 0,
               ENODEV);
    check_call("write to it: EBADF (opened for reading)", write(fd, "x", 1), EBADF);
    check_call("lseek before the start: EINVAL", lseek(fd, -1, SEEK_SET), EINVAL);
    check_call("close /proc/self/exe", close(fd), 0);
    check_call("close /bin/exe_bytes", close(bin), 0);
    return check_summary("exe_bytes");
}
