/*
 * task.h - tasks: kernel threads and user processes, and the scheduler that runs them.
 *
 * A task has a pid, a name, a kernel stack and saved registers; a user process also has
 * its own address space (page directory), its open files and its memory regions. pid 0 is
 * each CPU's idle task, which runs background work when nothing else can run.
 *
 * Names in kernel/proc/ (the folder is named as Linux's fs/proc and the docs chapter are):
 * the kernel's object is a *task*, in types, functions and files (struct task, task_*,
 * task.c, task.h, task_internal.h); *process* is the user's word for a task with an
 * address space of its own, kept where users see it (ps, kill, /proc, "process" in
 * messages and in proc_commands.c's shell commands). This header is the interface for
 * other subsystems; task_internal.h holds struct task for the scheduler, system calls,
 * the loader and the shell.
 */
#ifndef KERNEL_PROC_TASK_H
#define KERNEL_PROC_TASK_H

#include <stdbool.h>
#include <stdint.h>

#include "kernel/arch.h"

#define TASK_NAME_MAX 16 /* as Linux's comm, NUL included */

struct task;

/* The pid of the task running on this CPU: what trace events record (trace/core/trace.h). */
extern int32_t cpu_current_pid[];
#define current_pid (cpu_current_pid[arch_cpu_id()]) /* this CPU's (kernel/proc/sched.c) */

/* The task running on this CPU. */
struct task *task_current(void);
int task_pid(const struct task *t);
const char *task_name(const struct task *t);
/* The CPU t runs on, waits for, or ran on last (a sched_wakeup event's target_cpu). */
unsigned task_cpu(const struct task *t);
/* True for a user process (it has an address space of its own). */
bool task_is_user(const struct task *t);
/* True when t has root's powers (effective uid 0: kernel/proc/cred.h), which Linux would ask
 * of a capability such as CAP_PERFMON. */
bool task_privileged(const struct task *t);

/* Sets (set) or clears bit `bit` of the 32-bit word at user address addr in the memory of
 * process t, which need not be the current one. Returns 0, or -EFAULT when that word is not
 * mapped writable for the user in t. Used by user_events to keep enable bits current. */
int task_update_user_bit(struct task *t, uint32_t addr, unsigned bit, bool set);

/* Called once for each task that exits (or is killed), before a process's files are closed
 * and its memory freed, so that subsystems drop what points into it. */
struct task_exit_hook {
    void (*fn)(struct task *t);
    struct task_exit_hook *next;
};
void task_on_exit(struct task_exit_hook *hook);

/* Called once for each process that execs, after the point of no return and while its old
 * memory is still its own, so that subsystems drop what points into that memory (user_events'
 * enable bits, as Linux's user_events_execve drops them: the new program's memory has
 * other things at those addresses). Register before tasks exist (from an initcall). */
struct task_exec_hook {
    void (*fn)(struct task *t);
    struct task_exec_hook *next;
};
void task_on_exec(struct task_exec_hook *hook);

/* uprobes (issue 18): the one function told when t starts running a program (execve, or
 * `run`), once t->program and t->as are the new ones and before t runs it, so that probes
 * on that program's file go into t's copy of it. Register from an initcall. */
void task_on_program_start(void (*fn)(struct task *t));
void task_program_start_hook_run(struct task *t);

/* The one function told when fork or clone gives child a copy of parent's memory (not
 * with CLONE_VM, which shares it), before the child can run, so that state kept about
 * that memory follows into the copy (user_events' enable bits, as Linux's
 * user_event_mm_dup). It returns 0 or -errno; on an error it has undone its own part and
 * the fork fails with that errno. Register before tasks exist (from an initcall). */
void task_on_fork(int (*fn)(struct task *parent, struct task *child));

/*
 * Per-task state a subsystem keeps for a task's whole life (function_graph's return stack,
 * the name trace output shows for a pid), so that the task code need not know who keeps
 * what. create runs for each new task, once its pid and name are set and before it can run,
 * and for the boot task (pid 1), which adopts the context already running; it returns 0 or
 * -errno, and on an error the task is not created (hooks that had succeeded get release).
 * release, if set, runs when the task structure is freed, after the last switch away from
 * it. Register before tasks exist (from an initcall).
 */
struct task_create_hook {
    int (*create)(struct task *t);
    void (*release)(struct task *t);
    struct task_create_hook *next;
};
void task_on_create(struct task_create_hook *hook);

/* The one function told when a task takes a new name (execve gives it its program's), so
 * that whoever keeps names by pid (the trace's saved_cmdlines) sees the new one, as
 * Linux's comm changes at exec. Register before tasks exist (from an initcall). */
void task_on_rename(void (*fn)(struct task *t));

#endif
