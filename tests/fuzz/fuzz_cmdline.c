/*
 * fuzz_cmdline.c - kernel/lib/cmdline.c on arbitrary bytes.
 *
 * The input is a command line (cut at its first NUL, as the boot loader's string would be).
 * Besides what ASan/UBSan catch, it checks the promises of cmdline.h and cmdline.c and
 * aborts when one breaks: at most CMDLINE_MAX_PARAMS params, every key, value and the image
 * path inside storage and NUL-terminated there, no empty keys, and lookups and unused-key
 * lists that agree with a plain scan and stay NUL-terminated inside their buffers.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/lib/cmdline.h"

#define GUARD 0xa5 /* fills the bytes after an output buffer's size: they must stay so */

/* Aborts unless p is a NUL-terminated string that starts and ends inside cl's storage. */
static void check_stored_string(const struct cmdline *cl, const char *p)
{
    if (p == NULL || p < cl->storage || p >= cl->storage + CMDLINE_MAX_LEN)
        abort();
    if (memchr(p, '\0', (size_t)(cl->storage + CMDLINE_MAX_LEN - p)) == NULL)
        abort();
}

/* Aborts unless the parse result keeps the structural promises. */
static void check_structure(const struct cmdline *cl)
{
    if (cl->count < 0 || cl->count > CMDLINE_MAX_PARAMS)
        abort();
    if (cl->image != NULL) {
        check_stored_string(cl, cl->image);
        if (strchr(cl->image, '/') == NULL)
            abort();
    }
    for (int i = 0; i < cl->count; i++) {
        check_stored_string(cl, cl->params[i].key);
        check_stored_string(cl, cl->params[i].value);
        if (cl->params[i].key[0] == '\0' || cl->params[i].used)
            abort();
    }
}

/* Aborts unless cmdline_get returns the last word's value for key and marks all of them. */
static void check_lookup(struct cmdline *cl, const char *key)
{
    const char *expected = NULL;
    for (int i = 0; i < cl->count; i++)
        if (strcmp(cl->params[i].key, key) == 0)
            expected = cl->params[i].value;
    if (cmdline_get(cl, key) != expected)
        abort();
    for (int i = 0; i < cl->count; i++)
        if (strcmp(cl->params[i].key, key) == 0 && !cl->params[i].used)
            abort();
}

/*
 * Aborts unless cmdline_unused writes nothing past size bytes, NUL-terminates, returns the
 * number of unused keys, and writes exactly the longest run of them (first occurrences, in
 * order, space-separated) that fits. The expectation is built here by a plain scan.
 */
static void check_unused(const struct cmdline *cl, size_t size)
{
    char buf[64], expected[64] = "";
    size_t expected_len = 0;
    int expected_count = 0;
    bool full = false;

    for (int i = 0; i < cl->count; i++) {
        bool listed = true;
        for (int j = 0; j < cl->count; j++)
            if (strcmp(cl->params[j].key, cl->params[i].key) == 0 &&
                (cl->params[j].used || j < i))
                listed = false;
        if (!listed)
            continue;
        expected_count++;
        size_t need = (expected_len ? 1 : 0) + strlen(cl->params[i].key);
        if (full || expected_len + need + 1 > size) {
            full = true;
            continue;
        }
        if (expected_len)
            expected[expected_len++] = ' ';
        strcpy(expected + expected_len, cl->params[i].key);
        expected_len += strlen(cl->params[i].key);
    }

    memset(buf, GUARD, sizeof buf);
    int count = cmdline_unused(cl, size ? buf : NULL, size);
    if (count != expected_count)
        abort();
    for (size_t i = size; i < sizeof buf; i++)
        if ((unsigned char)buf[i] != GUARD)
            abort();
    if (size > 0 && (memchr(buf, '\0', size) == NULL || strcmp(buf, expected) != 0))
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static struct cmdline cl;
    char *text = malloc(size + 1);
    if (text == NULL)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';

    cmdline_parse(&cl, text);
    check_structure(&cl);

    static const size_t sizes[] = { 0, 1, 2, 9, 30, 64 };
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
        check_unused(&cl, sizes[i]);

    static const char *const keys[] = { "console", "debug", "a", "", "x=y", "loglevel" };
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
        check_lookup(&cl, keys[i]);
    if (cl.count > 0)
        check_lookup(&cl, cl.params[cl.count - 1].key);
    check_unused(&cl, 9);
    check_unused(&cl, 64);

    free(text);
    return 0;
}
