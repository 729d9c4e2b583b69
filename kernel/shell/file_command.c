/*
 * file_command.c - the `file` command: what a path of the tree is, as file(1) tells it.
 *
 * Reading /bin/NAME gives a program's bytes, as on Linux; a person who wants to know what
 * the program is and where it will go asks `file /bin/NAME` instead: file(1)'s line
 * ("ELF 32-bit LSB executable, Intel 80386, ... statically linked"), then the segments
 * tracekern's loader checks and places, or its reason for refusing the image. Other paths
 * get file(1)'s words for them: a directory, a symbolic link (not followed without -L), a
 * character device, or "empty" for generated text, whose size is 0 as /proc's is on Linux.
 */
#include "kernel/fs/fs_task.h"
#include "kernel/lib/errno.h"
#include "kernel/lib/string.h"
#include "kernel/log/printk.h"
#include "kernel/proc/programs.h"
#include "kernel/shell/shell.h"
#include "uapi/fs.h"

/* One path's line (or, for a program, lines); 0 or -errno when it cannot be found. */
static int describe_path(const char *path, bool follow, struct fs_writer *out)
{
    int err = 0;
    struct fs_node *node = task_resolve(path, follow ? 0 : FS_NOFOLLOW, &err);
    if (!node)
        return err;
    fs_printf(out, "%s: ", path);
    const struct program *p = program_of_node(node);
    char target[FS_PATH_MAX];
    if (p)
        program_describe(p, out);
    else if (fs_is_dir(node))
        fs_puts(out, "directory\n");
    else if (fs_is_symlink(node) && node->ops->readlink(node, target, sizeof target) >= 0)
        fs_printf(out, "symbolic link to %s\n", target);
    else if (fs_type(node) == S_IFCHR)
        fs_printf(out, "character special (%u/%u)\n", node->rdev >> 8, node->rdev & 0xff);
    else if (node->size == 0)
        fs_puts(out, "empty\n");
    else
        fs_printf(out, "data, %u bytes\n", node->size);
    return 0;
}

static int cmd_file(int argc, char **argv, struct fs_writer *out)
{
    int first = 1;
    bool follow = argc > 1 && strcmp(argv[1], "-L") == 0;
    if (follow)
        first = 2;
    if (first >= argc)
        return SHELL_USAGE;
    int status = 0;
    for (int i = first; i < argc; i++) {
        int err = describe_path(argv[i], follow, out);
        if (err) {
            printk("file: %s: %s\n", argv[i], error_name(err));
            status = SHELL_FAILED;
        }
    }
    return status;
}
SHELL_COMMAND("file", "file [-L] PATH...",
              "say what each path is; for a program in /bin: its ELF type, size, entry point "
              "and the segments the loader places (-L: follow symbolic links)",
              cmd_file);
