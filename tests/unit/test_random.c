/* test_random.c - the ChaCha20 block against RFC 8439's vector, and the kernel's random
 * generator: each request rekeys from the pool, uses the cycle counter, RDRAND and added
 * entropy, and erases its key. random.c is included to see its state. */
#include "unit.h"

#include "kernel/lib/chacha20.h"
#include "kernel/random.c"

extern uint64_t host_cycles;
extern unsigned host_rdrand_words;
extern uint32_t host_rdrand_value;

/* RFC 8439, section 2.3.2: key 00 01 .. 1f, nonce 00:00:00:09 00:00:00:4a 00:00:00:00,
 * block counter 1. */
TEST(chacha20_rfc8439_block)
{
    uint32_t key[8], nonce[3] = { 0x09000000, 0x4a000000, 0 };
    for (unsigned i = 0; i < 8; i++)
        key[i] = (4 * i) | (4 * i + 1) << 8 | (4 * i + 2) << 16 | (uint32_t)(4 * i + 3) << 24;
    static const uint8_t expect[64] = {
        0x10, 0xf1, 0xe7, 0xe4, 0xd1, 0x3b, 0x59, 0x15, 0x50, 0x0f, 0xdd, 0x1f, 0xa3, 0x20,
        0x71, 0xc4, 0xc7, 0xd1, 0xf4, 0xc7, 0x33, 0xc0, 0x68, 0x03, 0x04, 0x22, 0xaa, 0x9a,
        0xc3, 0xd4, 0x6c, 0x4e, 0xd2, 0x82, 0x64, 0x46, 0x07, 0x9f, 0xaa, 0x09, 0x14, 0xc2,
        0xd7, 0x05, 0xd9, 0x8b, 0x02, 0xa2, 0xb5, 0x12, 0x9c, 0xd1, 0xde, 0x16, 0x4e, 0xb9,
        0xcb, 0xd0, 0x83, 0xe8, 0xa2, 0x50, 0x3c, 0x4e,
    };
    uint8_t out[64];
    chacha20_block(key, 1, nonce, out);
    CHECK(memcmp(out, expect, 64) == 0);
}

/* Two requests never give the same bytes, and the key after a request is not the one
 * that made its bytes (the clock stands still here: only the generator changes). */
TEST(requests_differ_and_the_key_is_replaced)
{
    host_cycles = 1000;
    uint8_t a[48], b[48];
    random_get_bytes(a, sizeof a);
    uint32_t key[8];
    memcpy(key, rng.key, sizeof key);
    random_get_bytes(b, sizeof b);
    CHECK(memcmp(a, b, sizeof a) != 0);
    CHECK(memcmp(key, rng.key, sizeof key) != 0);
    CHECK(memcmp(rng.pool, (uint32_t[POOL_WORDS]){ 0 }, sizeof rng.pool) == 0);
}

/* From one state, the same inputs give the same bytes (so the next checks mean
 * something), and each input changes them: added entropy, the clock, RDRAND. */
TEST(every_input_changes_the_output)
{
    host_cycles = 5;
    uint8_t warm[4];
    random_get_bytes(warm, sizeof warm); /* seeded */
    __typeof__(rng) saved = rng;
    uint8_t base[32], again[32], other[32];
    random_get_bytes(base, sizeof base);
    rng = saved;
    random_get_bytes(again, sizeof again);
    CHECK(memcmp(base, again, sizeof base) == 0);

    rng = saved;
    random_add_entropy("x", 1);
    random_get_bytes(other, sizeof other);
    CHECK(memcmp(base, other, sizeof base) != 0);

    rng = saved;
    host_cycles = 6;
    random_get_bytes(other, sizeof other);
    CHECK(memcmp(base, other, sizeof base) != 0);

    rng = saved;
    host_cycles = 5;
    host_rdrand_words = 1;
    host_rdrand_value = 0x12345678;
    random_get_bytes(other, sizeof other);
    CHECK(memcmp(base, other, sizeof base) != 0);
    CHECK_EQ_INT(host_rdrand_words, 0);
}

/* Over 64 KiB, every bit position is set about half the time (a broken generator that
 * repeats a block or leaves bytes zero fails this). */
TEST(bits_are_balanced)
{
    static uint8_t buf[65536];
    for (unsigned i = 0; i < sizeof buf; i += RANDOM_CHUNK)
        random_get_bytes(buf + i, RANDOM_CHUNK);
    unsigned ones[8] = { 0 };
    for (unsigned i = 0; i < sizeof buf; i++)
        for (unsigned b = 0; b < 8; b++)
            ones[b] += (buf[i] >> b) & 1;
    for (unsigned b = 0; b < 8; b++)
        CHECK(ones[b] > 32768 - 1000 && ones[b] < 32768 + 1000);
    CHECK(memcmp(buf, buf + 64, 64) != 0);
}
