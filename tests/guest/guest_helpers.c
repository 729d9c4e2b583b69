/*
 * guest_helpers.c - helpers shared by the in-kernel self-tests (guest_helpers.h).
 */
#include "kernel/fs/fs_layout.h"
#include "tests/guest/guest_helpers.h"

#include "kernel/lib/errno.h"
#include "kernel/lib/string.h"
#include "trace/core/trace_internal.h"
#include "kernel/fs/fs_tree.h"

void for_each_buffered_event(void (*fn)(const struct trace_entry *e, uint32_t length, void *ctx),
                             void *ctx)
{
    static union trace_event_copy copy;
    struct rb_iter it;
    struct rb_event ev;
    rb_iter_start(trace_buffer(), 0, &it);
    while (rb_iter_next(&it, copy.bytes, sizeof copy, &ev))
        fn((const struct trace_entry *)copy.bytes, ev.length, ctx);
}

/* The limit is far beyond what the 16 KiB stack holds; it is only there so the compiler
 * sees an end. */
int __attribute__((noinline)) recurse_deeply(int depth)
{
    volatile char frame[512];
    frame[0] = (char)depth;
    if (depth > 1000000)
        return 0;
    return recurse_deeply(depth + 1) + frame[0];
}

/* What a file printed, for reading it back. */
static char text[32768];
static size_t text_len;

static void collect(struct fs_writer *w, const char *t, size_t n)
{
    (void)w;
    for (size_t i = 0; i < n && text_len + 1 < sizeof text; i++)
        text[text_len++] = t[i];
    text[text_len] = '\0';
}

static bool never_interrupted(struct fs_writer *w)
{
    (void)w;
    return false;
}

const char *guest_read_file(const char *path)
{
    struct fs_writer w = { .emit = collect, .interrupted = never_interrupted };
    struct fs_node *f = tracefs_lookup(path, &(int){ 0 });
    text_len = 0;
    text[0] = '\0';
    if (!f || !f->ops || !f->ops->read || f->ops->read(f, &w) != 0)
        return "<error>";
    return text;
}

int guest_write_file(const char *path, const char *data, bool append)
{
    int err = 0;
    struct fs_node *f = tracefs_lookup(path, &err);
    if (!f)
        return err;
    if (!f->ops || !f->ops->write)
        return -EACCES;
    return f->ops->write(f, data, strlen(data), append);
}

/* The Hit column of name's line in a trace_stat file's text, or -1. */
long trace_stat_hits(const char *text, const char *name)
{
    size_t len = strlen(name);
    for (const char *p = text; *p; p++) {
        if ((p == text || p[-1] == '\n') && strncmp(p, "  ", 2) == 0 &&
            strncmp(p + 2, name, len) == 0 && p[2 + len] == ' ') {
            const char *q = p + 2 + len;
            while (*q == ' ')
                q++;
            long v = 0;
            while (*q >= '0' && *q <= '9')
                v = v * 10 + (*q++ - '0');
            return v;
        }
    }
    return -1;
}
