/*
 * capture_frame.c - encodes the binary capture's frames (see capture_frame.h).
 */
#include "trace/core/capture_frame.h"

#include "kernel/lib/errno.h"
#include "kernel/lib/frame_sum.h"
#include "kernel/lib/string.h"
#include "trace/core/raw_page.h"

/* The frame check's two sums (uapi/trace_capture.h). */
struct check {
    uint32_t a, b;
};

static void put_header(struct capture_sink *s, uint16_t type, uint16_t cpu, uint32_t len,
                       struct check sums)
{
    struct capture_frame_header h = { CAPTURE_MAGIC, type, cpu, len, sums.a, sums.b };
    s->send(s, &h, sizeof h);
}

void capture_send_parts(struct capture_sink *s, uint16_t type, uint16_t cpu, const void *head,
                        uint32_t head_len, const void *body, uint32_t body_len)
{
    struct frame_sum sum;
    struct check sums;
    frame_sum_init(&sum);
    frame_sum_update(&sum, head, head_len);
    frame_sum_update(&sum, body, body_len);
    frame_sum_final(&sum, &sums.a, &sums.b);
    put_header(s, type, cpu, head_len + body_len, sums);
    if (head_len)
        s->send(s, head, head_len);
    if (body_len)
        s->send(s, body, body_len);
}

void capture_send_frame(struct capture_sink *s, uint16_t type, uint16_t cpu, const void *payload,
                        uint32_t len)
{
    capture_send_parts(s, type, cpu, payload, len, 0, 0);
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

/* The measure's sums, the measure left as it was. */
static struct check measured_sums(const struct measure *m)
{
    struct frame_sum copy = m->sum;
    struct check sums;
    frame_sum_final(&copy, &sums.a, &sums.b);
    return sums;
}

static bool same_rendering(const struct measure *x, const struct measure *y)
{
    struct check sx = measured_sums(x), sy = measured_sums(y);
    return x->len == y->len && sx.a == sy.a && sx.b == sy.b;
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
    struct measure path_only = { 0, { 0, 0, 0, 0 } };
    frame_sum_update(&path_only.sum, path, path_len);
    for (int attempt = 0; attempt < CAPTURE_FILE_TRIES; attempt++) {
        struct measure m = path_only;
        struct fs_writer w = { .emit = measure_emit, .interrupted = never_interrupted, .ctx = &m };
        int err = render(arg, &w);
        if (err)
            return err;
        if (m.len + path_len > CAPTURE_MAX_PAYLOAD)
            return -EFBIG;
        put_header(s, CAPTURE_FILE, 0, path_len + (uint32_t)m.len, measured_sums(&m));
        s->send(s, path, path_len);
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
