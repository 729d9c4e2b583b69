/*
 * ioport.h - ring 3's direct port I/O (ioperm, iopl: arch/x86/ioport.c, issue 23), as the
 * task switch, fork and the #GP handler see it.
 */
#ifndef ARCH_X86_IOPORT_H
#define ARCH_X86_IOPORT_H

#include <stdbool.h>

struct task;
struct trap_frame;

/* At a switch to next from a task that has ports, or to a task that has ports (the
 * arch_task io_ports flag), interrupts off: this CPU's TSS lets ring 3 reach next's ports
 * (its ioperm bitmap, copied in only when the copy here is not already its latest, or
 * every port for iopl(3)) and no others. */
void ioport_switch_to(const struct task *next);
/* fork: the child shares the parent's ioperm bitmap (until either changes it) and takes
 * its iopl level, as Linux's copy_thread. */
void ioport_fork(struct task *child);
/* A #GP from ring 3 at a cli or sti of a task with iopl(3): Linux 5.18 on (and 6.1) skips
 * the instruction as a no-op, saying so once in the kernel log. True when it did. */
bool ioport_cli_sti_fixup(struct trap_frame *tf);
/* A #GP from ring 3 at an in, out, ins or outs of a task that has ports, whose CPU's TSS
 * denied it because mmiotrace records port I/O (or did until a moment ago): the access is
 * done for the program if its own ports allow it, recorded as IN or OUT with its pid, and
 * stepped over. True when it was; false leaves the #GP to become SIGSEGV. */
bool ioport_traced_access(struct trap_frame *tf);

#endif
