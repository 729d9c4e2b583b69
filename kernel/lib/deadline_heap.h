/*
 * deadline_heap.h - timers ordered by deadline, the earliest found in O(1), a timer added
 * or taken out (from anywhere in the order) in O(log n).
 *
 * A binary min-heap of pointers to timers that the owners embed (intrusive, as Linux's
 * timerqueue of hrtimers, which is a red-black tree). Each timer knows its slot, so a
 * timer cancelled from the middle of the order leaves in O(log n) without a search. The
 * slot array is the owner's: it sizes it so that an insert always has room (the
 * scheduler gives it one slot per task, each task having at most one timer here), and
 * deadline_heap_move hands the timers to a larger array.
 *
 * Equal deadlines are allowed; which of them comes first is not specified.
 * Not locked: the owner's lock covers the heap (the scheduler's: the kernel lock).
 * Portable: tests/unit/test_deadline_heap.c.
 */
#ifndef KERNEL_LIB_DEADLINE_HEAP_H
#define KERNEL_LIB_DEADLINE_HEAP_H

#include <stdbool.h>
#include <stdint.h>

struct deadline_timer {
    uint64_t at;   /* the deadline, while queued */
    uint32_t slot; /* its index in the heap plus one; 0: not queued */
};

struct deadline_heap {
    struct deadline_timer **slots; /* slots[0] is the earliest */
    uint32_t count, capacity;
};

/* An empty heap over slots, an array of capacity pointers. */
void deadline_heap_init(struct deadline_heap *h, struct deadline_timer **slots, uint32_t capacity);

/* Queues t, which is not queued, for deadline at. False (nothing changed) when the heap is
 * full: the owner sized it wrong. */
bool deadline_heap_add(struct deadline_heap *h, struct deadline_timer *t, uint64_t at);

/* Takes t out of h if it is queued there. */
void deadline_heap_remove(struct deadline_heap *h, struct deadline_timer *t);

/* The timer with the earliest deadline, or NULL when none is queued. */
static inline struct deadline_timer *deadline_heap_first(const struct deadline_heap *h)
{
    return h->count ? h->slots[0] : 0;
}

/* True while t is queued (in some heap). */
static inline bool deadline_timer_queued(const struct deadline_timer *t) { return t->slot != 0; }

/* Moves h's timers into slots, an array of capacity pointers (at least h->count), keeping
 * their order; the old array is then unused, the caller's to free. */
void deadline_heap_move(struct deadline_heap *h, struct deadline_timer **slots, uint32_t capacity);

#endif
