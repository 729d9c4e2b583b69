/*
 * scale_names_bench.c - how finding and adding names grows with their number, in guest
 * instructions (`make bench`; issue 24). Each row is a console line
 * `SCALE CURVE SIZE VALUE` that the scale harness collects.
 *
 *   tracefs_lookup_last      tracefs_lookup() of the name that sorts last in a directory
 *                            of N files (N = 1 ... 5000): the path walk's one hash probe
 *                            per component (kernel/fs/fs_tree.c find_child)
 *   user_event_register_one  one more user event, "u:NAME u32 a" written to
 *                            dynamic_events, with N already registered (N = 10 ... 900:
 *                            UE_EVENT_BUDGET admits about 930 such events):
 *                            parse, find_event, create_event and trace_event_register
 *                            (the event's tracefs directory is made once events/
 *                            user_events has been looked into, its files when it is)
 */
#include "kernel/arch.h"
#include "kernel/bench.h"
#include "kernel/fs/fs_layout.h"
#include "kernel/fs/fs_tree.h"
#include "kernel/lib/format.h"
#include "kernel/lib/string.h"
#include "kernel/log/printk.h"

static int read_nothing(struct fs_node *f, struct fs_writer *out)
{
    (void)f;
    (void)out;
    return 0;
}
static const struct fs_file_ops plain_ops = { .read = read_nothing };

struct lookup_arg {
    const char *path;
    struct fs_node *want;
    bool wrong; /* a lookup found something else: the row is not reported */
};

static void lookup_one(void *arg)
{
    struct lookup_arg *a = arg;
    int err;
    if (tracefs_lookup(a->path, &err) != a->want)
        a->wrong = true;
}

BENCHMARK(scale_tracefs_lookup)
{
    static const uint32_t sizes[] = { 1, 10, 100, 1000, 5000 };
    struct fs_node *dir = fs_mkdir(tracefs_root(), "scale_lookup");
    if (!dir) {
        printk("bench: no memory for scale_tracefs_lookup\n");
        return;
    }
    uint32_t made = 0;
    char name[FS_NAME_MAX], path[FS_PATH_MAX];
    for (unsigned s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        struct fs_node *last = NULL;
        /* Names f00000, f00001, ... in creation order: the newest sorts last. */
        while (made < sizes[s]) {
            ksnprintf(name, sizeof name, "f%05u", made);
            last = fs_create(dir, name, &plain_ops, NULL);
            if (!last) {
                printk("bench: scale_tracefs_lookup: no memory at %u files\n", made);
                goto out;
            }
            made++;
        }
        ksnprintf(path, sizeof path, "scale_lookup/f%05u", made - 1);
        struct lookup_arg a = { path, last, false };
        uint64_t cost = bench_cost(lookup_one, &a, 200);
        if (a.wrong) {
            printk("bench: scale_tracefs_lookup: %s not found\n", path);
            goto out;
        }
        printk("SCALE tracefs_lookup_last %u %llu\n", made, (unsigned long long)cost);
    }
out:
    while (dir->children)
        fs_remove(dir->children);
    fs_remove(dir);
}

struct dyn_arg {
    struct fs_node *file; /* dynamic_events */
    char line[FS_NAME_MAX + 16];
    int err;
};

static void write_line(void *arg)
{
    struct dyn_arg *a = arg;
    a->err = a->file->ops->write(a->file, a->line, strlen(a->line), true);
}

/* Writes one dynamic_events line (unmeasured): 0 or -errno. */
static int dyn(struct dyn_arg *a, const char *fmt, uint32_t n)
{
    ksnprintf(a->line, sizeof a->line, fmt, n);
    write_line(a);
    return a->err;
}

BENCHMARK(scale_user_event_register)
{
    static const uint32_t sizes[] = { 10, 100, 300, 900 };
    enum { TRIES = 4 };
    int err;
    struct dyn_arg a = { .file = tracefs_lookup("dynamic_events", &err) };
    if (!a.file || !a.file->ops->write) {
        printk("bench: scale_user_event_register: no dynamic_events\n");
        return;
    }
    uint32_t made = 0;
    for (unsigned s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        while (made < sizes[s]) {
            if (dyn(&a, "u:scale_%u u32 a\n", made)) {
                printk("bench: scale_user_event_register: event %u: error %d\n", made, a.err);
                goto out;
            }
            made++;
        }
        /* One more, measured, then deleted again (unmeasured), TRIES times. */
        uint64_t total = 0;
        for (uint32_t t = 0; t < TRIES; t++) {
            ksnprintf(a.line, sizeof a.line, "u:scale_extra_%u u32 a\n", t);
            total += bench_cost(write_line, &a, 1);
            if (a.err || dyn(&a, "-:scale_extra_%u\n", t)) {
                printk("bench: scale_user_event_register: extra event: error %d\n", a.err);
                goto out;
            }
        }
        printk("SCALE user_event_register_one %u %llu\n", made, (unsigned long long)(total / TRIES));
    }
out:
    while (made > 0)
        dyn(&a, "-:scale_%u\n", --made);
}
