/*
 * task_arch.c - the x86 half of tasks: building a new task's first kernel stack, and
 * switching stacks, address spaces, the TSS's ring-0 stack and the FPU between tasks.
 */
#include "arch/x86/address_space.h" /* struct addr_space */
#include "arch/x86/fpu.h"
#include "arch/x86/gdt.h"
#include "arch/x86/ioport.h"
#include "arch/x86/paging.h"
#include "arch/x86/trap.h"
#include "kernel/mm/page_alloc.h"
#include "kernel/proc/task_internal.h"
#include "kernel/lib/string.h"
#include "kernel/mm/vm.h"
#include "kernel/trace_hooks.h" /* trace_tlb_flush */

extern void task_enter_user(void);
extern void task_enter_kernel(void);

/* What switch_stacks pops for a task that never ran: four preserved registers (zero) and
 * the address it "returns" to. */
struct switch_frame {
    uint32_t edi, esi, ebx, ebp;
    uint32_t ret;
};

static uint32_t kstack_top(const struct task *t)
{
    return (uint32_t)(t->kstack + KERNEL_STACK_PAGES * PAGE_SIZE);
}

void arch_task_init_kernel(struct task *t)
{
    struct switch_frame *sf = (struct switch_frame *)(kstack_top(t) - sizeof *sf);
    memset(sf, 0, sizeof *sf);
    sf->ret = (uint32_t)(uintptr_t)task_enter_kernel;
    t->saved_esp = (uint32_t)(uintptr_t)sf;
}

/* A trap frame that enters ring 3 at entry with stack user_esp, every register zero. */
static void fresh_user_frame(struct trap_frame *tf, uint32_t entry, uint32_t user_esp)
{
    memset(tf, 0, sizeof *tf);
    tf->ds = tf->es = tf->fs = tf->gs = SEL_USER_DATA;
    tf->cs = SEL_USER_CODE;
    tf->user_ss = SEL_USER_DATA;
    tf->eip = entry;
    tf->user_esp = user_esp;
    tf->eflags = 0x202; /* interrupts on (IF) and the always-one bit */
}

void arch_task_init_user(struct task *t, uint32_t entry, uint32_t user_esp)
{
    struct trap_frame *tf = (struct trap_frame *)(kstack_top(t) - sizeof *tf);
    fresh_user_frame(tf, entry, user_esp);
    struct switch_frame *sf = (struct switch_frame *)tf - 1;
    memset(sf, 0, sizeof *sf);
    sf->ret = (uint32_t)(uintptr_t)task_enter_user;
    t->saved_esp = (uint32_t)(uintptr_t)sf;
}

void arch_task_init_fork(struct task *child, uint32_t user_esp)
{
    const struct trap_frame *parent =
        (const struct trap_frame *)(kstack_top(current) - sizeof *parent);
    struct trap_frame *tf = (struct trap_frame *)(kstack_top(child) - sizeof *tf);
    *tf = *parent;
    tf->eax = 0; /* fork's result in the child */
    if (user_esp)
        tf->user_esp = user_esp;
    struct switch_frame *sf = (struct switch_frame *)tf - 1;
    memset(sf, 0, sizeof *sf);
    sf->ret = (uint32_t)(uintptr_t)task_enter_user;
    child->saved_esp = (uint32_t)(uintptr_t)sf;
    memcpy(child->arch.tls, current->arch.tls, sizeof child->arch.tls);
    child->arch.tls_used = current->arch.tls_used;
    fpu_copy_state(child);
    ioport_fork(child);
}

void arch_task_exec_reset(struct task *t, uint32_t entry, uint32_t user_esp)
{
    memset(t->arch.tls, 0, sizeof t->arch.tls);
    t->arch.tls_used = false;
    gdt_load_tls(t->arch.tls);
    fresh_user_frame((struct trap_frame *)(kstack_top(t) - sizeof(struct trap_frame)), entry,
                     user_esp);
    fpu_forget(t);
}

/* Whether a and b have the same TLS descriptors: at once when neither has any (most
 * programs: no threads), else compared. */
static bool same_tls(const struct task *a, const struct task *b)
{
    if (!a->arch.tls_used && !b->arch.tls_used)
        return true;
    return a->arch.tls[0] == b->arch.tls[0] && a->arch.tls[1] == b->arch.tls[1] &&
           a->arch.tls[2] == b->arch.tls[2];
}

