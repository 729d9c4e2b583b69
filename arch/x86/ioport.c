/*
 * ioport.c - ioperm and iopl: the port I/O a user-space driver may do from ring 3, as
 * Linux 6.1 gives it (arch/x86/kernel/ioport.c), through each CPU's TSS I/O permission
 * bitmap (arch/x86/gdt.h struct cpu_tss).
 *
 * A ring-3 in, out, ins or outs runs when EFLAGS.IOPL is 3 or when the TSS bitmap has a
 * clear bit for every port it touches; else it raises #GP, which becomes SIGSEGV
 * (SI_KERNEL, no address: arch/x86/signal_frame.c), as on Linux. IOPL stays 0 for every
 * program, so the bitmap alone decides:
 *   - ioperm(from, num, turn_on) clears (allows) or sets (denies) the bits of ports
 *     [from, from + num) in the task's own bitmap, made at the first grant: all ones, 8 KiB.
 *     Root only for granting (Linux's CAP_SYS_RAWIO: EPERM); dropping needs nothing. A
 *     range that wraps, is empty or reaches past port 0xffff is EINVAL.
 *   - iopl(level) keeps a level, 0..3 (EINVAL above): raising it is root's alone (EPERM),
 *     lowering anyone's. Level 3 gives every port through the CPU's second, all-zero
 *     bitmap; it does not give cli and sti, which Linux since 5.18 (and so 6.1) turns into
 *     no-ops with a line in the kernel log (ioport_cli_sti_fixup). Levels 1 and 2 give
 *     nothing, as Linux's emulation.
 * fork shares the bitmap with the child (a count of users; the first to change it copies
 * it) and gives it the level; execve keeps both; exit drops them. As Linux's, the bitmap
 * and level belong to a task (a thread), not to its whole process.
 *
 * The TSS is per CPU, and allows some port only while a task that has ports runs there:
 * so only a switch to or from such a task (arch_task io_ports) sets its iomap_base, to the
 * next task's bitmap, the all-ports one, or past the segment's limit (no port); a switch
 * between two tasks without ports costs one test. The task's
 * bitmap is copied into this CPU's TSS only when the copy there is not already its latest
 * version (a sequence number, new at every change, as Linux's io_bitmap_sequence): the
 * bytes up to the highest allowed port, and ones over whatever the previous copy had
 * allowed beyond that. A task that died holding ports leaves a copy that no later task's
 * switch points at. The counts and the bitmap change only under the big kernel lock
 * (system calls, fork, exit); a switch only reads the bitmap of the task it switches to,
 * which holds a reference to it.
 */
#include "arch/x86/ioport.h"

#include "arch/x86/cpu.h"
#include "arch/x86/gdt.h"
#include "arch/x86/trap.h"
#include "kernel/arch.h"
#include "kernel/init.h"
#include "kernel/lib/errno.h"
#include "kernel/lib/string.h"
#include "kernel/log/printk.h"
#include "kernel/mm/heap.h"
#include "kernel/mm/uaccess.h"
#include "kernel/notrace.h"
#include "kernel/proc/task.h"
#include "kernel/proc/task_internal.h"
#include "kernel/smp.h"
#include "kernel/syscall/syscall_handlers.h"
#include "kernel/trace_hooks.h"

struct io_bitmap {
    uint32_t users;    /* tasks that have it (fork shares it) */
    uint64_t sequence; /* new at every change: a CPU's copy is current when it has this one */
    uint32_t max;      /* bytes from the start through the last with an allowed port */
    uint8_t bits[IO_BITMAP_BYTES]; /* a clear bit allows its port, as the CPU reads it */
};

/* The last sequence number given out (under the kernel lock). */
static uint64_t io_bitmap_sequence;

/* What each CPU's TSS io_bitmap holds: the version copied there, and how many bytes from
 * the start may have clear bits (the rest are all ones). */
static struct {
    uint64_t sequence;
    uint32_t max;
} tss_copy[MAX_CPUS];

