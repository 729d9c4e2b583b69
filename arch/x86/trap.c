/*
 * trap.c - what happens after trap_entry.asm: route each vector to its handler, and turn
 * every exception nobody handles into a readable crash report.
 */
#include "arch/x86/trap.h"

#include "arch/x86/cpu.h"
#include "arch/x86/gdt.h"
#include "arch/x86/ioport.h"
#include "arch/x86/kprobe_arch.h"
#include "arch/x86/lapic.h"
#include "arch/x86/uprobe_arch.h"
#include "arch/x86/mmiotrace_user.h"
#include "arch/x86/paging.h"
#include "arch/x86/irq_chip.h"
#include "arch/x86/signal_frame.h"
#include "arch/x86/umip.h"
#include "kernel/arch.h"
#include "kernel/kernel_lock.h"
#include "kernel/panic.h"
#include "kernel/smp.h"
#include "kernel/log/printk.h"
#include "kernel/mm/user_mem.h"
#include "kernel/proc/task_internal.h"
#include "kernel/proc/sched.h"
#include "kernel/proc/task_internal.h"
#include "kernel/lib/string.h"
#include "kernel/lib/symbols.h"
#include "kernel/trace_hooks.h"
#include "uapi/ipc.h"
#include "uapi/syscall.h"

static trap_handler_fn trap_handlers[256];
static irq_handler_fn irq_handlers[IRQ_COUNT];
/* Per CPU, so that CPUs taking interrupts at once never write one counter (and
 * /proc/interrupts can show the columns). */
static uint64_t irq_counts[MAX_CPUS][IRQ_COUNT];
static uint64_t irq_stats[MAX_CPUS][IRQ_STAT_COUNT];
volatile int hardirq_depth[MAX_CPUS];

/* arch_call_catching_faults() state, shared with trap_entry.asm. */
struct fault_catcher {
    uint32_t saved_esp; /* must stay first: catch_landing reads it at offset 0 */
    struct caught_fault fault;
};
struct fault_catcher *armed_catcher[MAX_CPUS]; /* each CPU's own (trap_entry.asm) */
extern void catch_landing(void);
extern bool catch_faults_call(struct fault_catcher *c, void (*fn)(void *), void *arg);

static const char *const exception_names[32] = {
    "divide error", "debug", "NMI", "breakpoint", "overflow", "bound range exceeded",
    "invalid opcode", "device not available", "double fault", "coprocessor segment overrun",
    "invalid TSS", "segment not present", "stack-segment fault", "general protection fault",
    "page fault", "reserved (15)", "x87 floating-point error", "alignment check",
    "machine check", "SIMD floating-point error", "virtualization exception",
    "control protection", "reserved (22)", "reserved (23)", "reserved (24)", "reserved (25)",
    "reserved (26)", "reserved (27)", "hypervisor injection", "VMM communication",
    "security exception", "reserved (31)",
};

void trap_set_handler(int vector, trap_handler_fn fn) { trap_handlers[vector] = fn; }

static bool irq_unlocked[IRQ_COUNT]; /* irq_set_handler_unlocked's: no kernel lock around it */

void irq_set_handler_unlocked(int irq, irq_handler_fn fn)
{
    irq_unlocked[irq] = true;
    irq_set_handler(irq, fn);
}

void irq_set_handler(int irq, irq_handler_fn fn)
{
    irq_handlers[irq] = fn;
    if (fn)
        irq_chip->unmask(irq);
    else
        irq_chip->mask(irq);
}

irq_handler_fn irq_handler_of(int irq) { return irq_handlers[irq]; }

uint64_t irq_count_on(unsigned cpu, int irq) { return irq_counts[cpu][irq]; }

uint64_t irq_count(int irq)
{
    uint64_t sum = 0;
    for (unsigned cpu = 0; cpu < MAX_CPUS; cpu++)
        sum += irq_counts[cpu][irq];
    return sum;
}

void irq_stat_count(enum irq_stat what) { irq_stats[arch_cpu_id()][what]++; }
uint64_t irq_stat_on(unsigned cpu, enum irq_stat what) { return irq_stats[cpu][what]; }

bool trap_from_user(const struct trap_frame *tf) { return (tf->cs & 3) == 3; }

uint32_t trap_frame_esp(const struct trap_frame *tf)
{
    if (trap_from_user(tf))
        return tf->user_esp;
    return (uint32_t)(uintptr_t)&tf->user_esp;
}

bool arch_call_catching_faults(void (*fn)(void *), void *arg, struct caught_fault *fault)
{
    struct fault_catcher catcher = { 0 };
    unsigned cpu = arch_cpu_id();
    struct fault_catcher *outer = armed_catcher[cpu]; /* nested use restores the outer one */
    bool faulted = catch_faults_call(&catcher, fn, arg);
    armed_catcher[cpu] = outer;
    /* the frames fn had open are gone: so are their function_graph returns */
    if (faulted && ftrace_graph_unwinder)
        ftrace_graph_unwinder->unwind((uintptr_t)__builtin_frame_address(0));
    if (fault)
        *fault = catcher.fault;
    return faulted;
}

