/*
 * procfs.c - files that show the kernel's own state: /proc and /dev of the tree.
 *
 *   /proc/cmdline    the kernel command line
 *   /proc/meminfo    physical pages and the kernel heap
 *   /proc/uptime     seconds since boot
 *   /proc/kallsyms   the symbol table built into the image, as Linux prints it: "c0101234 T name"
 *                    in address order, addresses 0 for the unprivileged
 *   /dev/kmsg        read: the kernel log (root only: dmesg_restrict); write: add a line
 *   /proc/ipc        IPC endpoints: owner, traffic, who waits
 *   /dev/null        reads nothing, swallows writes
 *   /dev/zero        reads zeros, swallows writes
 * (/dev/console, the programs' terminal, is kernel/fs/tty.c's.)
 */
#include "kernel/shell/console.h"
#include "kernel/proc/cred.h"
#include "kernel/lib/errno.h"
#include "kernel/fs/file.h"
#include "kernel/fs/procfs.h"
#include "kernel/mm/heap.h"
#include "kernel/mm/highmem.h"
#include "kernel/init.h"
#include "kernel/ipc/ipc.h"
#include "kernel/log/klog.h"
#include "kernel/mm/page_alloc.h"
#include "kernel/params.h"
#include "kernel/log/printk.h"
#include "kernel/proc/task_internal.h"
#include "kernel/lib/symbols.h"
#include "kernel/time.h"
#include "kernel/fs/fs_tree.h"
#include "kernel/lib/string.h"
#include "uapi/syscall.h"

static int read_cmdline(struct fs_node *f, struct fs_writer *out)
{
    (void)f;
    fs_printf(out, "%s\n", kernel_cmdline_text());
    return 0;
}

static int read_meminfo(struct fs_node *f, struct fs_writer *out)
{
    (void)f;
    struct heap_stats hs;
    heap_get_stats(&hs);
    const unsigned kb = PAGE_SIZE / 1024;
    /* Linux's lines, and with CONFIG_HIGHMEM its four more (fs/proc/meminfo.c). The free
     * counts are read after the first line is out: a program's read takes the page for
     * the text then, and MemFree says what is free while the program has its answer. */
    fs_printf(out, "MemTotal:     %8u kB\n",
              (page_alloc_total_pages() + highmem_total_pages()) * kb);
    uint32_t low_free = page_alloc_free_pages(), high_free = highmem_free_pages();
    fs_printf(out, "MemFree:      %8u kB\n", (low_free + high_free) * kb);
    fs_printf(out, "HighTotal:    %8u kB\n", highmem_total_pages() * kb);
    fs_printf(out, "HighFree:     %8u kB\n", high_free * kb);
    fs_printf(out, "LowTotal:     %8u kB\n", page_alloc_total_pages() * kb);
    fs_printf(out, "LowFree:      %8u kB\n", low_free * kb);
    fs_printf(out, "HeapTotal:    %8u kB\n", (unsigned)(hs.chunk_bytes / 1024));
    fs_printf(out, "HeapUsed:     %8u kB\n", (unsigned)(hs.used_bytes / 1024));
    fs_printf(out, "HeapAllocs:   %8u\n", (unsigned)hs.allocations);
    return 0;
}

static int read_uptime(struct fs_node *f, struct fs_writer *out)
{
    (void)f;
    uint64_t ns = time_ns();
    fs_printf(out, "%u.%02u\n", (unsigned)(ns / 1000000000u),
              (unsigned)(ns % 1000000000u / 10000000u));
    return 0;
}

/* Addresses are shown to root only, zeros to anyone else, as Linux with kptr_restrict=1
 * (CAP_SYSLOG). Linux asks about the opener; the reader here, who is the opener unless it
 * dropped its ids since, which only hides more. */
int kallsyms_print(struct fs_writer *out, bool addresses)
{
    const struct symbol_table *t = kernel_symbols();
    bool show = addresses;
    for (uint32_t i = 0; i + 1 < t->count; i++) {
        fs_printf(out, "%08x %c %s\n", show ? t->entries[i].address : 0, symbol_type(t, i),
                  t->names + t->entries[i].name_offset);
        if (out->interrupted(out))
            return -EINTR;
    }
    return 0;
}

static int read_kallsyms(struct fs_node *f, struct fs_writer *out)
{
    (void)f;
    return kallsyms_print(out, cred_privileged(&current->cred));
}

static void writer_emit(void *ctx, const char *text, size_t len)
{
    struct fs_writer *out = ctx;
    out->emit(out, text, len);
}

static int read_kmsg(struct fs_node *f, struct fs_writer *out)
{
    (void)f;
    klog_dump(writer_emit, out);
    return 0;
}

