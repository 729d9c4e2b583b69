/*
 * random.c - the kernel's random generator (random.h).
 *
 * State: a ChaCha20 key and a pool of 16 words that input is added into. A request takes
 * the lock, folds the pool and the cycle counter into the key (the key becomes the first
 * half of a ChaCha20 block made from key ^ pool), produces its bytes with that key and a
 * request counter as the nonce, and replaces the key with fresh key stream before it
 * unlocks: the bytes given out cannot be computed back from any later state.
 */
#include "kernel/random.h"

#include <stdbool.h>

#include "kernel/arch.h"
#include "kernel/lib/chacha20.h"
#include "kernel/lib/string.h"
#include "kernel/spinlock.h"

#define POOL_WORDS 16
#define SEED_SAMPLES 64 /* cycle-counter samples taken at first use */

static struct {
    struct spinlock lock;
    uint32_t key[CHACHA20_KEY_WORDS];
    uint32_t pool[POOL_WORDS];
    unsigned pool_pos;
    uint64_t requests; /* the nonce of each request */
    bool seeded;
} rng = { .lock = SPINLOCK_INIT("random") };

static uint32_t rotl32(uint32_t v, unsigned n) { return (v << n) | (v >> (32 - n)); }

/* Adds one word into the pool (lock held): rotating before adding keeps earlier input in
 * every bit, whichever word it lands on. */
static void mix_word(uint32_t w)
{
    uint32_t *p = &rng.pool[rng.pool_pos];
    *p = rotl32(*p, 7) + w;
    rng.pool[(rng.pool_pos + 5) % POOL_WORDS] ^= rotl32(w, 19);
    rng.pool_pos = (rng.pool_pos + 1) % POOL_WORDS;
}

/* Mixes the cycle counter, which differs from call to call in its low bits. */
static void mix_cycles(void)
{
    uint64_t c = arch_cycles();
    mix_word((uint32_t)c);
    mix_word((uint32_t)(c >> 32));
}

/* First use (lock held): RDRAND words if the CPU has them, and the cycle counter read
 * between short stretches of work, whose timing jitters. */
static void seed(void)
{
    for (unsigned i = 0; i < 2 * POOL_WORDS; i++) {
        uint32_t w;
        if (arch_random_word(&w))
            mix_word(w);
    }
    uint32_t spin = 0;
    for (unsigned i = 0; i < SEED_SAMPLES; i++) {
        for (unsigned j = 0; j < (i & 7) + 1; j++)
            spin = spin * 1664525u + 1013904223u;
        mix_word(spin);
        mix_cycles();
    }
    rng.seeded = true;
}

/* Folds the pool into the key (lock held), then clears the pool. */
static void rekey(void)
{
    uint32_t mixed[CHACHA20_KEY_WORDS];
    for (unsigned i = 0; i < CHACHA20_KEY_WORDS; i++)
        mixed[i] = rng.key[i] ^ rng.pool[i];
    uint32_t nonce[CHACHA20_NONCE_WORDS] = { rng.pool[8] ^ rng.pool[11],
                                             rng.pool[9] ^ rng.pool[12] ^ rng.pool[14],
                                             rng.pool[10] ^ rng.pool[13] ^ rng.pool[15] };
    uint8_t block[CHACHA20_BLOCK_BYTES];
    chacha20_block(mixed, 0, nonce, block);
    memcpy(rng.key, block, sizeof rng.key);
    memset(block, 0, sizeof block);
    memset(mixed, 0, sizeof mixed);
    memset(rng.pool, 0, sizeof rng.pool);
}

void random_add_entropy(const void *data, uint32_t len)
{
    const uint8_t *p = data;
    unsigned long flags = spin_lock_irqsave(&rng.lock);
    for (uint32_t i = 0; i < len; i += 4) {
        uint32_t w = 0;
        for (uint32_t j = 0; j < 4 && i + j < len; j++)
            w |= (uint32_t)p[i + j] << (8 * j);
        mix_word(w);
    }
    spin_unlock_irqrestore(&rng.lock, flags);
}

void random_get_bytes(void *buf, uint32_t len)
{
    uint8_t *out = buf;
    uint8_t block[CHACHA20_BLOCK_BYTES];
    unsigned long flags = spin_lock_irqsave(&rng.lock);
    if (!rng.seeded)
        seed();
    uint32_t w;
    if (arch_random_word(&w))
        mix_word(w);
    mix_cycles();
    rekey();
    uint64_t request = ++rng.requests;
    uint32_t nonce[CHACHA20_NONCE_WORDS] = { (uint32_t)request, (uint32_t)(request >> 32), 1 };
    /* Block 0 becomes the next key; the output starts at block 1. */
    uint32_t counter = 1;
    while (len > 0) {
        chacha20_block(rng.key, counter++, nonce, block);
        uint32_t n = len < sizeof block ? len : (uint32_t)sizeof block;
        memcpy(out, block, n);
        out += n;
        len -= n;
    }
    chacha20_block(rng.key, 0, nonce, block);
    memcpy(rng.key, block, sizeof rng.key);
    memset(block, 0, sizeof block);
    spin_unlock_irqrestore(&rng.lock, flags);
}
