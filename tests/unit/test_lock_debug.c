/*
 * test_lock_debug.c - spinlocks and their debug mode (kernel/spinlock.h, kernel/lock_debug.c)
 * with POSIX threads as CPUs (tests/unit/host_smp_arch.c).
 *
 * The kernel's panic() stops the machine; here it records the message and jumps back to
 * the test, which then checks that the right finding named the right locks. The locks are
 * the real ones: contended increments prove they exclude, and the checks run on every
 * operation exactly as in the self-test kernel.
 */
#include "unit.h"

#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdlib.h>

#include "kernel/panic.h"
#include "kernel/spinlock.h"
#include "tests/unit/host_smp_arch.h"

static _Thread_local jmp_buf *panic_target;
static char panic_message[512];

/* The host's panic: the message, then back to the test that expected it (a panic nobody
 * expected fails the whole binary). */
void panic(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(panic_message, sizeof panic_message, fmt, ap);
    va_end(ap);
    if (!panic_target) {
        printf("# unexpected panic: %s\n", panic_message);
        exit(1);
    }
    longjmp(*panic_target, 1);
}

/* Runs fn(arg) and returns whether it panicked (the message is in panic_message). */
static bool panics(void (*fn)(void *), void *arg)
{
    jmp_buf here;
    panic_message[0] = 0;
    panic_target = &here;
    bool panicked = setjmp(here) != 0;
    if (!panicked)
        fn(arg);
    panic_target = NULL;
    return panicked;
}

static bool said(const char *text) { return strstr(panic_message, text) != NULL; }

struct two { struct spinlock *first, *second; unsigned cpu; };

/* Takes first, then second, and releases both (as a correct nested section does). */
static void nest(void *arg)
{
    struct two *t = arg;
    unsigned long f1 = spin_lock_irqsave(t->first);
    unsigned long f2 = spin_lock_irqsave(t->second);
    spin_unlock_irqrestore(t->second, f2);
    spin_unlock_irqrestore(t->first, f1);
}

TEST(correct_nesting_in_one_order_is_quiet)
{
    lock_debug_enabled = true;
    host_smp_become_cpu(0);
    static struct spinlock a = SPINLOCK_INIT("quiet_a"), b = SPINLOCK_INIT("quiet_b"),
                           c = SPINLOCK_INIT("quiet_c");
    struct two ab = { &a, &b, 0 }, bc = { &b, &c, 0 }, ac = { &a, &c, 0 };
    for (int i = 0; i < 3; i++) {
        CHECK(!panics(nest, &ab));
        CHECK(!panics(nest, &bc));
        CHECK(!panics(nest, &ac)); /* a, b, c: one consistent order */
    }
    CHECK_EQ_INT(lock_debug_held_count(), 0);
    CHECK_EQ_INT(a.owner, 0);
    CHECK(!a.locked && !b.locked && !c.locked);
}

static void take_twice(void *arg)
{
    struct spinlock *l = arg;
    spin_lock(l);
    spin_lock(l); /* without the check: spins forever */
}

TEST(recursion_is_caught_before_it_spins)
{
    lock_debug_enabled = true;
    host_smp_become_cpu(1);
    static struct spinlock l = SPINLOCK_INIT("recursive_lock");
    CHECK(panics(take_twice, &l));
    CHECK(said("recursion") && said("recursive_lock") && said("CPU 1"));
    CHECK_EQ_INT(l.owner, 2); /* the first take stands: CPU 1 holds it */
    spin_unlock(&l);
    CHECK_EQ_INT(lock_debug_held_count(), 0);
    CHECK(!l.locked);
}

TEST(ab_ba_inversion_on_one_cpu_is_caught_naming_both)
{
    lock_debug_enabled = true;
    host_smp_become_cpu(0);
    static struct spinlock a = SPINLOCK_INIT("order_a"), b = SPINLOCK_INIT("order_b");
    struct two ab = { &a, &b, 0 }, ba = { &b, &a, 0 };
    CHECK(!panics(nest, &ab));
    CHECK(panics(nest, &ba));
    CHECK(said("inversion") && said("order_a") && said("order_b"));
    spin_unlock(&b); /* the panic came while b was held, before a was taken */
    CHECK_EQ_INT(lock_debug_held_count(), 0);
}

