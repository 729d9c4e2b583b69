/*
 * task_internal.h - the task structure and the life of a task, for the kernel's own use
 * (the scheduler, system calls, the loader, the shell). Other subsystems use
 * kernel/proc/task.h, which hides struct task.
 */
#ifndef KERNEL_PROC_TASK_INTERNAL_H
#define KERNEL_PROC_TASK_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "kernel/arch.h"
#include "kernel/proc/cred.h"
#include "kernel/proc/signal.h"
#include "kernel/proc/task.h"

#define TASK_FILES_MAX 32
#define TASK_CWD_MAX 256 /* FS_PATH_MAX: the longest path the file tree takes */
#define KERNEL_STACK_PAGES 4 /* 16 KiB, the lowest page of which is an unmapped guard */

enum task_state {
    TASK_RUNNABLE, /* running, or waiting for the CPU */
    TASK_SLEEPING, /* in sleep_on() */
    TASK_ZOMBIE,   /* exited; its parent has not collected the status yet */
};

struct file;
struct addr_space;

struct task {
    int pid;
    char name[TASK_NAME_MAX];
    enum task_state state;
    uint32_t saved_esp;       /* kernel stack pointer while switched out */
    uintptr_t kstack;         /* lowest address of its kernel stack (0: the boot stack) */
    struct addr_space *as;    /* NULL for kernel threads */
    struct file *files[TASK_FILES_MAX];
    uint32_t fd_cloexec;      /* bit n set: descriptor n is closed by execve (FD_CLOEXEC) */
    void (*thread_fn)(void *arg); /* kernel threads: what they run */
    void *thread_arg;
    void *graph_stack;        /* function_graph's return stack for this task */
    struct arch_task arch;    /* the machine's own per-task state (kernel/arch.h) */

    const void *wait_chan;    /* what it sleeps on */
    uint64_t wake_at_ns;      /* 0: no timeout */
    int wake_reason;          /* sleep_on()'s result */
    bool killed;              /* exits at its next return to user mode or sleep */
    bool detached;            /* nobody will wait for it: freed as soon as it is dead */
    int exit_status;          /* 0-255 for exit(), 128+signal-like number when killed */
    char exit_reason[48];     /* "killed: page fault" ... for the shell's report */
    uint64_t start_ns;
    uint64_t cpu_ns;          /* CPU time it used up to its last switch out (sched.c) */
    uint32_t syscalls;        /* system calls made, for ps */
    struct cred cred;         /* its user and group ids (kernel/proc/cred.h); root's: all 0 */
    struct sigstate sig;      /* signal actions, blocked mask, alternate stack (signal.h) */
    /* Files and the terminal (issue 16): plain values, so that fork copies them as they are. */
    char cwd[TASK_CWD_MAX];   /* the current directory's absolute path; "": the root */
    uint32_t umask;           /* the bits open/mkdir take away from a new file's mode */

    struct task *next;        /* all tasks, in creation order (task_list) */
};

/* The task running now (also task_current()). */
extern struct task *current;

/* Turns the boot context into the first task (pid 1, the shell) and creates the idle task
 * (pid 0), which runs background work when no other task can run. */
void tasks_init(void);

/* Starts a kernel thread running fn(arg). Returns it, or NULL when out of memory. */
struct task *task_create_kernel(const char *name, void (*fn)(void *), void *arg);

/* The limits on tasks (Linux's kernel.threads-max) and on the processes of one real user
 * other than root (Linux's default RLIMIT_NPROC): spawning past either is -EAGAIN. */
uint32_t task_limit(void);
uint32_t task_user_limit(void);

/* Creates a user process from an ELF image with the given argument strings, with the
 * current task's credentials; it starts running when the scheduler picks it. 0 with *out set, or -errno (-ENOEXEC for a bad
 * image, -ENOMEM, -E2BIG for arguments that do not fit, -EAGAIN past task_limit() or, for a
 * user other than root, task_user_limit()). */
int process_spawn(const char *name, const void *elf, uint32_t elf_len, int argc,
                  char *const argv[], struct task **out);
/* The same, with credentials cred instead of the current task's (`run -u`): the process
 * never runs with any other. */
int process_spawn_as(const char *name, const void *elf, uint32_t elf_len, int argc,
                     char *const argv[], const struct cred *cred, struct task **out);

/* Ends the current task with status (kept for task_wait). Never returns. */
void task_exit(int status) __attribute__((noreturn));

/* Waits until t has exited, or timeout_ns passed (0: no timeout); on exit frees it and
 * returns 0 with its status in *status. -ETIMEDOUT, or -EINTR when the caller is killed. */
int task_wait(struct task *t, int *status, char *reason, uint64_t timeout_ns);

/* Asks t to end: at its next return to user mode, or at once if it is sleeping. Status
 * and reason say why (as task_exit's). */
void task_kill(struct task *t, int status, const char *reason);

/* The living (not yet collected) task with this pid, or NULL. */
struct task *task_find(int pid);
/* The task list, in creation order: the shell (pid 1), the idle task (pid 0, made just
 * after it), then every other task as it was created, so pids 2, 3, ... rise along it.
 * `ps` lists it so and the scheduler takes turns along it. */
struct task *task_list(void);

/* The idle task: chosen only when nothing else is runnable. */
extern struct task *idle_task;

/* Called by the scheduler right after each switch: frees a detached task that just died. */
void task_finish_switch(struct task *prev);

/* The arch layer: prepares a new task's kernel stack so that the first switch to it
 * starts a kernel thread (task_thread_main) or enters ring 3 at entry with stack user_esp. */
void arch_task_init_kernel(struct task *t);
void arch_task_init_user(struct task *t, uint32_t entry, uint32_t user_esp);
/* Switches registers and stacks from prev to next (and the CPU's ring-0 stack, page
 * directory and TSS fields to next's). */
void arch_switch_to(struct task *prev, struct task *next);
/* A kernel thread's first code: runs t->thread_fn and exits. */
void task_thread_main(void) __attribute__((noreturn));

#endif
