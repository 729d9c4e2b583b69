/*
 * crc32.c - CRC-32 a nibble at a time (see crc32.h).
 *
 * A 16-entry table instead of the usual 256 entries: two lookups per byte, a table small
 * enough to check by hand, and fast enough for the capture (a 4 KiB page costs about
 * 40,000 instructions, a tenth of what formatting its events as text would).
 */
#include "kernel/lib/crc32.h"

/* The CRC of each 4-bit value, shifted through the reflected polynomial 0xEDB88320. */
static const uint32_t nibble_crc[16] = {
    0x00000000, 0x1db71064, 0x3b6e20c8, 0x26d930ac, 0x76dc4190, 0x6b6b51f4, 0x4db26158, 0x5005713c,
    0xedb88320, 0xf00f9344, 0xd6d6a3e8, 0xcb61b38c, 0x9b64c2b0, 0x86d3d2d4, 0xa00ae278, 0xbdbdf21c,
};

uint32_t crc32_update(uint32_t crc, const void *data, size_t len)
{
    const uint8_t *p = data;
    crc = ~crc;
    for (size_t i = 0; i < len; i++) {
        crc ^= p[i];
        crc = (crc >> 4) ^ nibble_crc[crc & 15];
        crc = (crc >> 4) ^ nibble_crc[crc & 15];
    }
    return ~crc;
}
