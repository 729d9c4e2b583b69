/*
 * multiboot.h - reading the multiboot v1 hand-over into boot_info.
 */
#ifndef ARCH_X86_MULTIBOOT_H
#define ARCH_X86_MULTIBOOT_H

#include <stdbool.h>
#include <stdint.h>

#define MULTIBOOT_LOADER_MAGIC 0x2badb002u

/* Fills boot_info from the loader's structure; false if magic says it is no multiboot
 * loader. Must run before anything allocates memory. */
bool multiboot_read(uint32_t magic, uint32_t info_phys);

#endif
