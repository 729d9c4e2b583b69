/*
 * signal_send.h - signals sent to a process from outside its own faults: SIGPIPE to a
 * writer of a pipe nobody reads, SIGINT from ^C to the terminal's foreground process group
 * (issue 16, files and the terminal).
 *
 * The kernel has no pending signals yet (kernel/proc/signal.h: signals come from faults),
 * so a sent signal takes effect at once by its action: ignored (SIG_IGN, or a signal
 * whose default is to be ignored) it does nothing; blocked or caught it stays undelivered
 * (the process goes on, and the call that raised it still fails, with EPIPE for a pipe);
 * otherwise its default action ends the process, as 128 + sig, "killed by SIGNAME".
 * The processes part of issue 16 replaces this with delivery through pending signals.
 */
#ifndef KERNEL_PROC_SIGNAL_SEND_H
#define KERNEL_PROC_SIGNAL_SEND_H

struct task;

/* Sends sig (1..64) to process t: 0, or -EINVAL for a bad signal. */
int signal_send_task(struct task *t, int sig);

/* Sends sig to every process of process group pgid: 0, -ESRCH when it has none, -EINVAL. */
int signal_send_pgrp(int pgid, int sig);

#endif
