/*
 * wait.c - parents and children: what a dying process leaves its parent (a zombie with
 * Linux's wait status, SIGCHLD), its children (the shell as their new parent: orphans are
 * freed when they die, never leaked) and its vfork parent (free to go on), and wait4's
 * search for a child that has ended.
 *
 * Parent links, states and the task list change only with interrupts off: one CPU.
 */
#include "kernel/arch.h"
#include "kernel/lib/errno.h"
#include "kernel/proc/sched.h"
#include "kernel/proc/signal.h"
#include "kernel/proc/task_internal.h"
#include "kernel/trace_hooks.h"
#include "kernel/time.h"

#define WNOHANG 1

void task_vfork_release(struct task *t)
{
    struct task *parent = t->vfork_parent;
    if (!parent)
        return;
    t->vfork_parent = 0;
    parent->vfork_done = true;
    wake_up(&parent->vfork_done);
}

void task_orphan_children(struct task *t)
{
    struct task *shell = task_shell();
    for (struct task *c = task_list(), *next; c; c = next) {
        next = c->next;
        if (c->parent != t)
            continue;
        c->parent = shell;
        c->detached = true; /* the shell never waits for an orphan: it is freed at death */
        if (c->state == TASK_ZOMBIE)
            task_free(c);
    }
}

/* The channel a parent's wait4 sleeps on: "one of my children changed". */
static const void *children_changed(const struct task *parent) { return &parent->wait_status; }

void task_notify_parent(struct task *t)
{
    struct task *parent = t->parent;
    if (!parent || !parent->as) {
        if (parent)
            wake_up(children_changed(parent));
        return; /* the shell (or a kernel thread) collects with task_wait */
    }
    const struct kernel_sigaction *chld = &parent->sig.action[SIGCHLD - 1];
    if (t->exit_signal == SIGCHLD &&
        (chld->handler == SIG_IGN || (chld->flags & SA_NOCLDWAIT))) {
        t->detached = true; /* Linux: nobody is to wait, no zombie is kept */
    } else if (t->exit_signal) {
        int code = !t->term_signal ? CLD_EXITED : t->core_dumped ? CLD_DUMPED : CLD_KILLED;
        struct sig_origin o = { code, (uint32_t)t->pid, t->cred.uid,
                                t->term_signal ? t->term_signal : (t->exit_status & 0xff) };
        signal_send(parent, t->exit_signal, &o);
    }
    wake_up(children_changed(parent));
}

/* Whether child c is one wait4(pid) asks about. */
static bool wait_matches(const struct task *c, int pid)
{
    if (pid > 0)
        return c->pid == pid;
    if (pid == -1)
        return true;
    return c->pgid == (pid == 0 ? current->pgid : -pid);
}

int process_wait(int pid, int options, int *status, int *child_pid, uint64_t *child_cpu_ns)
{
    /* Linux's do_wait names the pid struct waited for: none (0) for any child, the group's
     * for a process group. */
    trace_sched_process_wait(current, pid > 0 ? pid : pid == -1 ? 0 : pid == 0 ? current->pgid : -pid);
    unsigned long flags = arch_irq_save();
    int err = 0;
    for (;;) {
        bool any = false;
        struct task *zombie = 0;
        for (struct task *c = task_list(); c; c = c->next) {
            if (c->parent != current || c->detached || !wait_matches(c, pid))
                continue;
            any = true;
            if (c->state == TASK_ZOMBIE) {
                zombie = c;
                break;
            }
        }
        if (zombie) {
            *status = zombie->wait_status;
            *child_pid = zombie->pid;
            *child_cpu_ns = time_span_ns(zombie->cpu_cycles);
            task_free(zombie);
            err = 0;
            break;
        }
        if (!any) {
            err = -ECHILD;
            break;
        }
        if (options & WNOHANG) {
            *child_pid = 0;
            err = 0;
            break;
        }
        /* Interrupted: the children were looked at once more first (as Linux's do_wait),
         * so the SIGCHLD of a child's death never hides that child. */
        if (err)
            break;
        err = sleep_on(children_changed(current), 0);
    }
    arch_irq_restore(flags);
    return err;
}
