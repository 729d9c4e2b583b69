/*
 * shell.h - the console shell: commands over the tracefs tree.
 */
#ifndef KERNEL_SHELL_SHELL_H
#define KERNEL_SHELL_SHELL_H

#include "kernel/fs/fs_tree.h"

/*
 * A command. run() gets the words (argv[0] is the command's name) and a writer for its
 * output, and returns 0, a negative errno (the shell prints "name: <error>"), or
 * SHELL_USAGE (the shell prints the usage line). Output goes to the console, or into the
 * file named after '>' when the command has a redirection (out->file is then that file).
 *
 * A command that can run long (a loop whose length the user chooses, or a wait) polls
 * shell_interrupted() - directly, or through out->interrupted(), which is the same for every
 * writer the shell hands out - at least once a tick, and returns -EINTR when it says so; a
 * loop that does not wait also calls cond_resched() (sched.h) so user programs get the CPU.
 */
struct shell_command {
    const char *name;
    const char *usage;
    const char *help;
    int (*run)(int argc, char **argv, struct fs_writer *out);
};

#define SHELL_USAGE 1
#define SHELL_FAILED 2

/* Registers a command at link time: the shell finds every one in the .shell_commands
 * section, so a subsystem adds commands without the shell knowing it. */
#define SHELL_COMMAND(cname, cusage, chelp, cfn)                                  \
    static const struct shell_command shell_command_##cfn                         \
        __attribute__((used, section(".shell_commands"), aligned(4))) = {         \
            cname, cusage, chelp, cfn }

/* Runs one line, its commands one after another; returns 0 when all succeeded, else the
 * status of the first that failed or -EINVAL for a line that does not parse (the reason has
 * been printed). A ^C stops the rest of the line. */
int shell_run_line(const char *line);

/* Runs a boot script (text of a multiboot module) line by line, echoing each line after
 * the prompt; returns how many lines failed. */
int shell_run_script(const char *name, const char *text, size_t len);

/* The interactive loop on the console; never returns. */
void shell_loop(void) __attribute__((noreturn));

/* The one way a command learns of ^C, as signal_pending() is in a Linux kernel loop: true
 * once ^C was typed on the console, which it then takes (one ^C stops one command). Cheap:
 * one load while no ^C is pending. Safe anywhere, with locks held or interrupts off. */
bool shell_interrupted(void);

/* A writer that prints to the console; interrupted() is shell_interrupted(). */
struct fs_writer *shell_console_writer(void);

/* The command called name, or NULL. */
const struct shell_command *shell_find_command(const char *name);

/* Number of boot-script lines that failed so far (poweroff reports it in QEMU's exit code). */
int shell_script_failures(void);

#define SHELL_PROMPT "tracekern> "

/* The console shell's first current directory, and where a bare `cd` goes: tracefs, so
 * that `cat trace` and `echo 1 > tracing_on` work as Linux's tracing docs type them, and
 * programs that `run` starts begin there too (they inherit the cwd, as on Linux). */
#define SHELL_HOME "/sys/kernel/tracing"

#endif
