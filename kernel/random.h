/*
 * random.h - the kernel's random numbers (getrandom(2), AT_RANDOM): a ChaCha20 generator
 * (kernel/lib/chacha20.h) as Linux's crng, rekeyed from an entropy pool before every
 * request and erasing its own key after it (fast key erasure), so that a later reading of
 * kernel memory cannot recover what was handed out before.
 *
 * The pool is fed by the CPU's RDRAND when it has one (arch_random_word), by the cycle
 * counter at every request and at every mix (its low bits vary with interrupts, caches
 * and the emulator's host), and by whatever else calls random_add_entropy. Seeded on first
 * use; it never blocks (see docs/usermode.md for what that means without RDRAND).
 * Any context but NMI; SMP-safe (one lock).
 */
#ifndef KERNEL_RANDOM_H
#define KERNEL_RANDOM_H

#include <stdint.h>

/* Mixes len bytes of data into the pool; they count towards the next request's key. */
void random_add_entropy(const void *data, uint32_t len);

/* Fills buf with len random bytes. The lock is held meanwhile: callers that want much
 * ask RANDOM_CHUNK bytes at a time (getrandom does). */
#define RANDOM_CHUNK 256
void random_get_bytes(void *buf, uint32_t len);

#endif