/* Points this CPU's TSS at what task t may use (t running or about to run here). While
 * mmiotrace's extension records port I/O, at nothing: every port access of a program traps,
 * to be done and recorded by ioport_traced_access. */
static notrace void load_ports_of(const struct task *t)
{
    unsigned cpu = arch_cpu_id();
    struct cpu_tss *c = &cpu_main_tss[cpu];
    const struct io_bitmap *bm = t->arch.io_bitmap;
    if (trace_hook_port_io) {
        c->tss.iomap_base = TSS_IO_NONE;
    } else if (t->arch.iopl_emul == 3) {
        c->tss.iomap_base = TSS_IO_ALL;
    } else if (!bm) {
        c->tss.iomap_base = TSS_IO_NONE;
    } else {
        if (tss_copy[cpu].sequence != bm->sequence) {
            memcpy(c->io_bitmap, bm->bits, bm->max);
            if (tss_copy[cpu].max > bm->max)
                memset(c->io_bitmap + bm->max, 0xff, tss_copy[cpu].max - bm->max);
            tss_copy[cpu].sequence = bm->sequence;
            tss_copy[cpu].max = bm->max;
        }
        c->tss.iomap_base = TSS_IO_BITMAP;
    }
}

/* notrace: a part of context switches, as switch_to itself. */
notrace void ioport_switch_to(const struct task *next) { load_ports_of(next); }

/* Says whether t has any port now, for the switch's test; then points this CPU's TSS at
 * them (t is the task running here: its ports changed). */
static void ports_changed(struct task *t)
{
    t->arch.io_ports = t->arch.io_bitmap || t->arch.iopl_emul == 3;
    unsigned long flags = arch_irq_save();
    load_ports_of(t);
    arch_irq_restore(flags);
}

/* Gives up t's reference to its bitmap, freeing it with the last. */
static void bitmap_put(struct task *t)
{
    struct io_bitmap *bm = t->arch.io_bitmap;
    t->arch.io_bitmap = 0;
    if (bm && --bm->users == 0)
        kfree(bm);
}

void ioport_fork(struct task *child)
{
    child->arch.io_bitmap = current->arch.io_bitmap;
    if (child->arch.io_bitmap)
        child->arch.io_bitmap->users++;
    child->arch.iopl_emul = current->arch.iopl_emul;
    child->arch.io_ports = current->arch.io_ports;
    child->arch.iopl_warned = false;
}

/* Linux's io_bitmap_exit at a task's end: its ports go, and this CPU's TSS (where it runs
 * its last) allows none until the next task's switch says otherwise. */
static void ioport_exit(struct task *t)
{
    bitmap_put(t);
    t->arch.iopl_emul = 0;
    ports_changed(t);
}

static struct task_exit_hook ioport_exit_hook = { .fn = ioport_exit };
static void ioport_init(void) { task_on_exit(&ioport_exit_hook); }
INITCALL(core, ioport_init);

/* The current task's bitmap, its own to change: made (all ones) at its first grant, or
 * copied from the one it shares since fork. NULL without memory. */
static struct io_bitmap *own_bitmap(void)
{
    struct io_bitmap *bm = current->arch.io_bitmap;
    if (bm && bm->users == 1)
        return bm;
    struct io_bitmap *mine = kmalloc(sizeof *mine);
    if (!mine)
        return 0;
    if (bm) {
        memcpy(mine, bm, sizeof *mine);
        bitmap_put(current);
    } else {
        memset(mine->bits, 0xff, sizeof mine->bits);
        mine->max = 0;
    }
    mine->users = 1;
    current->arch.io_bitmap = mine;
    return mine;
}

/* Sets (deny) or clears (allow) the bits of ports [from, from + num). */
static void set_port_bits(uint8_t *bits, uint32_t from, uint32_t num, bool allow)
{
    for (uint32_t port = from; port < from + num; port++) {
        if (allow)
            bits[port / 8] &= (uint8_t)~(1u << (port % 8));
        else
            bits[port / 8] |= (uint8_t)(1u << (port % 8));
    }
}

