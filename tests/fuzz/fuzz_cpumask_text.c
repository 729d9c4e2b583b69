/* fuzz_cpumask_text.c - cpumask_text_parse on arbitrary bytes for 1, 8 and 33 CPUs: never
 * reads outside the input; an accepted mask has no bit at or past the CPU count, and
 * prints to a text that parses back to the same mask. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "trace/core/cpumask_text.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const unsigned counts[] = { 1, 8, 33 };
    for (size_t k = 0; k < sizeof counts / sizeof counts[0]; k++) {
        unsigned ncpus = counts[k];
        uint32_t mask[CPUMASK_TEXT_WORDS], again[CPUMASK_TEXT_WORDS];
        if (cpumask_text_parse((const char *)data, size, ncpus, mask) != 0)
            continue;
        for (unsigned bit = ncpus; bit < CPUMASK_TEXT_MAX_CPUS; bit++)
            if (mask[bit / 32] >> (bit % 32) & 1)
                abort();
        char text[128];
        size_t n = cpumask_text_print(text, sizeof text, mask, ncpus);
        if (cpumask_text_parse(text, n, ncpus, again) != 0 || memcmp(mask, again, sizeof mask))
            abort();
    }
    return 0;
}
