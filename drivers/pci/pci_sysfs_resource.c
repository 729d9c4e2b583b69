/*
 * pci_sysfs_resource.c - the resourceN files of a function's sysfs directory, as Linux
 * 6.1's pci-sysfs.c (pci_create_resource_files) makes them: one per BAR that decodes
 * something, mode 0600 (root only), st_size the BAR's length.
 *
 *   resourceN (memory BAR)     mmap only: the BAR's pages, uncached (pgprot_noncached:
 *                              PCD and PWT in the PTE), MAP_SHARED or private, the offset
 *                              counted in pages from the BAR's first page; a range past
 *                              the BAR is EINVAL (pci_mmap_fits). read and write: EIO
 *                              (sysfs_kf_bin_read/write of an attribute without them).
 *   resourceN_wc (prefetchable memory BAR)   the same pages; Linux maps them
 *                              write-combining through PAT, which this kernel does not
 *                              program, so they are uncached here too.
 *   resourceN (I/O BAR)        read/pread and write/pwrite of 1, 2 or 4 bytes at a port
 *                              offset (pci_resource_io; x86 lets them be unaligned); any
 *                              other size EINVAL; mmap ENODEV (x86 has no
 *                              arch_can_pci_mmap_io: the file has no mmap at all).
 *
 * The sysfs layer's own rules come first, as in sysfs_kf_bin_read/write: a read at or past
 * the end is 0, a write there EFBIG, and one that runs past the end is cut to it (so 4
 * bytes 2 before the end become a 2-byte access). The port accesses go through
 * pci_port.c's accessors, so mmiotrace's extension records them as IN and OUT with the
 * process's pid. A mapping of a memory BAR made while mmiotrace is on is traced
 * (arch/x86/mmiotrace_user.c).
 */
#include "drivers/pci/pci_sysfs.h"

#include "drivers/pci/pci_port.h"
#include "drivers/pci/pci_resource.h"
#include "kernel/fs/file.h"
#include "kernel/fs/fs_tree.h"
#include "kernel/lib/errno.h"
#include "kernel/lib/format.h"
#include "kernel/mm/page_alloc.h"
#include "kernel/mm/uaccess.h"

/* The file's BAR: its name's digit ("resource2", "resource2_wc"), as Linux keeps the
 * number in the attribute's private field. */
static const struct pci_resource *file_bar(const struct file *f)
{
    const struct pci_device *d = f->node->data;
    return &d->resource[f->node->name[8] - '0'];
}

/* sysfs's cut of [pos, pos+*len) to the file's size: false when pos is at or past it. */
static bool clip_to_size(const struct pci_resource *r, uint64_t pos, size_t *len)
{
    uint64_t size = pci_resource_len(r);
    if (pos >= size)
        return false;
    if (*len > size - pos)
        *len = (size_t)(size - pos);
    return true;
}

/* Linux's pci_resource_io after the cut: the port must lie in the BAR and the access be 1,
 * 2 or 4 bytes. */
static long port_access(const struct pci_resource *r, uint64_t pos, size_t len, void *buf,
                        bool write)
{
    if (!(r->flags & IORESOURCE_IO))
        return -EIO; /* a memory BAR's file has only mmap */
    uint64_t port = r->start + pos;
    if (port > r->end)
        return 0;
    if (port + len - 1 > r->end)
        return -EINVAL;
    if (len != 1 && len != 2 && len != 4)
        return -EINVAL;
    uint8_t *b = buf;
    if (write) {
        uint32_t v = 0;
        for (size_t i = 0; i < len; i++)
            v |= (uint32_t)b[i] << (8 * i);
        pci_port_write((uint16_t)port, (unsigned)len, v);
    } else {
        uint32_t v = pci_port_read((uint16_t)port, (unsigned)len);
        for (size_t i = 0; i < len; i++)
            b[i] = (uint8_t)(v >> (8 * i));
    }
    return (long)len;
}

/* read()/pread64() (fs_tree.h read_at): the port read into a word here, then its bytes to
 * the program's buffer at ubuf. */
static int32_t read_resource_at(struct file *f, uint32_t ubuf, uint32_t count, uint64_t pos)
{
    const struct pci_resource *r = file_bar(f);
    size_t len = count;
    uint8_t bytes[4];
    if (len == 0 || !clip_to_size(r, pos, &len))
        return 0;
    if (len > sizeof bytes)
        return (r->flags & IORESOURCE_IO) ? -EINVAL : -EIO; /* before any port is touched */
    long n = port_access(r, pos, len, bytes, false);
    if (n > 0 && copy_to_user(ubuf, bytes, (uint32_t)n) != 0)
        return -EFAULT;
    return (int32_t)n;
}

static long write_resource_at(struct file *f, const void *buf, size_t len, uint64_t pos)
{
    const struct pci_resource *r = file_bar(f);
    if (len == 0)
        return 0;
    if (!clip_to_size(r, pos, &len))
        return -EFBIG;
    return port_access(r, pos, len, (void *)buf, true);
}

/* One page of a memory BAR's mapping: the page at offset bytes from the BAR's first page,
 * which must be one of the BAR's (pci_mmap_fits: every page of the request, so a range
 * that runs past the BAR is EINVAL at its first page past it). */
static int mmap_resource(struct file *f, uint32_t offset, uintptr_t *phys, bool *writable)
{
    const struct pci_resource *r = file_bar(f);
    uint64_t len = pci_resource_len(r);
    uint64_t pages = ((len - 1) >> 12) + 1;
    uint64_t first = r->start & ~(uint64_t)(PAGE_SIZE - 1);
    if (len == 0 || offset / PAGE_SIZE >= pages || first + pages * PAGE_SIZE > (1ull << 32))
        return -EINVAL;
    *phys = (uintptr_t)(first + offset);
    *writable = true;
    return 0;
}

static const struct fs_file_ops memory_bar_ops = {
    .mmap = mmap_resource,
    .mmap_device = true,
    .read_at = read_resource_at,
    .write_at = write_resource_at,
};

static const struct fs_file_ops io_bar_ops = {
    .read_at = read_resource_at,
    .write_at = write_resource_at,
};

void pci_sysfs_add_resource_files(struct pci_device *d)
{
    for (int bar = 0; bar < 6; bar++) {
        const struct pci_resource *r = &d->resource[bar];
        uint64_t len = pci_resource_len(r);
        if (!len || !(r->flags & (IORESOURCE_IO | IORESOURCE_MEM)))
            continue;
        bool io = r->flags & IORESOURCE_IO;
        char name[FS_NAME_MAX];
        for (int wc = 0; wc <= (!io && (r->flags & IORESOURCE_PREFETCH)); wc++) {
            ksnprintf(name, sizeof name, wc ? "resource%d_wc" : "resource%d", bar);
            struct fs_node *n =
                fs_set_mode(fs_create(d->sysfs_dir, name, io ? &io_bar_ops : &memory_bar_ops, d),
                            0600, 0, 0);
            if (n)
                n->size = (uint32_t)len; /* st_size, as Linux's attribute size */
        }
    }
}
