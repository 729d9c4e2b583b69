/*
 * crc32.h - CRC-32 as zlib's crc32() and Ethernet compute it (reflected polynomial
 * 0xEDB88320, initial value and final xor ~0). The binary capture (uapi/trace_capture.h)
 * checks each frame with it, so the guest that writes frames and the host that reads them
 * share this one implementation.
 * Portable: tests/unit/test_crc32.c.
 */
#ifndef KERNEL_LIB_CRC32_H
#define KERNEL_LIB_CRC32_H

#include <stddef.h>
#include <stdint.h>

/* The CRC of data[0..len) continued from crc (0 to begin): crc32(crc32(0, a), b) is the CRC
 * of a followed by b. */
uint32_t crc32_update(uint32_t crc, const void *data, size_t len);

/* The CRC step of each byte value (the unit test checks it entry by entry). */
extern const uint32_t crc32_byte_table[256];

#endif