/* Explains a page-fault error code the way a reader wants it: what kind of access, why. */
static void print_page_fault_reason(uint32_t err)
{
    printk(" (%s, %s, %s mode%s)", (err & 2) ? "write" : "read",
           (err & 1) ? "protection violation" : "page not present",
           (err & 4) ? "user" : "kernel", (err & 16) ? ", instruction fetch" : "");
}

void trap_print_frame(const struct trap_frame *tf)
{
    printk(" EIP: %04x:%08x EFLAGS: %08x", tf->cs & 0xffff, tf->eip, tf->eflags);
    if (!trap_from_user(tf)) { /* the kernel's symbols say nothing about user code */
        printk(" ");
        print_symbol(tf->eip);
    }
    printk("\n EAX: %08x EBX: %08x ECX: %08x EDX: %08x\n", tf->eax, tf->ebx, tf->ecx, tf->edx);
    printk(" ESI: %08x EDI: %08x EBP: %08x ESP: %08x\n", tf->esi, tf->edi, tf->ebp,
           trap_frame_esp(tf));
    printk(" DS: %04x ES: %04x FS: %04x GS: %04x SS: %04x\n", tf->ds & 0xffff, tf->es & 0xffff,
           tf->fs & 0xffff, tf->gs & 0xffff,
           trap_from_user(tf) ? tf->user_ss & 0xffff : SEL_KERNEL_DATA);
    printk(" CR0: %08x CR2: %08x CR3: %08x CR4: %08x\n", read_cr0(), read_cr2(), read_cr3(),
           read_cr4());
}

/*
 * gcc gives a function no frame when it needs none (a leaf that keeps everything in
 * registers), so the frame-pointer chain skips its caller. Its return address is then the
 * word on top of the stack; we show it, marked '?' as Linux marks guesses, only when it
 * really returns from a direct call to the faulting function.
 */
static void print_frameless_caller(const struct trap_frame *tf)
{
    uint32_t offset;
    if (trap_from_user(tf) || !symbol_lookup(kernel_symbols(), tf->eip, &offset, 0))
        return;
    uint32_t function = tf->eip - offset;
    uint32_t esp = trap_frame_esp(tf);
    if (!paging_is_mapped(esp))
        return;
    uint32_t ret = *(const uint32_t *)(uintptr_t)esp;
    if (ret < 5 || !paging_is_mapped(ret - 5) || !paging_is_mapped(ret - 1))
        return;
    const uint8_t *call = (const uint8_t *)(uintptr_t)(ret - 5);
    int32_t rel;
    memcpy(&rel, call + 1, sizeof rel);
    if (call[0] != 0xe8 || ret + (uint32_t)rel != function)
        return;
    if (paging_is_mapped(tf->ebp + 4) && *(const uint32_t *)(uintptr_t)(tf->ebp + 4) == ret)
        return; /* the chain has it already */
    printk("  [<%08x>] ? ", ret);
    print_symbol(ret);
    printk("\n");
}

/* The end of the road for an exception nobody handled: report everything, then panic. */
static void __attribute__((noreturn)) fatal_exception(struct trap_frame *tf)
{
    panic_begin();
    const char *name = tf->vector < 32 ? exception_names[tf->vector] : "unexpected interrupt";
    printk("\n*** kernel exception %u: %s, error code %#x", tf->vector, name, tf->error_code);
    if (tf->vector == VEC_PAGE_FAULT) {
        printk(" at address %#x", read_cr2());
        print_page_fault_reason(tf->error_code);
    }
    printk("\n");
    trap_print_frame(tf);
    printk(" Call Trace:\n");
    print_call_site(tf->eip);
    print_frameless_caller(tf);
    arch_backtrace(tf->ebp);
    panic_end("fatal exception");
}

/* The driver's handler for irq, between its two trace events; mmiotrace's extension
 * records that the driver saw the interrupt (IRQ_SEEN). */
static void run_irq_handler(int irq)
{
    if (trace_hook_device_irq)
        trace_device_irq(TRACE_DEVICE_IRQ_SEEN, (uint32_t)irq, (uint32_t)irq_count(irq));
    trace_irq_handler_entry(irq, irq_name(irq));
    if (irq_handlers[irq])
        irq_handlers[irq]();
    trace_irq_handler_exit(irq, irq_handlers[irq] != 0);
}

/* Per line: a CPU has acknowledged it and waits for the kernel lock to run its handler. */
static volatile bool irq_waiting[IRQ_COUNT];