/* The two halves of a deadlock on two CPUs, run one after the other so that they do not
 * deadlock for real: the second CPU's order is caught against the first's. */
static void *nest_as_cpu(void *arg)
{
    struct two *t = arg;
    host_smp_become_cpu(t->cpu);
    return (void *)(uintptr_t)panics(nest, t);
}

TEST(ab_ba_inversion_across_cpus_is_caught)
{
    lock_debug_enabled = true;
    static struct spinlock a = SPINLOCK_INIT("cross_a"), b = SPINLOCK_INIT("cross_b");
    struct two ab = { &a, &b, 2 }, ba = { &b, &a, 3 };
    pthread_t t;
    void *panicked;
    pthread_create(&t, NULL, nest_as_cpu, &ab);
    pthread_join(t, &panicked);
    CHECK(!panicked);
    pthread_create(&t, NULL, nest_as_cpu, &ba);
    pthread_join(t, &panicked);
    CHECK(panicked);
    CHECK(said("CPU 3") && said("cross_a") && said("cross_b"));
    CHECK(b.locked); /* CPU 3 still holds b: release it as that CPU */
    CHECK_EQ_INT(b.owner, 4);
    __atomic_store_n(&b.locked, 0, __ATOMIC_RELEASE);
    b.owner = 0;
}

static void release_not_mine(void *arg) { spin_unlock(arg); }

static void *take_as_cpu_2(void *arg)
{
    host_smp_become_cpu(2);
    spin_lock(arg);
    return NULL;
}

TEST(release_by_another_cpu_is_caught)
{
    lock_debug_enabled = true;
    static struct spinlock l = SPINLOCK_INIT("owned_lock");
    pthread_t t;
    pthread_create(&t, NULL, take_as_cpu_2, &l);
    pthread_join(t, NULL);
    host_smp_become_cpu(0);
    CHECK(panics(release_not_mine, &l));
    CHECK(said("releases owned_lock") && said("held by CPU 2"));
}

TEST(forgotten_lock_orders_do_not_haunt_its_memory)
{
    lock_debug_enabled = true;
    host_smp_become_cpu(0);
    static struct spinlock a = SPINLOCK_INIT("reused_a"), b = SPINLOCK_INIT("reused_b");
    struct two ab = { &a, &b, 0 }, ba = { &b, &a, 0 };
    CHECK(!panics(nest, &ab));
    spin_lock_forget(&a); /* a's memory now holds a new lock */
    CHECK(!panics(nest, &ba));
}

/* Real spinning: CPUs incrementing one counter under one lock lose no increment. */
static struct spinlock counter_lock = SPINLOCK_INIT("counter");
static uint64_t counter;
#define INCREMENTS 200000

static void *increment(void *arg)
{
    host_smp_become_cpu((unsigned)(uintptr_t)arg);
    for (int i = 0; i < INCREMENTS; i++) {
        unsigned long flags = spin_lock_irqsave(&counter_lock);
        uint64_t v = counter;
        __atomic_signal_fence(__ATOMIC_SEQ_CST);
        counter = v + 1;
        spin_unlock_irqrestore(&counter_lock, flags);
    }
    return NULL;
}

static void run_increments(bool debug)
{
    lock_debug_enabled = debug;
    counter = 0;
    pthread_t t[4];
    for (unsigned i = 0; i < 4; i++)
        pthread_create(&t[i], NULL, increment, (void *)(uintptr_t)i);
    for (unsigned i = 0; i < 4; i++)
        pthread_join(t[i], NULL);
    CHECK_EQ_INT(counter, 4 * INCREMENTS);
}

TEST(contended_lock_excludes_with_and_without_debugging)
{
    run_increments(false);
    run_increments(true);
    lock_debug_enabled = false;
}
