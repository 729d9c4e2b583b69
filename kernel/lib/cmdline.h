/*
 * cmdline.h - the kernel command line, as the boot loader hands it over.
 *
 * Words are `key=value` or bare `flag`; a value may be double-quoted to hold spaces
 * (`name="a b"`). Boot loaders put the image's path first (GRUB: `/boot/tracekern.elf ...`,
 * QEMU -kernel: the file name); a first word with a '/' and no '=' is taken as that path.
 * Portable: tests/unit/test_cmdline.c and tests/fuzz/fuzz_cmdline.c.
 */
#ifndef KERNEL_LIB_CMDLINE_H
#define KERNEL_LIB_CMDLINE_H

#include <stdbool.h>
#include <stddef.h>

#define CMDLINE_MAX_LEN 1024
#define CMDLINE_MAX_PARAMS 32

struct cmdline_param {
    const char *key;
    const char *value; /* "" for a bare flag */
    bool used;         /* some part of the kernel asked for it */
};

struct cmdline {
    char storage[CMDLINE_MAX_LEN];  /* keys and values, NUL-separated */
    const char *image;              /* boot loader's image path, or NULL */
    struct cmdline_param params[CMDLINE_MAX_PARAMS];
    int count;
    bool truncated;                 /* input longer than storage or more words than params */
};

/* Splits text into params. Never fails: what does not fit is dropped and sets truncated. */
void cmdline_parse(struct cmdline *cl, const char *text);

/* The value of the last `key` or `key=value` (a later word overrides an earlier one, as in
 * Linux), or NULL. Marks every word with that key as used. */
const char *cmdline_get(struct cmdline *cl, const char *key);

/* Writes the keys no one asked for, space-separated, into buf; returns how many. */
int cmdline_unused(const struct cmdline *cl, char *buf, size_t size);

#endif
