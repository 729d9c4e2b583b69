/* test_deadline_heap.c - kernel/lib/deadline_heap.c: the earliest first, removes from the
 * middle, the end and the top, equal deadlines, a full heap refused, moving to a larger
 * array, and thousands of random adds and removes against a plain array's minimum. */
#include "unit.h"

#include <stdint.h>
#include <stdlib.h>

#include "kernel/lib/deadline_heap.h"

#define MANY 4096

static struct deadline_timer *slots[MANY];

/* Every parent's deadline is no later than its children's, and every timer knows its slot. */
static int heap_ok(const struct deadline_heap *h)
{
    for (uint32_t i = 0; i < h->count; i++) {
        if (h->slots[i]->slot != i + 1)
            return 0;
        if (i > 0 && h->slots[(i - 1) / 2]->at > h->slots[i]->at)
            return 0;
    }
    return 1;
}

TEST(empty_heap_has_no_first_and_a_removed_unqueued_timer_is_ignored)
{
    struct deadline_heap h;
    deadline_heap_init(&h, slots, MANY);
    CHECK(deadline_heap_first(&h) == NULL);
    struct deadline_timer t = { 0, 0 };
    CHECK(!deadline_timer_queued(&t));
    deadline_heap_remove(&h, &t);
    CHECK_EQ_INT(h.count, 0);
}

TEST(timers_come_out_earliest_first_whatever_order_they_went_in)
{
    static const uint64_t at[] = { 50, 10, 40, 30, 20, 60, 5 };
    struct deadline_timer t[7] = { { 0, 0 } };
    struct deadline_heap h;
    deadline_heap_init(&h, slots, MANY);
    for (int i = 0; i < 7; i++)
        CHECK(deadline_heap_add(&h, &t[i], at[i]));
    CHECK(heap_ok(&h));
    uint64_t last = 0;
    for (int i = 0; i < 7; i++) {
        struct deadline_timer *first = deadline_heap_first(&h);
        CHECK(first != NULL && first->at >= last);
        last = first->at;
        deadline_heap_remove(&h, first);
        CHECK(!deadline_timer_queued(first));
        CHECK(heap_ok(&h));
    }
    CHECK(deadline_heap_first(&h) == NULL);
    CHECK_EQ_INT(last, 60);
}

TEST(removing_a_middle_timer_keeps_the_others_in_order)
{
    struct deadline_timer t[15] = { { 0, 0 } };
    struct deadline_heap h;
    deadline_heap_init(&h, slots, MANY);
    for (int i = 0; i < 15; i++)
        deadline_heap_add(&h, &t[i], (uint64_t)(i * 7 % 15) * 100);
    /* One in the middle of the tree, the last slot's, then the top. */
    struct deadline_timer *middle = h.slots[4], *last = h.slots[14];
    deadline_heap_remove(&h, middle);
    CHECK(heap_ok(&h));
    deadline_heap_remove(&h, last);
    CHECK(heap_ok(&h));
    deadline_heap_remove(&h, deadline_heap_first(&h));
    CHECK(heap_ok(&h));
    CHECK_EQ_INT(h.count, 12);
    uint64_t prev = 0;
    while (deadline_heap_first(&h)) {
        struct deadline_timer *f = deadline_heap_first(&h);
        CHECK(f != middle && f != last && f->at >= prev);
        prev = f->at;
        deadline_heap_remove(&h, f);
    }
}

TEST(equal_deadlines_all_come_out_and_each_once)
{
    struct deadline_timer t[9] = { { 0, 0 } };
    struct deadline_heap h;
    deadline_heap_init(&h, slots, MANY);
    for (int i = 0; i < 9; i++)
        deadline_heap_add(&h, &t[i], i == 4 ? 1 : 1000);
    CHECK(deadline_heap_first(&h) == &t[4]);
    deadline_heap_remove(&h, &t[4]);
    int seen[9] = { 0 };
    while (deadline_heap_first(&h)) {
        struct deadline_timer *f = deadline_heap_first(&h);
        CHECK_EQ_INT(f->at, 1000);
        seen[f - t]++;
        deadline_heap_remove(&h, f);
        CHECK(heap_ok(&h));
    }
    for (int i = 0; i < 9; i++)
        CHECK_EQ_INT(seen[i], i == 4 ? 0 : 1);
}

TEST(a_full_heap_refuses_and_a_moved_one_takes_more)
{
    struct deadline_timer *small[3];
    struct deadline_timer t[4] = { { 0, 0 } };
    struct deadline_heap h;
    deadline_heap_init(&h, small, 3);
    for (int i = 0; i < 3; i++)
        CHECK(deadline_heap_add(&h, &t[i], (uint64_t)(30 - i)));
    CHECK(!deadline_heap_add(&h, &t[3], 1));
    CHECK(!deadline_timer_queued(&t[3]));
    deadline_heap_move(&h, slots, MANY);
    CHECK(heap_ok(&h));
    CHECK(deadline_heap_add(&h, &t[3], 1));
    CHECK(deadline_heap_first(&h) == &t[3]);
    deadline_heap_remove(&h, &t[3]);
    CHECK(deadline_heap_first(&h) == &t[2]);
}

TEST(many_timers_added_and_removed_at_random_match_a_plain_array)
{
    static struct deadline_timer t[MANY];
    struct deadline_heap h;
    deadline_heap_init(&h, slots, MANY);
    srand(24);
    for (int step = 0; step < 200000; step++) {
        struct deadline_timer *x = &t[rand() % MANY];
        if (deadline_timer_queued(x))
            deadline_heap_remove(&h, x);
        else
            CHECK(deadline_heap_add(&h, x, (uint64_t)(rand() % 1000))); /* many equal */
        if (step % 4096 == 0) {
            CHECK(heap_ok(&h));
            uint64_t min = UINT64_MAX;
            uint32_t queued = 0;
            for (int i = 0; i < MANY; i++)
                if (deadline_timer_queued(&t[i])) {
                    queued++;
                    min = t[i].at < min ? t[i].at : min;
                }
            CHECK_EQ_INT(queued, h.count);
            if (queued)
                CHECK_EQ_INT(deadline_heap_first(&h)->at, min);
        }
    }
    CHECK(heap_ok(&h));
}