/* Linux's ksys_ioperm, in its order of checks. */
SYSCALL_HANDLER(ioperm)
{
    uint32_t from = a[0], num = a[1];
    bool turn_on = (int32_t)a[2] != 0;
    if (from + num <= from || from + num > IO_PORTS)
        return -EINVAL;
    if (turn_on && !cred_privileged(&current->cred))
        return -EPERM;
    if (!current->arch.io_bitmap && !turn_on)
        return 0; /* nothing to take away */
    struct io_bitmap *bm = own_bitmap();
    if (!bm)
        return -ENOMEM;
    set_port_bits(bm->bits, from, num, turn_on);
    uint32_t max = IO_BITMAP_BYTES;
    while (max && bm->bits[max - 1] == 0xff)
        max--;
    if (max == 0) {
        bitmap_put(current); /* every port given back: no bitmap at all, as Linux */
    } else {
        bm->max = (max + 3) & ~3u; /* whole words, as the CPU reads two bytes at a time */
        bm->sequence = ++io_bitmap_sequence;
    }
    ports_changed(current); /* this CPU's TSS, before the return to ring 3 */
    return 0;
}

/* Linux's iopl: only its emulation of level 3 (every port), never EFLAGS.IOPL. */
SYSCALL_HANDLER(iopl)
{
    uint32_t level = a[0];
    if (level > 3)
        return -EINVAL;
    if (level == current->arch.iopl_emul)
        return 0;
    if (level > current->arch.iopl_emul && !cred_privileged(&current->cred))
        return -EPERM;
    current->arch.iopl_emul = (uint8_t)level;
    ports_changed(current);
    return 0;
}

bool ioport_cli_sti_fixup(struct trap_frame *tf)
{
    uint8_t opcode;
    if (current->arch.iopl_emul != 3 || copy_from_user(&opcode, tf->eip, 1) != 0 ||
        (opcode != 0xfa && opcode != 0xfb))
        return false;
    if (!current->arch.iopl_warned) {
        printk("traps: %s[%d] attempts to use CLI/STI, pretending it's a NOP, ip:%x\n",
               current->name, current->pid, tf->eip);
        current->arch.iopl_warned = true;
    }
    tf->eip += 1;
    return true;
}

/* --- port I/O under mmiotrace ---------------------------------------------------------- */

/* Elements of a rep ins/outs done per trap: the kernel is never held long by one
 * instruction (ECX may be 4 billion), and the rest traps again. */
#define PORT_STRING_BATCH 64u

/* Reloads this CPU's TSS for the task running here, if it has ports (a call IPI's work, or
 * this CPU's own: interrupts are off). */
static void reload_ports_here(void *arg)
{
    (void)arg;
    if (current && current->arch.io_ports)
        load_ports_of(current);
}

/* kernel/arch.h: every CPU's TSS set again for the task it runs. */
void arch_port_tracing_changed(void)
{
    unsigned long flags = arch_irq_save();
    reload_ports_here(0);
    arch_irq_restore(flags);
    smp_call_others(reload_ports_here, 0);
}

/* Whether task t may use ports [port, port + width) by its level or its own bitmap. */
static bool may_use_ports(const struct task *t, uint32_t port, unsigned width)
{
    if (t->arch.iopl_emul == 3)
        return true;
    const struct io_bitmap *bm = t->arch.io_bitmap;
    if (!bm || port + width > 0x10000)
        return false;
    for (uint32_t p = port; p < port + width; p++)
        if (bm->bits[p / 8] & (1u << (p % 8)))
            return false;
    return true;
}

/* One port access for the program at pc, recorded (IN or OUT with its pid) while mmiotrace's
 * extension is on. */
