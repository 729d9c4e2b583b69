/*
 * multiboot.c - reads the multiboot v1 information structure the loader left in memory.
 *
 * Everything is copied into boot_info before the memory it lies in can be reused: the
 * loader puts these structures anywhere in free low memory. Every address in them is
 * physical, read through the direct map (boot/multiboot.asm maps all of low memory before
 * this runs).
 */
#include "arch/x86/multiboot.h"

#include "kernel/boot_info.h"
#include "kernel/mm/page_alloc.h"
#include "kernel/lib/string.h"

#define MB_INFO_MEMORY (1u << 0)
#define MB_INFO_CMDLINE (1u << 2)
#define MB_INFO_MODULES (1u << 3)
#define MB_INFO_MEMORY_MAP (1u << 6)
#define MB_INFO_LOADER_NAME (1u << 9)

struct multiboot_info {
    uint32_t flags;
    uint32_t mem_lower, mem_upper; /* KiB below 1 MiB and above it */
    uint32_t boot_device;
    uint32_t cmdline;
    uint32_t mods_count, mods_addr;
    uint32_t syms[4];
    uint32_t mmap_length, mmap_addr;
    uint32_t drives_length, drives_addr;
    uint32_t config_table;
    uint32_t boot_loader_name;
} __attribute__((packed));

struct multiboot_module {
    uint32_t mod_start, mod_end, string, reserved;
} __attribute__((packed));

struct multiboot_mmap_entry {
    uint32_t size; /* of the rest of this entry: the next one is size + 4 bytes further */
    uint64_t base_addr, length;
    uint32_t type;
} __attribute__((packed));

struct boot_info boot_info;

/* Copies a C string the loader left at physical address src, truncating to size-1. */
static void copy_string(char *dst, uint32_t src, size_t size)
{
    const char *s = src ? phys_to_virt(src) : "";
    size_t i = 0;
    for (; s[i] && i + 1 < size; i++)
        dst[i] = s[i];
    dst[i] = '\0';
}

static void read_memory_map(const struct multiboot_info *mb)
{
    if (mb->flags & MB_INFO_MEMORY_MAP) {
        uint32_t p = mb->mmap_addr, end = mb->mmap_addr + mb->mmap_length;
        while (p < end && boot_info.region_count < BOOT_MAX_REGIONS) {
            const struct multiboot_mmap_entry *e = phys_to_virt(p);
            struct mem_region *r = &boot_info.regions[boot_info.region_count++];
            r->base = e->base_addr;
            r->length = e->length;
            r->type = e->type;
            p += e->size + 4;
        }
    } else if (mb->flags & MB_INFO_MEMORY) {
        /* No map: only the classic "memory above 1 MiB" count. */
        boot_info.regions[0] = (struct mem_region){ 0x100000, (uint64_t)mb->mem_upper * 1024,
                                                    MEM_REGION_USABLE };
        boot_info.region_count = 1;
    }
}

static void read_modules(const struct multiboot_info *mb)
{
    if (!(mb->flags & MB_INFO_MODULES))
        return;
    const struct multiboot_module *m = phys_to_virt(mb->mods_addr);
    for (uint32_t i = 0; i < mb->mods_count && i < BOOT_MAX_MODULES; i++) {
        struct boot_module *bm = &boot_info.modules[boot_info.module_count++];
        bm->start = m[i].mod_start;
        bm->end = m[i].mod_end;
        copy_string(bm->args, m[i].string, sizeof bm->args);
    }
    if (mb->mods_count > BOOT_MAX_MODULES)
        boot_info.modules_dropped = (int)(mb->mods_count - BOOT_MAX_MODULES);
}

bool multiboot_read(uint32_t magic, uint32_t info_phys)
{
    if (magic != MULTIBOOT_LOADER_MAGIC)
        return false;
    const struct multiboot_info *mb = phys_to_virt(info_phys);
    if (mb->flags & MB_INFO_CMDLINE)
        copy_string(boot_info.cmdline, mb->cmdline, sizeof boot_info.cmdline);
    if (mb->flags & MB_INFO_LOADER_NAME)
        copy_string(boot_info.loader, mb->boot_loader_name, sizeof boot_info.loader);
    read_memory_map(mb);
    read_modules(mb);
    return true;
}
