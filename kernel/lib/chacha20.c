/*
 * chacha20.c - the ChaCha20 block function (chacha20.h), written from RFC 8439.
 */
#include "kernel/lib/chacha20.h"

static uint32_t rotl32(uint32_t v, unsigned n) { return (v << n) | (v >> (32 - n)); }

/* The quarter round of RFC 8439 section 2.1 on four words of the state. */
static void quarter_round(uint32_t *x, unsigned a, unsigned b, unsigned c, unsigned d)
{
    x[a] += x[b]; x[d] = rotl32(x[d] ^ x[a], 16);
    x[c] += x[d]; x[b] = rotl32(x[b] ^ x[c], 12);
    x[a] += x[b]; x[d] = rotl32(x[d] ^ x[a], 8);
    x[c] += x[d]; x[b] = rotl32(x[b] ^ x[c], 7);
}

void chacha20_block(const uint32_t key[CHACHA20_KEY_WORDS], uint32_t counter,
                    const uint32_t nonce[CHACHA20_NONCE_WORDS],
                    uint8_t out[CHACHA20_BLOCK_BYTES])
{
    /* "expand 32-byte k", then the key, the counter and the nonce. */
    uint32_t state[16] = { 0x61707865, 0x3320646e, 0x79622d32, 0x6b206574 };
    for (unsigned i = 0; i < CHACHA20_KEY_WORDS; i++)
        state[4 + i] = key[i];
    state[12] = counter;
    for (unsigned i = 0; i < CHACHA20_NONCE_WORDS; i++)
        state[13 + i] = nonce[i];
    uint32_t x[16];
    for (unsigned i = 0; i < 16; i++)
        x[i] = state[i];
    for (unsigned round = 0; round < 10; round++) { /* 20 rounds: column, then diagonal */
        quarter_round(x, 0, 4, 8, 12);
        quarter_round(x, 1, 5, 9, 13);
        quarter_round(x, 2, 6, 10, 14);
        quarter_round(x, 3, 7, 11, 15);
        quarter_round(x, 0, 5, 10, 15);
        quarter_round(x, 1, 6, 11, 12);
        quarter_round(x, 2, 7, 8, 13);
        quarter_round(x, 3, 4, 9, 14);
    }
    for (unsigned i = 0; i < 16; i++) {
        uint32_t w = x[i] + state[i];
        out[4 * i] = (uint8_t)w;
        out[4 * i + 1] = (uint8_t)(w >> 8);
        out[4 * i + 2] = (uint8_t)(w >> 16);
        out[4 * i + 3] = (uint8_t)(w >> 24);
    }
}