/*
 * A line whose driver needs the kernel lock while another CPU holds it (for as long as a
 * 100 MB buffer resize). Waiting with the vector in service would hold back every line of
 * its APIC priority class, the PIT's among them, so the interrupt is acknowledged first, as
 * Linux's flow handlers do (kernel/irq/chip.c): a level-triggered line is masked until its
 * handler has run (it would interrupt again at once), an edge-triggered one stays open. An
 * edge that comes while the handler waits needs no run of its own: the run that follows
 * reads the device after both.
 */
static void handle_irq_contended(int irq)
{
    bool level = irq_chip->level_triggered(irq);
    if (level)
        irq_chip->mask(irq);
    irq_chip->eoi(irq);
    if (__atomic_exchange_n(&irq_waiting[irq], true, __ATOMIC_SEQ_CST))
        return; /* served by the run the waiting CPU makes */
    kernel_lock(); /* may halt with interrupts on: other lines, and this one, come in */
    __atomic_store_n(&irq_waiting[irq], false, __ATOMIC_SEQ_CST); /* a later edge: a new run */
    run_irq_handler(irq);
    kernel_unlock();
    if (level)
        irq_chip->unmask(irq);
}

/* Hardware interrupt: count it, run the driver's handler, acknowledge it at the chip.
 * Drivers touch the process side, so their handlers run under the kernel lock
 * (kernel/kernel_lock.h), except those registered unlocked (the PIT's). */
static void handle_irq(int irq)
{
    /* All of it is the interrupt's time, the chip's calls included: they are traced
     * functions, and funcgraph-irqs off must leave them out as well as the handler. */
    unsigned cpu = arch_cpu_id();
    hardirq_depth[cpu]++;
    if (irq_chip->is_spurious(irq)) {
        irq_stat_count(IRQ_STAT_SPURIOUS);
    } else {
        irq_counts[cpu][irq]++;
        trace_device_irq(TRACE_DEVICE_IRQ_FIRED, (uint32_t)irq, 0); /* mmiotrace's IRQ */
        if (irq_unlocked[irq]) {
            run_irq_handler(irq);
            irq_chip->eoi(irq);
        } else if (kernel_trylock()) {
            run_irq_handler(irq);
            kernel_unlock();
            irq_chip->eoi(irq);
        } else {
            handle_irq_contended(irq); /* acknowledged before the wait */
        }
    }
    hardirq_depth[cpu]--;
}

/*
 * The last word before trap_return pops DS, ES, FS and GS and irets to ring 3: a selector
 * ring 3 may not hold (an LDT selector, a kernel or TSS descriptor, whatever a forged
 * signal frame put there) would fault in the kernel, on the pop. As Linux does when it
 * cannot restore a saved data selector, it becomes the null selector; ring 3 finds out when
 * it uses it. CS and SS need no check here: the CPU saved them, or sigreturn checked them.
 */
static void check_user_segments(struct trap_frame *tf)
{
    /* The common case (every program starts so, and a system call changes none of them):
     * all four hold the user data selector; a compare with memory each. Only the low half
     * of a slot counts: a 32-bit push of a segment register may leave the upper half as
     * it was. */
    if ((uint16_t)tf->ds == SEL_USER_DATA && (uint16_t)tf->es == SEL_USER_DATA &&
        (uint16_t)tf->fs == SEL_USER_DATA && (uint16_t)tf->gs == SEL_USER_DATA)
        return;
    if (!gdt_user_data_selector_ok((uint16_t)tf->ds))
        tf->ds = 0;
    if (!gdt_user_data_selector_ok((uint16_t)tf->es))
        tf->es = 0;
    if (!gdt_user_data_selector_ok((uint16_t)tf->fs))
        tf->fs = 0;
    if (!gdt_user_data_selector_ok((uint16_t)tf->gs))
        tf->gs = 0;
}

void trap_exit_to_user(struct trap_frame *tf)
{
    /* Most returns have nothing to do but the selectors: one test of each thing that could
     * be pending before the calls that would find it. trap_exit.h has these tests and
     * check_user_segments' first as inlines for the IPC fast path: a new test goes in both
     * (written out here, they keep this function as gcc lays it out for every return). */
    const struct task *t = current;
    if ((t->killed || sched_need_resched() || t->sig.pending || t->sig.restore_mask) &&
        !uprobe_arch_stepping() && !mmiotrace_user_stepping()) {
        /* (a uprobe's or mmiotrace's one step runs before anything else) */
        sched_return_to_user();
        if (current->sig.pending || current->sig.restore_mask)
            signal_deliver(tf);
    }
    check_user_segments(tf);
}

/* trap_dispatch's work for vector v, inline in it twice: once for the system call vector,
 * where every test of v below is known (no hardware interrupt, no exception), and once for
 * the others. */
