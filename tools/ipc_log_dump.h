/*
 * ipc_log_dump.h - IPC logs out of a memory dump: the core of tools/ipc_log_extract, kept
 * apart from file handling so that tests/fuzz/fuzz_ipc_log_extract.c can feed it buffers.
 *
 * A dump is physical memory, either raw (QEMU's `pmemsave 0 SIZE FILE`: byte i is
 * physical address i) or an ELF core (QEMU's `dump-guest-memory FILE`: each PT_LOAD
 * program header says which physical addresses its file bytes hold). Extraction finds
 * every 4 KiB-aligned page that starts with the page magic numbers, follows each page's
 * ctx_offset to its context header, groups the pages by context, orders them as the
 * writer left them (trace/ipc_logging/ipc_log_page.h: ipc_log_dump_spans) and prints each context's
 * events as the kernel's `log` file does, under a header line:
 *   === demo: 2 pages, version 2, user version 0, log id 0x1fe000 ===
 * Anything damaged (a page whose header does not hold up, a missing page, an event that
 * does not decode) is reported and skipped; decoding resumes at the next event that
 * looks whole.
 *
 * It reads more than Qualcomm's own parser (linux-ramdump-parser-v2's ipc_logging.py)
 * does, and says so when a dump needs it: that parser scans a raw file of physical memory
 * only, 4 KiB at a time, so it finds nothing in an ELF core; and it decodes only string
 * events of exactly TIMESTAMP, QTIMER and BYTE_ARRAY, stopping at any other event.
 */
#ifndef TOOLS_IPC_LOG_DUMP_H
#define TOOLS_IPC_LOG_DUMP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* File bytes that hold physical memory from phys on. */
struct dump_region {
    uint64_t phys;
    const uint8_t *bytes;
    uint64_t size;
};

struct dump_image {
    struct dump_region *regions;
    size_t count;
    bool elf; /* read through ELF program headers (Qualcomm's parser reads raw files only) */
};

/*
 * Maps a dump file's bytes (which must outlive img): an ELF core through its PT_LOAD
 * headers, anything else as raw memory from address 0. An ELF core whose headers do not
 * hold up is read as raw memory, with a warning on err. Returns 0, or -1 when there is no
 * memory to allocate.
 */
int dump_image_open(const uint8_t *file, size_t size, struct dump_image *img, FILE *err);
void dump_image_close(struct dump_image *img);

/* The len bytes at physical address phys when one region holds them all, else NULL. */
const uint8_t *dump_image_at(const struct dump_image *img, uint64_t phys, size_t len);

struct extract_result {
    unsigned contexts;  /* printed */
    unsigned events;    /* printed */
    unsigned unreadable; /* printed, but not string events as Qualcomm's ipc_logging.c defines
                            them: Qualcomm's ipc_logging.py stops at the first of these */
    unsigned problems;  /* reported on err */
};

/* Extracts every IPC log of img (or only those named only, when not NULL) to out,
 * reporting problems on err, and, for each context holding events that are not string
 * events as Qualcomm's ipc_logging.c defines them, how many (a note, not a problem).
 * Returns -1 when memory ran out, else 0. */
int ipc_log_extract(const struct dump_image *img, const char *only, FILE *out, FILE *err,
                    struct extract_result *result);

#endif
