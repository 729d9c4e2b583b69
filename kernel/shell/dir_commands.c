/*
 * dir_commands.c - the shell's mkdir and rmdir (issue 18): what a Linux user types to make
 * and remove a trace instance (`mkdir instances/foo`). They do what mkdir(2) and rmdir(2)
 * do for a program (kernel/fs/fs_dirops.h).
 */
#include "kernel/fs/fs_dirops.h"
#include "kernel/lib/errno.h"
#include "kernel/log/printk.h"
#include "kernel/shell/shell.h"

/* Runs op on every argument; reports each failure as coreutils does and goes on. */
static int each_dir(const char *cmd, int argc, char **argv, int (*op)(const char *path))
{
    if (argc < 2)
        return SHELL_USAGE;
    int status = 0;
    for (int i = 1; i < argc; i++) {
        int err = op(argv[i]);
        if (err) {
            printk("%s: %s: %s\n", cmd, argv[i], error_name(err));
            status = SHELL_FAILED;
        }
    }
    return status;
}

static int cmd_mkdir(int argc, char **argv, struct fs_writer *out)
{
    (void)out;
    return each_dir("mkdir", argc, argv, fs_mkdir_path_as_task);
}
SHELL_COMMAND("mkdir", "mkdir DIR...", "make directories (tracefs: instances/NAME)", cmd_mkdir);

static int cmd_rmdir(int argc, char **argv, struct fs_writer *out)
{
    (void)out;
    return each_dir("rmdir", argc, argv, fs_rmdir_path_as_task);
}
SHELL_COMMAND("rmdir", "rmdir DIR...", "remove directories (tracefs: instances/NAME)", cmd_rmdir);
