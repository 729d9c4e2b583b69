/*
 * deadline_heap.c - a binary min-heap of timers by deadline (deadline_heap.h): slot i's
 * children are slots 2i+1 and 2i+2, and no child's deadline is earlier than its parent's.
 */
#include "kernel/lib/deadline_heap.h"

void deadline_heap_init(struct deadline_heap *h, struct deadline_timer **slots, uint32_t capacity)
{
    h->slots = slots;
    h->count = 0;
    h->capacity = capacity;
}

/* Puts t in slot i and tells it so. */
static void place_at(struct deadline_heap *h, uint32_t i, struct deadline_timer *t)
{
    h->slots[i] = t;
    t->slot = i + 1;
}

/* Moves t, meant for slot i, up past every parent with a later deadline, and puts it where
 * it stops. */
static void sift_up(struct deadline_heap *h, uint32_t i, struct deadline_timer *t)
{
    while (i > 0) {
        uint32_t parent = (i - 1) / 2;
        if (h->slots[parent]->at <= t->at)
            break;
        place_at(h, i, h->slots[parent]);
        i = parent;
    }
    place_at(h, i, t);
}

/* Moves t, meant for slot i, down past every child with an earlier deadline (the earlier
 * child each time), and puts it where it stops. */
static void sift_down(struct deadline_heap *h, uint32_t i, struct deadline_timer *t)
{
    for (;;) {
        uint32_t child = 2 * i + 1;
        if (child >= h->count)
            break;
        if (child + 1 < h->count && h->slots[child + 1]->at < h->slots[child]->at)
            child++;
        if (t->at <= h->slots[child]->at)
            break;
        place_at(h, i, h->slots[child]);
        i = child;
    }
    place_at(h, i, t);
}

bool deadline_heap_add(struct deadline_heap *h, struct deadline_timer *t, uint64_t at)
{
    if (h->count >= h->capacity)
        return false;
    t->at = at;
    sift_up(h, h->count++, t);
    return true;
}

void deadline_heap_remove(struct deadline_heap *h, struct deadline_timer *t)
{
    if (!t->slot)
        return;
    uint32_t i = t->slot - 1;
    t->slot = 0;
    struct deadline_timer *last = h->slots[--h->count];
    if (last == t)
        return; /* it was the last slot: nothing moves */
    /* The last timer fills the hole, then goes up or down to where its deadline belongs. */
    if (i > 0 && last->at < h->slots[(i - 1) / 2]->at)
        sift_up(h, i, last);
    else
        sift_down(h, i, last);
}

void deadline_heap_move(struct deadline_heap *h, struct deadline_timer **slots, uint32_t capacity)
{
    for (uint32_t i = 0; i < h->count; i++)
        slots[i] = h->slots[i];
    h->slots = slots;
    h->capacity = capacity;
}
