/*
 * mkcpio.c - writes a Linux initramfs (a cpio archive in the "newc" format, uncompressed)
 * from a list of entries, so that `make compare` can boot Linux on an initramfs built on
 * the host without a cpio program. usage: mkcpio LIST > ARCHIVE
 *
 * LIST has one entry a line (blank lines and lines starting with # are skipped):
 *   dir  PATH MODE                 a directory
 *   file PATH MODE SOURCE          a regular file with the contents of host file SOURCE
 *   nod  PATH MODE c|b MAJOR MINOR a device node
 * PATH is the name in the archive, without a leading "/"; MODE is octal permissions. Every
 * entry is owned by root, dated 0. The archive ends with the TRAILER!!! entry.
 *
 * newc (the kernel's Documentation/driver-api/early-userspace/buffer-format.rst): per
 * entry the magic "070701", thirteen 8-digit hex fields, the NUL-terminated name padded to
 * 4 bytes (counting the 110-byte header), then the data padded to 4 bytes.
 * Exit status 0; 1 with a message naming the line on a bad entry or an unreadable file.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static unsigned long next_inode = 1;
static unsigned long written; /* bytes of the archive so far, for the padding */

static void pad4(void)
{
    while (written % 4 != 0) {
        putchar(0);
        written++;
    }
}

/* One header, its name and its data (size bytes, may be NULL when size is 0). */
static void put_entry(const char *name, unsigned long mode, unsigned long nlink,
    unsigned long rmajor, unsigned long rminor, const char *data, unsigned long size)
{
    unsigned long fields[13] = {
        next_inode++, mode, 0, 0, nlink, 0, size, 0, 0, rmajor, rminor, strlen(name) + 1, 0,
    };
    written += (unsigned long)printf("070701");
    for (int i = 0; i < 13; i++)
        written += (unsigned long)printf("%08lX", fields[i]);
    fwrite(name, 1, strlen(name) + 1, stdout);
    written += strlen(name) + 1;
    pad4();
    if (size > 0)
        fwrite(data, 1, size, stdout);
    written += size;
    pad4();
}

/* The whole of host file path in a malloc'ed buffer; NULL when it cannot be read. */
static char *read_whole(const char *path, unsigned long *size)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return NULL;
    char *buf = NULL;
    unsigned long used = 0, capacity = 0;
    for (;;) {
        if (used == capacity) {
            capacity = capacity ? capacity * 2 : 65536;
            char *bigger = realloc(buf, capacity);
            if (bigger == NULL) {
                free(buf);
                fclose(f);
                return NULL;
            }
            buf = bigger;
        }
        size_t n = fread(buf + used, 1, capacity - used, f);
        if (n == 0)
            break;
        used += n;
    }
    int bad = ferror(f);
    fclose(f);
    if (bad) {
        free(buf);
        return NULL;
    }
    *size = used;
    return buf;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: mkcpio LIST > ARCHIVE\n");
        return 2;
    }
    FILE *list = fopen(argv[1], "r");
    if (list == NULL) {
        perror(argv[1]);
        return 1;
    }
    char line[1024];
    int number = 0;
    while (fgets(line, sizeof line, list) != NULL) {
        number++;
        char path[256], source[512], type;
        unsigned long mode, major, minor;
        if (line[0] == '#' || strspn(line, " \t\r\n") == strlen(line))
            continue;
        if (sscanf(line, "dir %255s %lo", path, &mode) == 2) {
            put_entry(path, S_IFDIR | mode, 2, 0, 0, NULL, 0);
        } else if (sscanf(line, "file %255s %lo %511s", path, &mode, source) == 3) {
            unsigned long size;
            char *data = read_whole(source, &size);
            if (data == NULL) {
                fprintf(stderr, "mkcpio: %s line %d: cannot read %s\n", argv[1], number, source);
                return 1;
            }
            put_entry(path, S_IFREG | mode, 1, 0, 0, data, size);
            free(data);
        } else if (sscanf(line, "nod %255s %lo %c %lu %lu", path, &mode, &type, &major, &minor) == 5 &&
                   (type == 'c' || type == 'b')) {
            put_entry(path, (type == 'c' ? S_IFCHR : S_IFBLK) | mode, 1, major, minor, NULL, 0);
        } else {
            fprintf(stderr, "mkcpio: %s line %d: not an entry: %s", argv[1], number, line);
            return 1;
        }
    }
    fclose(list);
    put_entry("TRAILER!!!", 0, 1, 0, 0, NULL, 0);
    if (fflush(stdout) != 0 || ferror(stdout)) {
        perror("mkcpio: writing the archive");
        return 1;
    }
    return 0;
}
