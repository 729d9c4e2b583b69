/*
 * ipc_log_write.h - writing events into a context's pages, inline: the copy, dropping the
 * oldest events, and the whole of a message event (the numbers' text, its headers, the
 * event written in place).
 *
 * IPC logs every message as a message event (kernel/ipc/ipc.c): ipc_log_numbers
 * (trace/ipc_logging/ipc_logging.c) takes the context's lock and writes the event with
 * ipc_log_write_numbers, inlined there. Out of line in ipc_log_page.c, the call with the
 * event's fields in a structure, its frame and the registers spilled around it cost about
 * 30 of the 300 instructions an event may take (docs/ipc_logging.md, section 14).
 * ipc_log_page.c includes this file too: its writers share copy_bytes and make_room, and
 * its ipc_log_append_numbers (the host's tests and tools) is the same ipc_log_write_numbers.
 * The rare cases (an event or a drop that runs onto the next page, a number above 99, many
 * numbers) are functions of ipc_log_page.c, out of line. Portable, as ipc_log_page.c.
 * Internal to IPC logging: nothing else includes it.
 */
#ifndef TRACE_IPC_LOGGING_IPC_LOG_WRITE_H
#define TRACE_IPC_LOGGING_IPC_LOG_WRITE_H

#include "kernel/lib/errno.h"
#include "kernel/lib/string.h"
#include "trace/ipc_logging/ipc_log_page.h"

/* Stores the n (4 or 8) low bytes of v at p, least significant first: on a little-endian
 * CPU, its own store (__builtin_memcpy stays inline even with the kernel's -fno-builtin). */
static inline void put_le(uint8_t *p, uint64_t v, unsigned n)
{
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    if (n == 8) {
        __builtin_memcpy(p, &v, 8);
        return;
    }
    uint32_t low = (uint32_t)v;
    __builtin_memcpy(p, &low, 4);
#else
    for (unsigned i = 0; i < n; i++)
        p[i] = (uint8_t)(v >> (8 * i));
#endif
}

/*
 * memcpy for the hot path: `rep movsl` for the words, then `rep movsb` for the last 0 to 3
 * bytes, each step one instruction to -icount (a `rep` that has nothing to do counts once),
 * with no test and no loop around them. Inline, unlike the kernel's memcpy
 * (kernel/lib/string.c, the same two instructions), which costs a call and its frame: an IPC
 * message event copies two texts. Not x86: the C library's memcpy.
 */
static inline void copy_bytes(uint8_t *dst, const uint8_t *src, size_t n)
{
#if defined(__i386__) || defined(__x86_64__)
    size_t words = n / 4;
    unsigned bytes = (unsigned)(n % 4);
    __asm__ volatile("rep movsl\n\tmov %[bytes], %%ecx\n\trep movsb"
                     : "+D"(dst), "+S"(src), "+c"(words)
                     : [bytes] "r"(bytes)
                     : "memory");
#else
    memcpy(dst, src, n);
#endif
}

/* Drops the oldest event, wherever it lies (ipc_log_page.c). */
void ipc_log_drop_oldest(struct ipc_log *log);

/*
 * Drops the oldest events until len bytes fit (one free byte always stays, so that full
 * and empty differ); counts them in log->dropped and returns how many. A busy log drops
 * one event for nearly every event it writes, and that event nearly always lies whole on
 * the read page: then its size byte is all there is to read, and only that page's
 * read_offset moves (exactly what ipc_log_drop_oldest does there; it handles an event that
 * runs onto the next page).
 */
static inline __attribute__((always_inline)) int make_room(struct ipc_log *log, uint32_t len)
{
    int dropped = 0;
    while (log->write_avail <= len) {
        struct ipc_log_page *page = log->pages[log->read_page];
        uint32_t offset = page->hdr.read_offset;
        uint32_t end = offset + TSV_HEADER_SIZE;
        dropped++;
        log->dropped++;
        if (end > IPC_LOG_DATA_SIZE || (end += page->data[offset + 1]) > IPC_LOG_DATA_SIZE) {
            ipc_log_drop_oldest(log);
            continue;
        }
        if (log->reader.page == log->read_page && log->reader.offset == offset)
            log->reader.offset = end;
        page->hdr.read_offset = (uint16_t)end;
        log->write_avail += end - offset;
    }
    return dropped;
}

