/*
 * fuzz_tk_tracedat.c - tracedat_guest_sizes (tools/tkconvert/tracedat.c) on arbitrary text
 * in place of the guest's events/header_page, which comes from the capture.
 *
 * Invariants: no crash and no read outside the input (ASan: an exactly-sized NUL-terminated
 * copy); an answer is only ever a long of 4 or 8 bytes and a page of 512 bytes to 1 MiB,
 * and a refusal leaves the outputs untouched.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tools/tkconvert/tracedat.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    unsigned long_size = 12345, page_size = 12345;
    if (tracedat_guest_sizes(text, &long_size, &page_size) == 0) {
        if ((long_size != 4 && long_size != 8) || page_size < 512 || page_size > (1u << 20))
            abort();
    } else if (long_size != 12345 || page_size != 12345) {
        abort();
    }
    free(text);
    return 0;
}
