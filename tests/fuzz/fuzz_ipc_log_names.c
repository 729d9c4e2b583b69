/* fuzz_ipc_log_names.c - the table of IPC log contexts by name (ipc_log_names.c) driven by
 * arbitrary bytes: each pair of bytes adds or removes one of 64 names (short ones that
 * collide in a small table), and the table grows as the kernel grows it. After every step
 * each name is found exactly when a plain array says it is in, and the count agrees. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace/ipc_logging/ipc_log_names.h"

#define NAMES 64

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static char text[NAMES][8];
    struct ipc_log_name nodes[NAMES];
    struct ipc_log_name *first_buckets[1];
    bool in[NAMES] = { false };
    uint32_t live = 0;
    struct ipc_log_names t;
    ipc_log_names_init(&t, first_buckets, 1);
    for (int i = 0; i < NAMES; i++) {
        snprintf(text[i], sizeof text[i], "%x", i * 7); /* "0", "7", "e", ... */
        nodes[i].name = text[i];
    }
    for (size_t p = 0; p + 1 < size; p += 2) {
        int i = data[p] % NAMES;
        if (data[p + 1] & 1) {
            if (!in[i]) {
                if (ipc_log_names_find(&t, text[i]))
                    abort();
                ipc_log_names_add(&t, &nodes[i]);
                if (ipc_log_names_want_grow(&t)) {
                    uint32_t n = t.bucket_count * 2;
                    struct ipc_log_name **old = ipc_log_names_rehash(&t, malloc(n * sizeof *old), n);
                    if (old != first_buckets)
                        free(old);
                }
                in[i] = true;
                live++;
            }
        } else if (ipc_log_names_remove(&t, &nodes[i]) != in[i]) {
            abort();
        } else if (in[i]) {
            in[i] = false;
            live--;
        }
        if (t.count != live || t.count > t.bucket_count)
            abort();
        for (int k = 0; k < NAMES; k++)
            if ((ipc_log_names_find(&t, text[k]) == &nodes[k]) != in[k])
                abort();
    }
    if (t.buckets != first_buckets)
        free(t.buckets);
    return 0;
}
