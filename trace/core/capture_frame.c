/*
 * capture_frame.c - encodes the binary capture's frames (see capture_frame.h).
 */
#include "trace/core/capture_frame.h"

#include "kernel/lib/errno.h"
#include "kernel/lib/frame_sum.h"
#include "kernel/lib/string.h"
#include "trace/core/raw_page.h"

/* Sends a frame's header, then the first first_len bytes of its payload (the rest, if any,
 * is the caller's to send). */
static void put_header(struct capture_sink *s, uint16_t type, uint16_t cpu, uint32_t len,
                       uint32_t sum, const void *first, uint32_t first_len)
{
    struct capture_frame_header h = { CAPTURE_MAGIC, type, cpu, len, sum };
    s->send(s, &h, sizeof h, first, first_len);
}

void capture_send_frame(struct capture_sink *s, uint16_t type, uint16_t cpu, const void *payload,
                        uint32_t len)
{
    put_header(s, type, cpu, len, len ? frame_sum(payload, len) : 0, payload, len);
}

void capture_send_events(struct capture_sink *s, uint16_t cpu, const struct capture_events *head,
                         const void *records, uint32_t len)
{
    struct {
        struct capture_frame_header h;
        struct capture_events head;
    } start = { { CAPTURE_MAGIC, CAPTURE_EVENTS, cpu, (uint32_t)sizeof *head + len,
                  frame_sum(head, sizeof *head) + (len ? frame_sum(records, len) : 0) },
                *head };
    _Static_assert(sizeof start == CAPTURE_HEADER_SIZE + sizeof(struct capture_events) &&
                       sizeof(struct capture_events) % 4 == 0,
                   "the header and the head go as one piece; the head's sum adds to the records'");
    s->send(s, &start, sizeof start, records, len);
}

void capture_send_start(struct capture_sink *s, uint32_t nr_cpus)
{
    struct capture_start start = { CAPTURE_VERSION, nr_cpus, RAW_PAGE_SIZE,
                                   (uint32_t)sizeof(long) };
    capture_send_frame(s, CAPTURE_START, 0, &start, sizeof start);
}

/* A rendering's byte count and frame check (continued from the path's). */
struct measure {
    uint64_t len;
    struct frame_sum sum;
};

static void measure_emit(struct fs_writer *w, const char *text, size_t len)
{
    struct measure *m = w->ctx;
    m->len += len;
    frame_sum_update(&m->sum, text, len);
}

static bool same_rendering(const struct measure *x, const struct measure *y)
{
    return x->len == y->len && frame_sum_value(&x->sum) == frame_sum_value(&y->sum);
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
    frame_sum_update(&snd->seen.sum, text, len);
    size_t n = len < snd->room ? len : (size_t)snd->room;
    if (n) {
        snd->sink->send(snd->sink, text, n, 0, 0);
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
        s->send(s, zeros, k, 0, 0);
        n -= k;
    }
}

int capture_send_file(struct capture_sink *s, const char *path, capture_render_fn render,
                      void *arg)
{
    uint32_t path_len = (uint32_t)strlen(path) + 1; /* with its NUL */
    struct measure path_only = { 0, { 0, 0, 0 } };
    frame_sum_update(&path_only.sum, path, path_len);
    for (int attempt = 0; attempt < CAPTURE_FILE_TRIES; attempt++) {
        struct measure m = path_only;
        struct fs_writer w = { .emit = measure_emit, .interrupted = never_interrupted, .ctx = &m };
        int err = render(arg, &w);
        if (err)
            return err;
        if (m.len + path_len > CAPTURE_MAX_PAYLOAD)
            return -EFBIG;
        put_header(s, CAPTURE_FILE, 0, path_len + (uint32_t)m.len, frame_sum_value(&m.sum), path,
                   path_len);
        struct sending snd = { s, m.len, path_only };
        w.emit = sending_emit;
        w.ctx = &snd;
        err = render(arg, &w);
        send_zeros(s, snd.room); /* the header promised this length: keep the stream in step */
        if (!err && same_rendering(&snd.seen, &m))
            return 0;
    }
    return -EAGAIN;
}
