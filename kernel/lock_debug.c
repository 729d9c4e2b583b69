/*
 * lock_debug.c - the spinlock checks of kernel/lock_debug.h: per-CPU held-lock stacks and
 * one table of lock order pairs.
 *
 * The table is an open-addressing hash set of (held, then taken) pairs of lock addresses,
 * under a raw spinlock of its own (never checked itself). Taking lock L while this CPU
 * holds H1..Hn looks up (L, Hi) for each i: found means some CPU once took Hi while holding
 * L, the reverse order, and two CPUs doing one each would deadlock; otherwise (Hi, L) is
 * added. Each check runs with interrupts off, so an interrupt handler taking locks on this
 * CPU never sees a stack half-updated; a finding is reported after the table lock is
 * released, so that a panic dump can still take locks.
 */
#include "kernel/lock_debug.h"

#include "kernel/arch.h"
#include "kernel/panic.h"
#include "kernel/smp.h"
#include "kernel/spinlock.h"

#define HELD_MAX 16       /* locks one CPU may hold at once */
#define PAIRS 1024        /* a power of two; full: further pairs are counted, not checked */
#define FORGOTTEN ((const struct spinlock *)1) /* a removed pair's slot (keeps probes going) */

bool lock_debug_enabled;
uint32_t lock_debug_pairs_dropped;

/* What one CPU holds, in the order it took them; a cache line of its own per CPU. */
static struct held {
    struct spinlock *locks[HELD_MAX];
    unsigned depth;
} __attribute__((aligned(64))) held[MAX_CPUS];

static struct pair {
    const struct spinlock *first, *then;
} pairs[PAIRS];
static volatile uint32_t pairs_lock;

static void pairs_lock_take(void)
{
    while (__atomic_exchange_n(&pairs_lock, 1, __ATOMIC_ACQUIRE))
        while (pairs_lock)
            arch_cpu_relax();
}

static void pairs_lock_give(void) { __atomic_store_n(&pairs_lock, 0, __ATOMIC_RELEASE); }

static uint32_t pair_hash(const struct spinlock *first, const struct spinlock *then)
{
    uint32_t h = (uint32_t)(uintptr_t)first * 0x9e3779b1u ^ (uint32_t)(uintptr_t)then * 0x85ebca6bu;
    return (h ^ h >> 15) & (PAIRS - 1);
}

/* Whether (first, then) was seen; the pairs lock is held. */
static bool pair_seen(const struct spinlock *first, const struct spinlock *then)
{
    for (uint32_t i = pair_hash(first, then), n = 0; n < PAIRS && pairs[i].first; n++) {
        if (pairs[i].first == first && pairs[i].then == then)
            return true;
        i = (i + 1) & (PAIRS - 1);
    }
    return false;
}

/* Remembers (first, then), known not to be there; the pairs lock is held. */
static void pair_add(const struct spinlock *first, const struct spinlock *then)
{
    for (uint32_t i = pair_hash(first, then), n = 0; n < PAIRS; n++) {
        if (!pairs[i].first || pairs[i].first == FORGOTTEN) {
            pairs[i] = (struct pair){ first, then };
            return;
        }
        i = (i + 1) & (PAIRS - 1);
    }
    lock_debug_pairs_dropped++;
}

static const char *name_of(const struct spinlock *l) { return l->name ? l->name : "(unnamed)"; }

void lock_debug_acquire(struct spinlock *l)
{
    unsigned long flags = arch_irq_save();
    unsigned cpu = arch_cpu_id();
    struct held *h = &held[cpu];
    for (unsigned i = 0; i < h->depth; i++)
        if (h->locks[i] == l) {
            arch_irq_restore(flags);
            panic("lock debug: CPU %u takes %s (%p), which it already holds: recursion "
                  "(it would spin forever)", cpu, name_of(l), (void *)l);
        }
    struct spinlock *inverted = 0;
    pairs_lock_take();
    for (unsigned i = 0; i < h->depth && !inverted; i++) {
        if (pair_seen(l, h->locks[i]))
            inverted = h->locks[i];
        else if (!pair_seen(h->locks[i], l))
            pair_add(h->locks[i], l);
    }
    pairs_lock_give();
    if (inverted) {
        arch_irq_restore(flags);
        panic("lock debug: CPU %u takes %s (%p) while holding %s (%p), but %s was taken "
              "while holding %s before: lock order inversion (AB/BA deadlock)", cpu,
              name_of(l), (void *)l, name_of(inverted), (void *)inverted, name_of(inverted),
              name_of(l));
    }
    if (h->depth == HELD_MAX) {
        arch_irq_restore(flags);
        panic("lock debug: CPU %u takes %s while holding %u locks already", cpu, name_of(l),
              h->depth);
    }
    h->locks[h->depth++] = l;
    arch_irq_restore(flags);
}

void lock_debug_acquired_try(struct spinlock *l)
{
    unsigned long flags = arch_irq_save();
    unsigned cpu = arch_cpu_id();
    struct held *h = &held[cpu];
    if (h->depth < HELD_MAX) /* a full stack is reported by the next lock_debug_acquire */
        h->locks[h->depth++] = l;
    l->owner = cpu + 1;
    arch_irq_restore(flags);
}

void lock_debug_release(struct spinlock *l)
{
    unsigned long flags = arch_irq_save();
    unsigned cpu = arch_cpu_id();
    struct held *h = &held[cpu];
    uint32_t owner = l->owner;
    if (owner == 0) { /* taken before the mode was turned on: nothing was recorded */
        arch_irq_restore(flags);
        return;
    }
    if (owner != cpu + 1) {
        arch_irq_restore(flags);
        panic("lock debug: CPU %u releases %s (%p), held by CPU %u", cpu, name_of(l),
              (void *)l, owner - 1);
    }
    unsigned i = h->depth;
    while (i > 0 && h->locks[i - 1] != l)
        i--;
    if (i > 0) { /* locks may be released in any order */
        for (; i < h->depth; i++)
            h->locks[i - 1] = h->locks[i];
        h->depth--;
    }
    l->owner = 0;
    arch_irq_restore(flags);
}

void lock_debug_forget(const struct spinlock *l)
{
    unsigned long flags = arch_irq_save();
    pairs_lock_take();
    for (uint32_t i = 0; i < PAIRS; i++)
        if (pairs[i].first == l || pairs[i].then == l)
            pairs[i] = (struct pair){ FORGOTTEN, 0 };
    pairs_lock_give();
    arch_irq_restore(flags);
}

void lock_debug_off(void) { __atomic_store_n(&lock_debug_enabled, false, __ATOMIC_RELEASE); }

unsigned lock_debug_held_count(void)
{
    unsigned long flags = arch_irq_save();
    unsigned n = held[arch_cpu_id()].depth;
    arch_irq_restore(flags);
    return n;
}