/*
 * Linux with dmesg_restrict=1 (Debian's default): reading the kernel log needs CAP_SYSLOG,
 * which here is root. devkmsg_open asks only an open that reads (a writer needs just the
 * file's w bit, which 0644 gives root alone) and answers -EPERM, after the mode check has
 * passed. The log holds what was typed at the console (the shell's echo of a script line,
 * "X: command not found"), so no other user may read it.
 */
static int open_kmsg(struct fs_node *node, struct file *f)
{
    (void)node;
    if ((f->flags & O_ACCMODE) != O_WRONLY && !cred_privileged(&current->cred))
        return -EPERM;
    return 0;
}

static int write_kmsg(struct fs_node *f, const char *data, size_t len, bool append)
{
    (void)f;
    (void)append;
    printk("%.*s%s", (int)len, data, len && data[len - 1] == '\n' ? "" : "\n");
    return 0;
}

static int read_null(struct fs_node *f, struct fs_writer *out)
{
    (void)f;
    (void)out;
    return 0;
}

static int write_null(struct fs_node *f, const char *data, size_t len, bool append)
{
    (void)f;
    (void)data;
    (void)len;
    (void)append;
    return 0;
}

/* /dev/zero: reads give zeros, writes are swallowed. */
static long read_zero(struct file *f, void *buf, size_t len)
{
    (void)f;
    memset(buf, 0, len);
    return (long)len;
}

static long write_zero(struct file *f, const void *data, size_t len)
{
    (void)f;
    (void)data;
    return (long)len;
}

static const struct fs_file_ops zero_ops = { .read_data = read_zero, .write_data = write_zero };
/* /proc/ipc: every endpoint, who receives on it, and its traffic so far. */
static int read_ipc(struct fs_node *f, struct fs_writer *out)
{
    (void)f;
    fs_puts(out, " EP OWNER NAME             MESSAGES    CALLS  REPLIES WAITING\n");
    struct ipc_endpoint_stats st;
    for (int i = 0; i < IPC_ENDPOINTS; i++)
        if (ipc_endpoint_stats(i, &st))
            fs_printf(out, "%3d %5d %-15s %9llu %8llu %8llu %u sender%s%s\n", st.id, st.owner,
                      st.name, (unsigned long long)st.messages, (unsigned long long)st.calls,
                      (unsigned long long)st.replies, st.waiting_senders,
                      st.waiting_senders == 1 ? "" : "s",
                      st.receiver_waiting ? ", receiver waiting" : "");
    return 0;
}

static const struct fs_file_ops ipc_ops = { .read = read_ipc };
static const struct fs_file_ops cmdline_ops = { .read = read_cmdline };
static const struct fs_file_ops meminfo_ops = { .read = read_meminfo };
static const struct fs_file_ops uptime_ops = { .read = read_uptime };
static const struct fs_file_ops kallsyms_ops = { .read = read_kallsyms };
static const struct fs_file_ops kmsg_ops = { .read = read_kmsg, .write = write_kmsg,
                                             .open = open_kmsg };
static const struct fs_file_ops null_ops = { .read = read_null, .write = write_null,
                                             .streams = true };

static void procfs_init(void)
{
    fs_set_clock(time_ns); /* nodes made from now on carry their creation time; earlier
                            * ones, made at boot, show time 0: the boot */
    /* dr-xr-xr-x: /proc's files default to 0444, as Linux's. */
    struct fs_node *proc = fs_set_mode(fs_mkdir_path("proc"), 0555, 0, 0);
    struct fs_node *dev = fs_set_mode(fs_mkdir_path("dev"), 0755, 0, 0);
    fs_create(proc, "cmdline", &cmdline_ops, 0);
    fs_create(proc, "meminfo", &meminfo_ops, 0);
    fs_create(proc, "uptime", &uptime_ops, 0);
    fs_create(proc, "kallsyms", &kallsyms_ops, 0);
    fs_create(proc, "ipc", &ipc_ops, 0);
    /* As devtmpfs and udev make them, with Linux's device numbers: kmsg crw-r--r-- 1:11,
     * null and zero crw-rw-rw- 1:3 and 1:5. */
    fs_set_rdev(fs_set_mode(fs_create(dev, "kmsg", &kmsg_ops, 0), 0644, 0, 0), 1, 11);
    fs_set_rdev(fs_set_mode(fs_create(dev, "null", &null_ops, 0), 0666, 0, 0), 1, 3);
    fs_set_rdev(fs_set_mode(fs_create(dev, "zero", &zero_ops, 0), 0666, 0, 0), 1, 5);
}
INITCALL(fs, procfs_init);