/* What a switch between two processes does when either has TLS descriptors or ports
 * (arch_task switch_work): the descriptors unless both have the same, the TSS's I/O
 * bitmap when either has ports. */
static void switch_rare_work(const struct task *prev, const struct task *next)
{
    if (!same_tls(prev, next))
        gdt_load_tls(next->arch.tls);
    if (prev->arch.io_ports || next->arch.io_ports)
        ioport_switch_to(next);
}

/*
 * Moves this CPU from one task's kernel stack to another's: pushes where this task resumes
 * (the label after the ret) and the registers the C calling convention says a function
 * keeps (EBP, EBX, ESI, EDI), stores the stack pointer in *save_esp, loads next_esp, pops
 * that task's four and returns on its stack: to the label in its own arch_switch_to, which
 * it left the same way, or, for a task that never ran, to the entry its stack was prepared
 * with (struct switch_frame). Inline in arch_switch_to (no call, no arguments on the
 * stack); EAX, ECX and EDX hold whatever the code that ran meanwhile left in them.
 */
static inline __attribute__((always_inline)) void switch_stacks(uint32_t *save_esp, uint32_t next_esp)
{
    __asm__ volatile("pushl $1f\n\t"
                     "pushl %%ebp\n\t"
                     "pushl %%ebx\n\t"
                     "pushl %%esi\n\t"
                     "pushl %%edi\n\t"
                     "movl %%esp, (%0)\n\t"
                     "movl %1, %%esp\n\t"
                     "popl %%edi\n\t"
                     "popl %%esi\n\t"
                     "popl %%ebx\n\t"
                     "popl %%ebp\n\t"
                     "ret\n"
                     "1:"
                     : "+a"(save_esp), "+d"(next_esp)
                     :
                     : "ecx", "memory", "cc");
}

/*
 * The machine's half of every switch, in one function: it reads the CPU number once
 * (interrupts are off for every switch, sched.c's rule, so it stays this CPU until the
 * stacks' switch) and, between two processes, runs straight through: the TSS's ring-0
 * stack, the TLS descriptors unless both have the same and the TSS's I/O bitmap when either
 * has ports (one test for both, switch_rare_work), the address space (this CPU into
 * next's mask, CR3, main_tss.cr3, out of prev's mask: tlb_load_on), the FPU left to trap
 * (fpu_switch_on), the stacks (switch_stacks). Only a kernel thread's switch (the kernel's
 * directory) and an FPU with someone's registers in it take a call.
 */
void arch_switch_to(struct task *prev, struct task *next)
{
    unsigned me = arch_cpu_id();
    /* An interrupt from ring 3 lands on the top of next's kernel stack. */
    if (next->kstack)
        cpu_tss[me]->esp0 = kstack_top(next);
    struct addr_space *as = next->as;
    if (as) {
        /* The GDT's TLS slots hold a running process's own descriptors (set_thread_area and
         * execve write them there too), so from a process with the same ones (most often
         * none: programs without threads) there is nothing to load; and the TSS allows
         * ring 3 some port only while a task that has ports runs. Nearly every switch is
         * between two processes with neither: one test of both flags of both. */
        if (!prev->as) {
            gdt_load_tls(next->arch.tls);
            if (next->arch.io_ports)
                ioport_switch_to(next);
        } else if (__builtin_expect((prev->arch.switch_work | next->arch.switch_work) != 0, 0)) {
            switch_rare_work(prev, next);
        }
        if (tlb_load_on(me, &as->users, (uint32_t)virt_to_phys(as->directory)))
            trace_tlb_flush(TLB_FLUSH_ON_TASK_SWITCH, TRACE_TLB_FLUSH_ALL);
    } else {
        vm_switch_to(0); /* a kernel thread or idle: the kernel's directory */
        if (prev->arch.io_ports) /* ring 0 needs no port: the TSS allows none again */
            ioport_switch_to(next);
    }
    fpu_switch_on(me, prev, next);
    switch_stacks(&prev->saved_esp, next->saved_esp);
}

void arch_kstack_guard(uintptr_t kstack, bool on)
{
    if (on)
        paging_set_pte(kstack, 0, 0);
    else
        paging_set_pte(kstack, virt_to_phys((void *)kstack), PTE_PRESENT | PTE_WRITE);
}
