/*
 * uprobe_events.h - what the process code tells uprobes (trace/uprobes/uprobe_events.c),
 * through task_on_program_start (kernel/proc/task.h): the kernel never includes this.
 */
#ifndef TRACE_UPROBES_UPROBE_EVENTS_H
#define TRACE_UPROBES_UPROBE_EVENTS_H

struct task;

/* t runs a new program from now on (execve, or `run`): t->program and t->as are the new
 * ones and t has not run yet. Every enabled probe on that program's file gets its int3 in
 * t's own copy of the text. A fork's child needs no call: its copy of the text is a copy of
 * its parent's, int3s included. */
void uprobe_task_start(struct task *t);

#endif
