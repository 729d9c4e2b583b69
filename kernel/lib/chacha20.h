/*
 * chacha20.h - the ChaCha20 block function (RFC 8439, section 2.3): 64 bytes of key stream
 * from a 256-bit key, a 32-bit block counter and a 96-bit nonce. The kernel's random
 * generator (kernel/random.c) is built on it, as Linux's is. Portable; no state.
 */
#ifndef KERNEL_LIB_CHACHA20_H
#define KERNEL_LIB_CHACHA20_H

#include <stdint.h>

#define CHACHA20_KEY_WORDS 8
#define CHACHA20_NONCE_WORDS 3
#define CHACHA20_BLOCK_BYTES 64

/* Writes block number counter of the key stream for key and nonce into out, in the
 * RFC's byte order (each state word little-endian). */
void chacha20_block(const uint32_t key[CHACHA20_KEY_WORDS], uint32_t counter,
                    const uint32_t nonce[CHACHA20_NONCE_WORDS],
                    uint8_t out[CHACHA20_BLOCK_BYTES]);

#endif
