/*
 * fuzz_driver.c - runs a libFuzzer-style target without libFuzzer.
 *
 * Every fuzz target in this folder defines LLVMFuzzerTestOneInput(). Built with clang's
 * -fsanitize=fuzzer (`make fuzz`) it is coverage-guided; built with this driver (what
 * `make test` does, with gcc and ASan/UBSan) it replays the seed corpus and then a fixed
 * number of deterministic mutations of it, so every run of the suite checks the same inputs
 * and a crash found once is found again.
 *
 * usage: fuzz_TARGET ITERATIONS [SEED_FILE...]
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_INPUT 4096
#define MAX_SEEDS 64

static uint8_t seeds[MAX_SEEDS][MAX_INPUT];
static size_t seed_sizes[MAX_SEEDS];
static int seed_count;

/* xorshift32: deterministic so that a failing iteration number can be replayed. */
static uint32_t rng_state = 0x12345678u;
static uint32_t next_random(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 17;
    rng_state ^= rng_state << 5;
    return rng_state;
}

/* Interesting bytes for text parsers: separators, quotes, digits, controls, high bytes. */
static const uint8_t dictionary[] = " \t\n\r=,;:>\"'\\/#0123456789xX-+*!\x00\x03\x08\x7f\xff";

static size_t mutate(uint8_t *buf, size_t size)
{
    int edits = 1 + (int)(next_random() % 8);
    for (int e = 0; e < edits; e++) {
        uint32_t r = next_random();
        size_t pos = size ? next_random() % size : 0;
        switch (r % 5) {
        case 0: /* flip a byte */
            if (size)
                buf[pos] ^= (uint8_t)(1u << (next_random() % 8));
            break;
        case 1: /* insert a dictionary byte */
            if (size < MAX_INPUT) {
                memmove(buf + pos + 1, buf + pos, size - pos);
                buf[pos] = dictionary[next_random() % (sizeof dictionary - 1)];
                size++;
            }
            break;
        case 2: /* delete a byte */
            if (size) {
                memmove(buf + pos, buf + pos + 1, size - pos - 1);
                size--;
            }
            break;
        case 3: /* random byte */
            if (size)
                buf[pos] = (uint8_t)next_random();
            break;
        default: /* duplicate a chunk */
            if (size && size * 2 <= MAX_INPUT) {
                size_t len = 1 + next_random() % size;
                if (pos + len > size)
                    len = size - pos;
                memmove(buf + pos + len, buf + pos, size - pos);
                size += len;
            }
            break;
        }
    }
    return size;
}

int main(int argc, char **argv)
{
    long iterations = argc > 1 ? atol(argv[1]) : 10000;
    static uint8_t input[MAX_INPUT];

    for (int i = 2; i < argc && seed_count < MAX_SEEDS; i++) {
        FILE *f = fopen(argv[i], "rb");
        if (!f) {
            perror(argv[i]);
            return 2;
        }
        seed_sizes[seed_count] = fread(seeds[seed_count], 1, MAX_INPUT, f);
        fclose(f);
        LLVMFuzzerTestOneInput(seeds[seed_count], seed_sizes[seed_count]);
        seed_count++;
    }
    for (long it = 0; it < iterations; it++) {
        size_t size;
        if (seed_count && next_random() % 8) {
            int s = (int)(next_random() % (uint32_t)seed_count);
            size = seed_sizes[s];
            memcpy(input, seeds[s], size);
        } else {
            size = next_random() % 64;
            for (size_t i = 0; i < size; i++)
                input[i] = (uint8_t)next_random();
        }
        size = mutate(input, size);
        /* Hand the target an exactly-sized heap copy so ASan sees any over-read. */
        uint8_t *exact = malloc(size ? size : 1);
        memcpy(exact, input, size);
        LLVMFuzzerTestOneInput(exact, size);
        free(exact);
    }
    printf("fuzz: %ld inputs (+%d seeds) ran clean\n", iterations, seed_count);
    return 0;
}