/* Counts an appended event of len bytes (make_room counted the events dropped for it). */
static inline int count_append(struct ipc_log *log, uint32_t len, int dropped)
{
    log->write_avail -= len;
    log->written++;
    return dropped;
}

/* Writes one item header and returns where its value goes. */
static inline uint8_t *put_header(uint8_t *p, uint8_t type, uint8_t size)
{
    p[0] = type;
    p[1] = size;
    return p + TSV_HEADER_SIZE;
}

/* --- message events ------------------------------------------------------------------------ */

/* A string event's bytes before its text: its header, TIMESTAMP, QTIMER, the text's header. */
#define STRING_EVENT_OVERHEAD (4 * TSV_HEADER_SIZE + 8 + 8)
#define STRING_EVENT_ROOM (IPC_LOG_MAX_MSG_SIZE - STRING_EVENT_OVERHEAD)

/* The longest " N": a blank, '-' and ten digits (" -2147483648"). */
#define NUMBER_TEXT_MAX 12

/* " 0" to " 99" in four bytes each, the fourth saying how many of the first three are the
 * number's: {' ', '7', 0, 2}, {' ', '4', '2', 3} (ipc_log_page.c). The numbers IPC logs
 * (endpoints, tasks, labels, lengths) are mostly this small, and one load and one
 * four-byte store write one. */
#define BLANK_DECIMAL_BELOW 100
extern const char ipc_log_blank_decimal[BLANK_DECIMAL_BELOW][4];

/* Writes " N" at out for a number outside 0 to 99 and returns the end (ipc_log_page.c). */
char *ipc_log_put_blank_decimal(char *out, int32_t v);

/* Writes " N" at out for the number v, as printf's " %d" would, and returns the end. A
 * number of 0 to 99 stores four bytes, up to two of them past its end: the next number, or
 * nothing, covers them. */
static inline __attribute__((always_inline)) char *put_number_text(char *out, int32_t v)
{
    uint32_t u = (uint32_t)v; /* a negative number is above 99 here */
    if (u >= BLANK_DECIMAL_BELOW)
        return ipc_log_put_blank_decimal(out, v);
    __builtin_memcpy(out, ipc_log_blank_decimal[u], 4);
    return out + ipc_log_blank_decimal[u][3];
}

/*
 * Writes " N" at out for each number from n to end and returns the end of the text: one
 * pass, the length of each coming with its digits. out must have room for NUMBER_TEXT_MAX
 * bytes per number. Two numbers a step, so that the loop's own test comes half as often
 * (a message has up to seven numbers); an odd one first.
 */
static inline __attribute__((always_inline)) char *
put_numbers_text(char *out, const int32_t *n, const int32_t *end)
{
    ptrdiff_t i = n - end; /* from -count up to 0: the addition's flags are the loop's test */
    if (i & 1)
        out = put_number_text(out, end[i++]);
    for (; i != 0; i += 2) {
        out = put_number_text(out, end[i]);
        out = put_number_text(out, end[i + 1]);
    }
    return out;
}

/* put_numbers_text for numbers whose text may be longer than room: one at a time, stopping
 * once it is (out needs room + NUMBER_TEXT_MAX bytes). The end of the text, or NULL when it
 * is longer than room (ipc_log_page.c). */
char *ipc_log_put_numbers_text_bounded(char *out, const int32_t *n, const int32_t *end,
                                       size_t room);

/* The string event's bytes at p (len of them, the event header included): the header,
 * TIMESTAMP, QTIMER and a BYTE_ARRAY of the text what followed by the numbers' text. */
