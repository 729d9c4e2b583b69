/*
 * boot_info.h - what the boot loader told us, copied into kernel memory.
 */
#ifndef KERNEL_BOOT_INFO_H
#define KERNEL_BOOT_INFO_H

#include <stdint.h>

#define BOOT_MAX_REGIONS 32
#define BOOT_MAX_MODULES 64 /* the built-in programs, a script, and PROGRAMS="..." */
#define BOOT_STRING_MAX 256

#define MEM_REGION_USABLE 1

struct mem_region {
    uint64_t base;
    uint64_t length;
    uint32_t type; /* MEM_REGION_USABLE, or the firmware's code for reserved kinds */
};

struct boot_module {
    uintptr_t start, end;            /* physical; the kernel keeps them reserved */
    char args[BOOT_STRING_MAX];      /* "file arg1 arg2" as given to -initrd or GRUB */
};

struct boot_info {
    char cmdline[BOOT_STRING_MAX * 4];
    char loader[64];
    int region_count;
    struct mem_region regions[BOOT_MAX_REGIONS];
    int module_count;
    struct boot_module modules[BOOT_MAX_MODULES];
    int modules_dropped; /* modules past BOOT_MAX_MODULES the loader gave; not kept */
};

extern struct boot_info boot_info;

#endif