static inline __attribute__((always_inline)) void dispatch(struct trap_frame *tf, uint32_t v)
{
    /* Entering the kernel from ring 3 takes the kernel lock, and returning gives it back
     * (kernel/kernel_lock.h). A hardware interrupt or an NMI takes it only after its
     * handler: the stop NMI must reach a CPU whatever holds the lock, and an interrupt's
     * EOI ends its time in service (handle_irq takes the lock around the drivers that need
     * it), while a vector is in service the APIC holds back that vector and the rest of its
     * class. A CPU waiting for the lock behind the timer's vector lost every tick
     * meanwhile, and one waiting behind an IPI never got the reschedule IPI that ends the
     * wait. An exception takes it first, keeping its CR2 and DR6: the wait may halt with
     * interrupts on, and a fault or #DB nested in an interrupt meanwhile changes them. */
    bool from_user = trap_from_user(tf);
    bool hardware = (v >= VEC_IRQ_BASE && v < VEC_IRQ_BASE + IRQ_COUNT) ||
                    v >= VEC_LAPIC_CLASS_FIRST || v == VEC_NMI;
    bool locked = false;
    if (from_user && !hardware) {
        uint32_t cr2 = v == VEC_PAGE_FAULT ? read_cr2() : 0;
        uint32_t dr6 = v == VEC_DEBUG ? read_dr6() : 0;
        kernel_lock();
        if (v == VEC_PAGE_FAULT)
            write_cr2(cr2);
        if (v == VEC_DEBUG)
            write_dr6(dr6);
        locked = true;
    }

    /* A kprobe's int3 or single step, or a fault of a stepped copy (arch/x86/kprobe_arch.c) */
    if (v < 32 && kprobe_arch_may_trap() && !trap_from_user(tf) && kprobe_arch_trap(tf))
        return;
    /* uprobes (issue 18): a probe's int3 in a program, or the #DB ending its step; nothing
     * else runs before the step's #DB (interrupts are off for it), signals wait for it. */
    /* mmiotrace of a program's BAR mapping (issue 23): the same kind of step, for an
     * access to an armed device page (mmiotrace_user.h). */
    bool uprobe = v < 32 && trap_from_user(tf) && (mmiotrace_user_trap(tf) || uprobe_arch_trap(tf));
    if (v == VEC_PAGE_FAULT) {
        void (*hook)(uint32_t, uint32_t, uint32_t) = trace_page_fault_hook(trap_from_user(tf));
        if (hook) /* the exceptions/page_fault_* event is on */
            hook(read_cr2(), tf->eip, tf->error_code);
    }
    if (uprobe) {
        /* handled: the step begins or ends */
    } else if (v >= VEC_IRQ_BASE && v < VEC_IRQ_BASE + IRQ_COUNT) {
        handle_irq((int)(v - VEC_IRQ_BASE));
    } else if (trap_handlers[v] && trap_handlers[v](tf)) {
        /* handled: a system call, a breakpoint, an mmiotrace fault, ... */
    } else if (v < 32 && armed_catcher[arch_cpu_id()] && !trap_from_user(tf)) {
        struct fault_catcher *c = armed_catcher[arch_cpu_id()];
        c->fault.vector = v;
        c->fault.error_code = tf->error_code;
        c->fault.eip = tf->eip;
        c->fault.cr2 = v == VEC_PAGE_FAULT ? read_cr2() : 0;
        tf->eip = (uint32_t)(uintptr_t)catch_landing;
        return;
    } else if (v == VEC_PAGE_FAULT && trap_from_user(tf) && !(tf->error_code & 1) &&
               user_stack_grow(current->as, read_cr2())) {
        /* the stack grew down to the address: the access runs again */
    } else if (trap_from_user(tf)) {
        if (!locked) { /* an unexpected interrupt or NMI in ring 3: the program pays */
            kernel_lock();
            locked = true;
        }
        if (!(v == VEC_GENERAL_PROTECTION &&
              (ioport_traced_access(tf) || umip_emulate(tf) || ioport_cli_sti_fixup(tf))) &&
            !signal_fault_from_user(tf))
            user_fault(tf, v < 32 ? exception_names[v] : "unexpected interrupt");
    } else {
        fatal_exception(tf);
    }
    if (from_user && !locked) {
        kernel_lock();
        locked = true;
    }
    if (trap_from_user(tf))
        trap_exit_to_user(tf);
    if (locked)
        kernel_unlock();
}

/* Called by trap_common (and for the system call vector by trap_syscall, after a
 * register-message IPC call's fast path, arch/x86/ipc_regs.c) with the saved frame;
 * returning resumes it. */
void trap_dispatch(struct trap_frame *tf)
{
    if (tf->vector == SYSCALL_VECTOR)
        dispatch(tf, SYSCALL_VECTOR);
    else
        dispatch(tf, tf->vector);
}
