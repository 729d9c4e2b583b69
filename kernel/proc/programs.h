/*
 * programs.h - the user programs the boot loader brought (ELF multiboot modules).
 *
 * Each is listed in /bin of the file tree under the name of its module's file (its last
 * path component), and `run NAME ARGS` starts it. Reading /bin/NAME gives the image's bytes,
 * as reading a program's file does on Linux; `file /bin/NAME` describes it.
 */
#ifndef KERNEL_PROC_PROGRAMS_H
#define KERNEL_PROC_PROGRAMS_H

#include <stdbool.h>
#include <stdint.h>

struct program {
    char name[32];
    const void *image;
    uint32_t size;
    struct program *next;
};

/* True when a module's contents look like an ELF file (it is then a program, not a
 * script). */
bool program_is_elf(const void *data, uint32_t len);

/* Adds the module whose multiboot string is args ("path/NAME ...") as program NAME. */
void program_add(const char *args, const void *image, uint32_t size);

/* The program called name, or NULL. */
const struct program *program_find(const char *name);
/* The program whose /bin file node is, or NULL for any other node (execve). */
struct fs_node;
const struct program *program_of_node(const struct fs_node *node);
/* Describes the image as file(1) does ("ELF 32-bit LSB executable, Intel 80386, ...,
 * statically linked"), then its size, entry point and the loadable segments as the loader
 * checks and places them; for an image the loader refuses, its reason. */
struct fs_writer;
void program_describe(const struct program *p, struct fs_writer *out);
/* All programs, in the order they were added. */
const struct program *program_list(void);

#endif
