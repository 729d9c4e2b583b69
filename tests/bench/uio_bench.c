/*
 * uio_bench.c - what the UIO core costs between an interrupt and the program (`make bench`):
 * counting an interrupt (uio_event_notify: the count, the wake-ups of readers and pollers),
 * and a read of /dev/uioN that finds a count waiting, or none (O_NONBLOCK: EAGAIN), through
 * the file's own read operation (the system call's entry and copy are the tree's, measured
 * by usermode_bench). The device is a bench-made UIO device on line 9, which no device of
 * the bench machine raises; its handler is never called. The PCI side (the handler's
 * configuration accesses) is two port round trips, each one instruction to the guest.
 */
#include "drivers/uio/uio.h"
#include "kernel/bench.h"
#include "kernel/fs/file.h"
#include "kernel/fs/fs_tree.h"
#include "kernel/lib/format.h"
#include "kernel/log/printk.h"
#include "uapi/fs.h"
#include "uapi/syscall.h"

#define ITERATIONS 2000
#define BENCH_LINE 9

static bool never_ours(struct uio_info *info)
{
    (void)info;
    return false;
}

static void notify(void *info) { uio_event_notify(info); }

/* One read of 4 bytes through the file's operation; the result is not looked at. */
static void read_count(void *f)
{
    uint32_t count;
    ((struct file *)f)->node->ops->read_data(f, &count, sizeof count);
}

static struct uio_info info = { .name = "uio_bench", .version = "0", .irq = BENCH_LINE,
                                .handler = never_ours };

/* A count made to wait, then the read that takes it. */
static void notify_and_read(void *f)
{
    uio_event_notify(&info);
    read_count(f);
}

BENCHMARK(uio)
{
    struct fs_node *parent = fs_mkdir_path("sys/devices/uio_bench");
    if (!parent || uio_register_device(parent, &info) != 0) {
        printk("bench: uio benchmark cannot run (no device)\n");
        return;
    }
    char path[32];
    ksnprintf(path, sizeof path, "/dev/uio%u", uio_minor(&info));
    int err;
    struct fs_node *node = fs_lookup(path, &err);
    struct file *f = NULL;
    if (!node || file_open(node, O_RDONLY | O_NONBLOCK, &f) != 0) {
        printk("bench: uio benchmark cannot open %s\n", path);
        uio_unregister_device(&info);
        fs_remove(parent);
        return;
    }
    uint64_t notified = bench_cost(notify, &info, ITERATIONS);
    read_count(f); /* takes every count the loop above made */
    uint64_t empty = bench_cost(read_count, f, ITERATIONS);
    uint64_t both = bench_cost(notify_and_read, f, ITERATIONS);
    bench_report("uio: interrupt counted (uio_event_notify)", notified, "instructions");
    bench_report("uio: read of /dev/uioN taking a waiting count", both - notified,
                 "instructions");
    bench_report("uio: read of /dev/uioN, nothing waiting (EAGAIN)", empty, "instructions");
    file_put(f);
    uio_unregister_device(&info);
    fs_remove(parent);
}
