/*
 * kernel_lock.c - the big kernel lock (kernel/kernel_lock.h).
 *
 * kernel_lock_owner holds the number of the CPU that has the lock plus one (0: free); only
 * that CPU changes its depth, so the depth needs no atomic access. A waiting CPU reads the
 * owner until it reads 0, then tries to swap its own number in. The uncontended paths of
 * kernel_lock and kernel_unlock are inline (kernel/kernel_lock.h); this file has the rest.
 *
 * A CPU that has waited SPIN_BEFORE_SLEEP_US microseconds stops spinning: it puts its bit in
 * sleepers and halts (interrupts on, so calls and interrupts still reach it), and the CPU
 * that lets the lock go wakes one sleeper with the reschedule IPI. Spinning is right for
 * the short holds that are most of them; for a long one (a big trace file rendered under
 * the lock) a spinning CPU only burns what the holder could use: under QEMU every virtual
 * CPU is a host thread, and on a host with fewer cores than virtual CPUs three spinners
 * slowed a holder down more than tenfold. The spin is bounded by time, not by rounds: under
 * QEMU's -icount every `pause` hands the host thread to the next virtual CPU, so 200 rounds
 * lasted 267 ms of guest time, with interrupts off, and CPU 0 lost 25 of 26 timer ticks
 * while another CPU resized the trace buffer. A sleeper cannot miss its wake-up: it sets its
 * bit before it looks at owner a last time, the releaser clears owner before it reads the
 * bits (both sequentially consistent), and sti;hlt takes an IPI that came meanwhile. The
 * IPI must be able to arrive: nobody waits for the lock with an interrupt in service
 * (arch/x86/trap.c takes the lock after an IPI's handler, and acknowledges a device's
 * interrupt before its handler waits for the lock).
 */
#include "kernel/kernel_lock.h"

#include "kernel/arch.h"
#include "kernel/lock_debug.h"
#include "kernel/panic.h"
#include "kernel/smp.h"

/* About what a switch to another task and back would cost: a longer wait is a long hold. */
#define SPIN_BEFORE_SLEEP_US 20

volatile uint32_t kernel_lock_owner;
static volatile uint32_t waiters;  /* CPUs in kernel_lock's waiting loop */
volatile uint32_t kernel_lock_sleepers; /* bit per CPU halted there until the lock is let go */
struct kernel_lock_cpu kernel_lock_cpus[MAX_CPUS];

static bool try_take(unsigned me)
{
    uint32_t free = 0;
    return __atomic_load_n(&kernel_lock_owner, __ATOMIC_RELAXED) == 0 &&
           __atomic_compare_exchange_n(&kernel_lock_owner, &free, me + 1, false,
                                       __ATOMIC_ACQUIRE, __ATOMIC_RELAXED);
}

/* Halts until the lock is let go (or any other interrupt), unless it is free already. */
static void sleep_until_released(unsigned me)
{
    uint32_t bit = 1u << me;
    __atomic_or_fetch(&kernel_lock_sleepers, bit, __ATOMIC_SEQ_CST);
    if (__atomic_load_n(&kernel_lock_owner, __ATOMIC_SEQ_CST) != 0) {
        kernel_lock_cpus[me].stats.sleeps++;
        arch_wait_for_interrupt(); /* sti; hlt: an interrupt handled here may take the lock
                                    * itself, one level of its own, and give it back */
        arch_irq_save();
    }
    __atomic_and_fetch(&kernel_lock_sleepers, ~bit, __ATOMIC_SEQ_CST);
}

/* kernel_lock's wait: its first try found the lock held by another CPU. Spins, then
 * sleeps, until it takes it. */
void kernel_lock_contended(unsigned me)
{
    kernel_lock_cpus[me].stats.contended++;
    __atomic_add_fetch(&waiters, 1, __ATOMIC_RELAXED);
    uint64_t start = arch_cycles();
    uint64_t spin_cycles = (uint64_t)arch_cycles_khz() * SPIN_BEFORE_SLEEP_US / 1000;
    while (!try_take(me)) {
        kernel_lock_cpus[me].stats.spins++;
        smp_serve_calls(); /* the holder may be waiting for this CPU */
        if (arch_cycles() - start < spin_cycles)
            arch_cpu_relax();
        else
            sleep_until_released(me);
    }
    __atomic_sub_fetch(&waiters, 1, __ATOMIC_RELAXED);
}

bool kernel_trylock(void)
{
    unsigned me = arch_cpu_id();
    if (kernel_lock_cpus[me].depth) {
        kernel_lock_cpus[me].depth++;
        return true;
    }
    if (!try_take(me))
        return false;
    kernel_lock_cpus[me].stats.taken++;
    kernel_lock_cpus[me].depth = 1;
    return true;
}

/* Wakes one sleeping waiter, the next CPU after this one that sleeps (kernel_unlock saw
 * one). */
void kernel_lock_wake_sleeper(unsigned me)
{
    uint32_t s = __atomic_load_n(&kernel_lock_sleepers, __ATOMIC_SEQ_CST);
    if (!s)
        return;
    uint32_t after = s & ~((2u << me) - 1); /* the bits above me */
    arch_send_resched_ipi((unsigned)__builtin_ctz(after ? after : s));
}

void kernel_unlock_call(void) { kernel_unlock(); }

void kernel_lock_break(void)
{
    unsigned me = arch_cpu_id();
    if (kernel_lock_cpus[me].depth != 1 || !__atomic_load_n(&waiters, __ATOMIC_RELAXED))
        return;
    kernel_unlock();
    /* A waiter sees the lock free within a few of its loop's iterations (a sleeping one
     * once the IPI woke it). */
    while (__atomic_load_n(&waiters, __ATOMIC_RELAXED) &&
           !__atomic_load_n(&kernel_lock_owner, __ATOMIC_RELAXED))
        arch_cpu_relax();
    kernel_lock();
}

void kernel_lock_stats(unsigned cpu, struct kernel_lock_stats *out)
{
    *out = kernel_lock_cpus[cpu].stats;
}
