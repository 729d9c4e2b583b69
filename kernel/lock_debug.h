/*
 * lock_debug.h - catching spinlock misuse before it deadlocks (issue 19).
 *
 * When lock_debug_enabled is true, every spinlock operation is checked (kernel/spinlock.h
 * calls these): taking a lock this CPU already holds (recursion: it would spin forever),
 * taking locks in an order that contradicts an order seen before (A then B somewhere, B
 * then A elsewhere: two CPUs doing one each deadlock), and releasing a lock this CPU does
 * not hold. A finding names both locks and panics (kernel/panic.h); host tests provide a
 * panic that returns to them. A small cousin of Linux's lockdep: each CPU keeps the stack of
 * locks it holds, and one table remembers every "held A, then took B" pair seen, keyed by
 * the locks' addresses (a lock whose memory is freed calls spin_lock_forget). What it does
 * not catch, unlike lockdep: a cycle through three or more locks (A->B, B->C, C->A: only
 * direct pairs are compared), and a lock taken with interrupts on in thread context that a
 * handler also takes (seen only when the handler really interrupts its holder).
 *
 * Who turns it on: the self-test kernel (tracekern-test.elf: tests/guest/st_lock_debug.c,
 * at its first initcall, before anything holds a lock); tracekern.elf leaves it off, where
 * each lock operation pays one load and a branch not taken.
 */
#ifndef KERNEL_LOCK_DEBUG_H
#define KERNEL_LOCK_DEBUG_H

#include <stdbool.h>
#include <stdint.h>

struct spinlock;

extern bool lock_debug_enabled;

/* Before spinning for l (interrupts off): the recursion and order checks, then l goes on
 * this CPU's held stack. */
void lock_debug_acquire(struct spinlock *l);
/* After a successful trylock: l goes on the held stack. Recursion cannot happen (the
 * trylock failed) and a trylock never waits, so it sets no order. */
void lock_debug_acquired_try(struct spinlock *l);
/* Before releasing l: it must be this CPU's; it leaves the held stack. */
void lock_debug_release(struct spinlock *l);
/* l's memory is about to be reused: the order table forgets it. */
void lock_debug_forget(const struct spinlock *l);
/* Turns the checks off for good (Linux's debug_locks_off): a crash report takes over locks
 * that CPUs it stopped still hold, which the checks would report as a second crash. */
void lock_debug_off(void);
/* How many locks this CPU holds (0 when the mode is off): for tests and crash reports. */
unsigned lock_debug_held_count(void);
/* Order pairs the table had no room for (then orders involving them go unchecked). */
extern uint32_t lock_debug_pairs_dropped;

#endif