static uint32_t traced_in(uint16_t port, unsigned width, uint32_t pc)
{
    uint32_t v = port_in_sized(port, width);
    trace_port_io(1, (uint8_t)width, port, v, pc);
    return v;
}

static void traced_out(uint16_t port, unsigned width, uint32_t v, uint32_t pc)
{
    port_out_sized(port, width, v);
    trace_port_io(2, (uint8_t)width, port, v, pc);
}

/* ins or outs, rep or not: up to PORT_STRING_BATCH elements; false if a user buffer
 * faulted (the #GP then stands, as for an access the program may not make). */
static bool string_io(struct trap_frame *tf, bool in, uint16_t port, unsigned width, bool rep,
                      uint32_t len)
{
    uint32_t count = rep ? tf->ecx : 1;
    uint32_t n = count < PORT_STRING_BATCH ? count : PORT_STRING_BATCH;
    int32_t step = (tf->eflags & EFLAGS_DF) ? -(int32_t)width : (int32_t)width;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t v = 0;
        if (in) {
            v = traced_in(port, width, tf->eip);
            if (copy_to_user(tf->edi, &v, width) != 0)
                return false;
            tf->edi += (uint32_t)step;
        } else {
            if (copy_from_user(&v, tf->esi, width) != 0)
                return false;
            traced_out(port, width, v, tf->eip);
            tf->esi += (uint32_t)step;
        }
        if (rep)
            tf->ecx--;
    }
    if (!rep || tf->ecx == 0)
        tf->eip += len;
    return true;
}

bool ioport_traced_access(struct trap_frame *tf)
{
    struct task *t = current;
    if (!t->arch.io_ports)
        return false; /* no port at all: the #GP is the program's */
    uint8_t code[8];
    uint32_t have = sizeof code;
    if (copy_from_user(code, tf->eip, sizeof code) != 0) { /* near the end of its text */
        have = 0;
        while (have < sizeof code && copy_from_user(&code[have], tf->eip + have, 1) == 0)
            have++;
    }
    bool wide16 = false, rep = false;
    uint32_t i = 0;
    for (; i < have; i++) { /* the prefixes such an instruction may have */
        if (code[i] == 0x66)
            wide16 = true;
        else if (code[i] == 0xf3)
            rep = true;
        else if (code[i] != 0x26 && code[i] != 0x2e && code[i] != 0x36 && code[i] != 0x3e)
            break; /* ES, CS, SS, DS overrides change nothing: flat user segments */
    }
    if (i >= have)
        return false;
    uint8_t op = code[i];
    unsigned width = (op & 1) ? (wide16 ? 2 : 4) : 1;
    bool imm = op >= 0xe4 && op <= 0xe7;
    if (!imm && !(op >= 0xec && op <= 0xef) && !(op >= 0x6c && op <= 0x6f))
        return false; /* not port I/O: another #GP */
    if (imm && i + 1 >= have)
        return false;
    uint16_t port = imm ? code[i + 1] : (uint16_t)tf->edx;
    uint32_t len = i + 1 + (imm ? 1 : 0);
    if (!may_use_ports(t, port, width))
        return false; /* as without tracing: SIGSEGV */
    if (!trace_hook_port_io)
        load_ports_of(t); /* tracing ended: the program's own ports work directly again */
    bool in = op == 0xe4 || op == 0xe5 || op == 0xec || op == 0xed || op == 0x6c || op == 0x6d;
    if (op >= 0x6c && op <= 0x6f)
        return string_io(tf, in, port, width, rep, len);
    if (in) {
        uint32_t v = traced_in(port, width, tf->eip);
        uint32_t keep = width == 4 ? 0 : width == 2 ? 0xffff0000u : 0xffffff00u;
        tf->eax = (tf->eax & keep) | v;
    } else {
        traced_out(port, width, width == 4 ? tf->eax : tf->eax & ((1u << (8 * width)) - 1),
                   tf->eip);
    }
    tf->eip += len;
    return true;
}