static inline __attribute__((always_inline)) void
put_numbers_event(uint8_t *p, uint32_t len, uint64_t ns, uint64_t ticks, const char *what,
                  size_t what_len, const char *numbers_text, size_t numbers_len)
{
    p = put_header(p, TSV_TYPE_STRING, (uint8_t)(len - TSV_HEADER_SIZE));
    p = put_header(p, TSV_TYPE_TIMESTAMP, 8);
    put_le(p, ns, 8);
    p = put_header(p + 8, TSV_TYPE_QTIMER, 8);
    put_le(p, ticks, 8);
    p = put_header(p + 8, TSV_TYPE_BYTE_ARRAY, (uint8_t)(what_len + numbers_len));
    copy_bytes(p, (const uint8_t *)what, what_len);
    copy_bytes(p + what_len, (const uint8_t *)numbers_text, numbers_len);
}

/* A message event that would straddle two pages: built whole, then appended like any other;
 * 0 (ipc_log_page.c). */
int ipc_log_append_numbers_straddling(struct ipc_log *log, uint32_t len, uint64_t ns,
                                      uint64_t ticks, const char *what, size_t what_len,
                                      const char *numbers_text, size_t numbers_len);

/*
 * The text after what in a message event: " N" for each number, at text (which has room
 * for STRING_EVENT_ROOM + NUMBER_TEXT_MAX bytes). Its length, or -EMSGSIZE when what and
 * the numbers do not fit in one event. It needs nothing of the log: the kernel's
 * ipc_log_numbers runs it before taking the context's lock.
 */
static inline __attribute__((always_inline)) int
ipc_log_numbers_text(char *text, size_t what_len, const int32_t *numbers, unsigned count)
{
    /* The numbers' text may fill what what leaves of STRING_EVENT_ROOM. When even count
     * numbers of NUMBER_TEXT_MAX characters fit there, they fit however long they are. */
    if (count <= STRING_EVENT_ROOM / NUMBER_TEXT_MAX &&
        what_len <= STRING_EVENT_ROOM - count * NUMBER_TEXT_MAX)
        return (int)(put_numbers_text(text, numbers, numbers + count) - text);
    if (what_len > STRING_EVENT_ROOM)
        return -EMSGSIZE;
    char *end = ipc_log_put_numbers_text_bounded(text, numbers, numbers + count,
                                                 STRING_EVENT_ROOM - what_len);
    return end ? (int)(end - text) : -EMSGSIZE;
}

/*
 * Appends a message event (ipc_log_append_numbers in ipc_log_page.h says what it holds)
 * whose numbers' text ipc_log_numbers_text made: numbers_len bytes, or -EMSGSIZE, which is
 * counted in oversize and returned. The event goes straight into the page when it fits
 * there whole. Returns 0 otherwise; log->dropped counts the events dropped for it (the
 * kernel's caller has no use for their number, and counting them apart would cost it).
 * The fields come one by one, not in a structure: inlined into ipc_log_numbers, they stay
 * in registers.
 */
static inline __attribute__((always_inline)) int
ipc_log_write_numbers(struct ipc_log *log, uint64_t ns, uint64_t ticks, const char *what,
                      size_t what_len, const char *numbers_text, int numbers_len)
{
    if (numbers_len < 0) {
        log->oversize++;
        return numbers_len;
    }
    uint32_t len = (uint32_t)(STRING_EVENT_OVERHEAD + what_len + (size_t)numbers_len);
    struct ipc_log_page *page = log->pages[log->write_page];
    uint32_t offset = page->hdr.write_offset;
    if (IPC_LOG_DATA_SIZE - offset < len)
        return ipc_log_append_numbers_straddling(log, len, ns, ticks, what, what_len,
                                                 numbers_text, (size_t)numbers_len);
    make_room(log, len);
    /* Written in place, after the last event: the write offset that makes it part of the
     * log moves only once all of it is there, so a dump never sees half an event. */
    put_numbers_event(page->data + offset, len, ns, ticks, what, what_len, numbers_text,
                      (size_t)numbers_len);
    page->hdr.write_offset = (uint16_t)(offset + len);
    return count_append(log, len, 0);
}

#endif
