/*
 * st_lock_debug.c - lock debugging in the self-test kernel (issue 19, kernel/lock_debug.h).
 *
 * Linking this file is what turns lock debugging on: tracekern-test.elf checks every
 * spinlock operation of every boot (self-tests, shell sessions, benchmarks), tracekern.elf
 * none. It goes on at the first initcall, before any lock is held for long, so each later
 * acquisition is recorded from the start.
 */
#include "kernel/arch.h"
#include "kernel/init.h"
#include "kernel/lock_debug.h"
#include "kernel/selftest.h"
#include "kernel/spinlock.h"

static void lock_debug_on(void) { lock_debug_enabled = true; }
INITCALL(arch, lock_debug_on);

/* Correct nesting is quiet and tracked: owners, the held stack, trylock too. */
SELFTEST(lock_debug_tracks_held_locks)
{
    static struct spinlock a = SPINLOCK_INIT("st_outer"), b = SPINLOCK_INIT("st_inner");
    ST_CHECK(lock_debug_enabled);
    unsigned base = lock_debug_held_count();
    unsigned long fa = spin_lock_irqsave(&a);
    unsigned long fb;
    ST_CHECK(spin_trylock_irqsave(&b, &fb));
    ST_CHECK(a.owner == arch_cpu_id() + 1 && b.owner == arch_cpu_id() + 1);
    ST_CHECK(lock_debug_held_count() == base + 2);
    spin_unlock_irqrestore(&b, fb);
    spin_unlock_irqrestore(&a, fa);
    ST_CHECK(lock_debug_held_count() == base);
    ST_CHECK(a.owner == 0 && b.owner == 0);
    /* The same order again, and spin_lock without irqsave inside: still one order. */
    fa = spin_lock_irqsave(&a);
    spin_lock(&b);
    spin_unlock(&b);
    spin_unlock_irqrestore(&a, fa);
    ST_CHECK(lock_debug_held_count() == base);
}

/* The AB/BA inversion panics naming both locks (tests/run_all.sh checks the report). */
CRASHTEST(lock_order_inversion)
{
    static struct spinlock a = SPINLOCK_INIT("st_lock_a"), b = SPINLOCK_INIT("st_lock_b");
    unsigned long fa = spin_lock_irqsave(&a), fb = spin_lock_irqsave(&b);
    spin_unlock_irqrestore(&b, fb);
    spin_unlock_irqrestore(&a, fa);
    fb = spin_lock_irqsave(&b);
    fa = spin_lock_irqsave(&a); /* panics: a was taken before b above */
    ST_CHECK(false);
    spin_unlock_irqrestore(&a, fa);
    spin_unlock_irqrestore(&b, fb);
}
