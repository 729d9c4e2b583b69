/*
 * read_file.c - a whole file into memory (see read_file.h).
 */
#include "tools/tkconvert/read_file.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

void *tk_read_file(const char *path, size_t limit, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, used = 0;
    char *buf = malloc(cap);
    int err = buf ? 0 : ENOMEM;
    while (!err) {
        errno = 0;
        used += fread(buf + used, 1, cap - 1 - used, f); /* one byte kept for the NUL */
        if (ferror(f))
            err = errno ? errno : EIO; /* EISDIR for a directory */
        else if (used > limit)
            err = EFBIG;
        else if (used < cap - 1)
            break; /* the end of the file */
        else {
            char *bigger = realloc(buf, cap * 2);
            if (!bigger)
                err = ENOMEM;
            else {
                buf = bigger;
                cap *= 2;
            }
        }
    }
    fclose(f);
    if (err) {
        free(buf);
        errno = err;
        return NULL;
    }
    buf[used] = '\0';
    *size = used;
    return buf;
}
