/* test_wait_table.c - kernel/lib/wait_table.c: sleepers found in their channel's bucket in
 * arrival order, channels sharing a bucket, removes from the head, middle and tail, a wake
 * walk that removes as it goes, and a move to more buckets keeping each channel's order. */
#include "unit.h"

#include <stdint.h>
#include <stdlib.h>

#include "kernel/lib/wait_table.h"

/* The sleepers on chan in the order a wake-up meets them, into out (at most max); their
 * number. */
static int sleepers_on(const struct wait_table *wt, const void *chan, struct wait_link **out, int max)
{
    int n = 0;
    for (struct wait_link *l = wait_table_bucket(wt, chan)->first; l; l = l->next)
        if (l->chan == chan && n < max)
            out[n++] = l;
    return n;
}

static int chans[64]; /* addresses to wait on */

TEST(sleepers_on_one_channel_are_found_in_arrival_order)
{
    struct wait_bucket b[8];
    struct wait_table wt;
    wait_table_init(&wt, b, 8);
    struct wait_link l[3], *found[4];
    for (int i = 0; i < 3; i++)
        wait_table_add(&wt, &l[i], &chans[0]);
    CHECK_EQ_INT(sleepers_on(&wt, &chans[0], found, 4), 3);
    for (int i = 0; i < 3; i++)
        CHECK(found[i] == &l[i]);
    CHECK_EQ_INT(sleepers_on(&wt, &chans[1], found, 4), 0);
    CHECK_EQ_INT(wt.count, 3);
}

TEST(channels_sharing_one_bucket_keep_apart)
{
    struct wait_bucket b[1];
    struct wait_table wt;
    wait_table_init(&wt, b, 1); /* every channel in the one bucket */
    struct wait_link l[6], *found[6];
    for (int i = 0; i < 6; i++)
        wait_table_add(&wt, &l[i], &chans[i % 2]);
    CHECK_EQ_INT(sleepers_on(&wt, &chans[0], found, 6), 3);
    CHECK(found[0] == &l[0] && found[1] == &l[2] && found[2] == &l[4]);
    CHECK_EQ_INT(sleepers_on(&wt, &chans[1], found, 6), 3);
    CHECK(found[0] == &l[1] && found[1] == &l[3] && found[2] == &l[5]);
}

TEST(removes_of_head_middle_and_tail_leave_the_rest_linked)
{
    struct wait_bucket b[1];
    struct wait_table wt;
    wait_table_init(&wt, b, 1);
    struct wait_link l[5], *found[5];
    for (int i = 0; i < 5; i++)
        wait_table_add(&wt, &l[i], &chans[0]);
    wait_table_remove(&wt, &l[2]);
    wait_table_remove(&wt, &l[0]);
    wait_table_remove(&wt, &l[4]);
    CHECK_EQ_INT(sleepers_on(&wt, &chans[0], found, 5), 2);
    CHECK(found[0] == &l[1] && found[1] == &l[3]);
    CHECK(b[0].first == &l[1] && b[0].last == &l[3] && l[1].prev == NULL && l[3].next == NULL);
    wait_table_remove(&wt, &l[1]);
    wait_table_remove(&wt, &l[3]);
    CHECK(b[0].first == NULL && b[0].last == NULL);
    CHECK_EQ_INT(wt.count, 0);
}

TEST(a_wake_walk_removing_its_channel_leaves_the_others)
{
    struct wait_bucket b[2];
    struct wait_table wt;
    wait_table_init(&wt, b, 2);
    struct wait_link l[10], *found[10];
    for (int i = 0; i < 10; i++)
        wait_table_add(&wt, &l[i], &chans[i % 3]);
    /* As wake_up does: the next link saved before the woken one leaves. */
    int woken = 0;
    for (struct wait_link *x = wait_table_bucket(&wt, &chans[1])->first, *next; x; x = next) {
        next = x->next;
        if (x->chan == &chans[1]) {
            wait_table_remove(&wt, x);
            woken++;
        }
    }
    CHECK_EQ_INT(woken, 3);
    CHECK_EQ_INT(sleepers_on(&wt, &chans[1], found, 10), 0);
    CHECK_EQ_INT(sleepers_on(&wt, &chans[0], found, 10), 4);
    CHECK_EQ_INT(sleepers_on(&wt, &chans[2], found, 10), 3);
    CHECK_EQ_INT(wt.count, 7);
}

TEST(moving_to_more_buckets_keeps_every_channel_and_its_order)
{
    enum { N = 2000 };
    static struct wait_link l[N];
    static struct wait_bucket small[4], big[4096];
    struct wait_table wt;
    wait_table_init(&wt, small, 4);
    for (int i = 0; i < N; i++)
        wait_table_add(&wt, &l[i], &chans[i % 64]);
    wait_table_move(&wt, big, 4096);
    CHECK_EQ_INT(wt.count, N);
    static struct wait_link *found[N];
    for (int c = 0; c < 64; c++) {
        int n = sleepers_on(&wt, &chans[c], found, N);
        CHECK_EQ_INT(n, (N - c + 63) / 64);
        for (int k = 0; k < n; k++)
            CHECK(found[k] == &l[c + 64 * k]);
    }
    /* The buckets spread the channels: no bucket holds more than a few of 64. */
    int most = 0;
    for (int i = 0; i < 4096; i++) {
        int distinct = 0;
        const void *seen[64];
        for (struct wait_link *x = big[i].first; x; x = x->next) {
            int j = 0;
            while (j < distinct && seen[j] != x->chan)
                j++;
            if (j == distinct)
                seen[distinct++] = x->chan;
        }
        most = distinct > most ? distinct : most;
    }
    CHECK(most <= 3);
}
