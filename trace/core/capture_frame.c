/*
 * capture_frame.c - encodes the binary capture's frames (see capture_frame.h).
 */
#include "trace/core/capture_frame.h"

#include "kernel/lib/crc32.h"
#include "kernel/lib/errno.h"
#include "kernel/lib/string.h"
#include "trace/core/raw_page.h"

static void put_header(struct capture_sink *s, uint16_t type, uint16_t cpu, uint32_t len,
                       uint32_t crc)
{
    struct capture_frame_header h = { CAPTURE_MAGIC, type, cpu, len, crc };
    s->send(s, &h, sizeof h);
}

void capture_send_frame(struct capture_sink *s, uint16_t type, uint16_t cpu, const void *payload,
                        uint32_t len)
{
    put_header(s, type, cpu, len, crc32_update(0, payload, len));
    if (len)
        s->send(s, payload, len);
}

void capture_send_start(struct capture_sink *s, uint32_t nr_cpus)
{
    struct capture_start start = { CAPTURE_VERSION, nr_cpus, RAW_PAGE_SIZE,
                                   (uint32_t)sizeof(long) };
    capture_send_frame(s, CAPTURE_START, 0, &start, sizeof start);
}

/* A rendering's byte count and CRC (continued from the path's). */
struct measure {
    uint64_t len;
    uint32_t crc;
};

static void measure_emit(struct fs_writer *w, const char *text, size_t len)
{
    struct measure *m = w->ctx;
    m->len += len;
    m->crc = crc32_update(m->crc, text, len);
}

/* The second rendering: sends what fits in the measured length, and measures everything. */
struct sending {
    struct capture_sink *sink;
    uint64_t room; /* bytes the frame still expects */
    struct measure seen;
};

static void sending_emit(struct fs_writer *w, const char *text, size_t len)
{
    struct sending *snd = w->ctx;
    snd->seen.len += len;
    snd->seen.crc = crc32_update(snd->seen.crc, text, len);
    size_t n = len < snd->room ? len : (size_t)snd->room;
    if (n) {
        snd->sink->send(snd->sink, text, n);
        snd->room -= n;
    }
}

static bool never_interrupted(struct fs_writer *w)
{
    (void)w;
    return false;
}

/* Zero bytes for the rest of a frame whose file came out shorter the second time. */
static void send_zeros(struct capture_sink *s, uint64_t n)
{
    static const char zeros[64];
    while (n) {
        size_t k = n < sizeof zeros ? (size_t)n : sizeof zeros;
        s->send(s, zeros, k);
        n -= k;
    }
}

int capture_send_file(struct capture_sink *s, const char *path, capture_render_fn render,
                      void *arg)
{
    uint32_t path_len = (uint32_t)strlen(path) + 1; /* with its NUL */
    uint32_t path_crc = crc32_update(0, path, path_len);
    for (int attempt = 0; attempt < CAPTURE_FILE_TRIES; attempt++) {
        struct measure m = { 0, path_crc };
        struct fs_writer w = { .emit = measure_emit, .interrupted = never_interrupted, .ctx = &m };
        int err = render(arg, &w);
        if (err)
            return err;
        if (m.len + path_len > CAPTURE_MAX_PAYLOAD)
            return -EFBIG;
        put_header(s, CAPTURE_FILE, 0, path_len + (uint32_t)m.len, m.crc);
        s->send(s, path, path_len);
        struct sending snd = { s, m.len, { 0, path_crc } };
        w.emit = sending_emit;
        w.ctx = &snd;
        err = render(arg, &w);
        send_zeros(s, snd.room); /* the header promised this length: keep the stream in step */
        if (!err && snd.seen.len == m.len && snd.seen.crc == m.crc)
            return 0;
    }
    return -EAGAIN;
}
