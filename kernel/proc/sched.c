/*
 * sched.c - choosing the next task on each CPU, sleeping, waking and moving tasks.
 *
 * Every CPU has a run queue: the runnable tasks waiting for that CPU, first come first
 * served (round robin, a time slice of one tick). A task is on the queue of t->cpu while
 * it is runnable and not running; the running one is its CPU's current, and each CPU's
 * idle task (pid 0) runs when its queue is empty. A task runs on the CPUs of its affinity
 * mask only (sched_setaffinity); kernel threads stay on CPU 0.
 *
 * Where a task goes: a new or woken task goes to the CPU it last ran on if that one is
 * idle, else to the least loaded CPU it may use (load: queued tasks, plus one for a
 * running one). Each tick, the most loaded CPU gives a waiting task to the least loaded one
 * when they differ by two or more. A CPU given a task it should run at once gets a
 * reschedule IPI.
 *
 * Sleeping: a sleeping task is on no run queue. It is in the wait table under its channel
 * (waiters, below), and a sleep with a timeout has its deadline in a heap (sleep_timeouts);
 * a wake-up visits its channel's bucket, the tick the earliest deadlines, and whoever ends a
 * sleep takes the task out of both (end_sleep). Alarms (ITIMER_REAL) are in a heap of their
 * own. None of them is walked whole on any path that repeats.
 *
 * Locking: the big kernel lock (kernel/kernel_lock.h) covers every queue and every task's
 * scheduling fields, and interrupts are off while they change (the lock's owner can be
 * interrupted by its own timer). The lock also makes the switch itself safe: the CPU
 * that switches away from a task holds the lock until the task's stack is no longer in
 * use, so no other CPU can pick the task up before that.
 */
#include "kernel/proc/sched.h"

#include "kernel/arch.h"
#include "kernel/kernel_lock.h"
#include "kernel/lib/deadline_heap.h"
#include "kernel/lib/errno.h"
#include "kernel/lib/wait_table.h"
#include "kernel/mm/heap.h"
#include "kernel/panic.h"
#include "kernel/proc/task_internal.h"
#include "kernel/proc/task.h" /* current_pid */
#include "kernel/loadavg.h"
#include "kernel/smp.h"
#include "kernel/time.h"
#include "kernel/proc/signal.h"
#include "kernel/trace_hooks.h"

struct task *cpu_current[MAX_CPUS];  /* current: each CPU's running task */
int32_t cpu_current_pid[MAX_CPUS];   /* current_pid: what trace events record (trace.h) */

/* One CPU's scheduling state, on a cache line of its own. */
struct run_queue {
    struct task *idle;          /* its idle task */
    struct task *head, *tail;   /* runnable tasks waiting for it, in turn order */
    unsigned queued;
    struct task *switched_from; /* the task that ran before the one resuming now */
    uint64_t since_cycles;      /* the cycle counter when its current was switched to */
} __attribute__((aligned(64)));

static struct run_queue run_queues[MAX_CPUS];

static struct run_queue *this_rq(void) { return &run_queues[arch_cpu_id()]; }

struct sched_resched_flag sched_resched_flags[MAX_CPUS];

/*
 * Sleepers and their timers, under the kernel lock with interrupts off, as the run queues:
 *  - waiters: every task sleeping on a channel, hashed by the channel (wake_up visits its
 *    channel's bucket only);
 *  - sleep_timeouts: the deadlines of sleeps with a timeout, earliest first (the tick looks
 *    at the first only);
 *  - alarms: the tasks' ITIMER_REAL timers, earliest first.
 * Each has room for `room` tasks: a task is on each at most once, and task_alloc reserves
 * its place (sched_task_reserve) before the task exists, so adding never runs out of room
 * while the task sleeps. They start in static arrays of FIRST_ROOM, double from there, and
 * go back to the static arrays when the tasks are few again (shrink_room).
 */
#define FIRST_ROOM 64 /* 2^6: the wait table's bucket count (and its shift below) */
static struct wait_bucket first_buckets[FIRST_ROOM];
static struct deadline_timer *first_timeout_slots[FIRST_ROOM], *first_alarm_slots[FIRST_ROOM];
static struct wait_table waiters = { first_buckets, FIRST_ROOM, 32 - 6, 0 }; /* 2^6 buckets */
static struct deadline_heap sleep_timeouts = { first_timeout_slots, 0, FIRST_ROOM };
static struct deadline_heap alarms = { first_alarm_slots, 0, FIRST_ROOM };
static uint32_t room = FIRST_ROOM;
static uint32_t tasks_reserved = 1; /* the boot task (the shell), which task_alloc did not make */

#define task_of(ptr, field) ((struct task *)((char *)(ptr) - __builtin_offsetof(struct task, field)))

/* Moves the three structures into arrays of n (interrupts off while they move) and frees
 * the ones they leave, unless those are the static first ones. */
static void move_room(struct wait_bucket *buckets, struct deadline_timer **timeouts,
                      struct deadline_timer **alarm_slots, uint32_t n)
{
    unsigned long flags = arch_irq_save();
    struct wait_bucket *old_buckets = waiters.buckets;
    struct deadline_timer **old_timeouts = sleep_timeouts.slots, **old_alarms = alarms.slots;
    wait_table_move(&waiters, buckets, n);
    deadline_heap_move(&sleep_timeouts, timeouts, n);
    deadline_heap_move(&alarms, alarm_slots, n);
    room = n;
    arch_irq_restore(flags);
    if (old_buckets != first_buckets) {
        kfree(old_buckets);
        kfree(old_timeouts);
        kfree(old_alarms);
    }
}

/* Gives the three structures arrays of twice the room, moving what they hold: 0, or
 * -ENOMEM with nothing changed. Kernel lock held (task_alloc's callers hold it); the
 * allocation comes first. */
static int grow_room(void)
{
    uint32_t n = room * 2;
    struct wait_bucket *buckets = kmalloc(n * sizeof *buckets);
    struct deadline_timer **timeouts = kmalloc(n * sizeof *timeouts);
    struct deadline_timer **alarm_slots = kmalloc(n * sizeof *alarm_slots);
    if (!buckets || !timeouts || !alarm_slots) {
        kfree(buckets);
        kfree(timeouts);
        kfree(alarm_slots);
        return -ENOMEM;
    }
    move_room(buckets, timeouts, alarm_slots, n);
    return 0;
}

int sched_task_reserve(void)
{
    if (tasks_reserved >= room) {
        int err = grow_room();
        if (err)
            return err;
    }
    tasks_reserved++;
    return 0;
}

/* Moves the three structures back into their static arrays and frees the allocated ones,
 * once few enough tasks are left (half the static room: a task more or less at the border
 * does not allocate and free each time), so that a flood of tasks leaves no memory behind.
 * Needs no allocation: callable where task_free is, in the middle of a switch. */
static void shrink_room(void)
{
    if (room == FIRST_ROOM || tasks_reserved > FIRST_ROOM / 2)
        return;
    move_room(first_buckets, first_timeout_slots, first_alarm_slots, FIRST_ROOM);
}

void sched_task_release(void)
{
    tasks_reserved--;
    shrink_room();
}

/* rq's CPU's reschedule request (sched.h: sched_need_resched reads this CPU's). */
static volatile bool *need_resched(struct run_queue *rq) { return &sched_resched_flags[rq - run_queues].set; }

void sched_set_idle(unsigned cpu, struct task *idle)
{
    idle->cpu = cpu;
    idle->cpus_allowed = 1u << cpu;
    run_queues[cpu].idle = idle;
    run_queues[cpu].since_cycles = arch_cycles(); /* its current runs from now */
}

bool sched_is_idle_task(const struct task *t) { return t == run_queues[t->cpu].idle; }

unsigned task_cpu(const struct task *t) { return t->cpu; }

/* The CPUs t may run on now: its mask, less the CPUs not online. */
static uint32_t allowed_online(const struct task *t)
{
    unsigned n = arch_cpu_count();
    uint32_t online = n >= 32 ? ~0u : (1u << n) - 1;
    return t->cpus_allowed & online;
}

/* What a CPU has to do: its waiting tasks, and one for the task it runs (idle aside). */
static unsigned load_of(unsigned cpu)
{
    struct run_queue *rq = &run_queues[cpu];
    return rq->queued + (cpu_current[cpu] != rq->idle);
}

/* The tasks that run or wait to run, the idle tasks aside: the load average's sample, from
 * the run queues' counts (as Linux sums its runqueues' nr_running), without a look at any
 * sleeper. Every runnable task is either some CPU's current or on some CPU's queue. */
static unsigned runnable_tasks(void)
{
    unsigned n = 0;
    for (unsigned cpu = 0; cpu < arch_cpu_count(); cpu++)
        n += load_of(cpu);
    return n;
}

static void enqueue(struct task *t)
{
    struct run_queue *rq = &run_queues[t->cpu];
    t->rq_next = 0;
    t->rq_prev = rq->tail;
    if (rq->tail)
        rq->tail->rq_next = t;
    else
        rq->head = t;
    rq->tail = t;
    rq->queued++;
    t->on_rq = true;
}

static inline void dequeue(struct task *t)
{
    struct run_queue *rq = &run_queues[t->cpu];
    if (t->rq_prev)
        t->rq_prev->rq_next = t->rq_next;
    else
        rq->head = t->rq_next;
    if (t->rq_next)
        t->rq_next->rq_prev = t->rq_prev;
    else
        rq->tail = t->rq_prev;
    rq->queued--;
    t->on_rq = false;
}

/* Asks cpu to reschedule: at once if it is this one's, else by IPI (which also ends an
 * idle CPU's hlt). */
static void resched_cpu(unsigned cpu)
{
    sched_resched_flags[cpu].set = true;
    if (cpu != arch_cpu_id())
        arch_send_resched_ipi(cpu);
}

/* The CPU a task that becomes runnable should wait on (see the top of the file). */
static unsigned select_cpu(const struct task *t)
{
    uint32_t allowed = allowed_online(t);
    if (!allowed)
        return t->cpu; /* cannot happen: sched_setaffinity keeps an online CPU in the mask */
    unsigned best = (allowed >> t->cpu) & 1 ? t->cpu : (unsigned)__builtin_ctz(allowed);
    unsigned best_load = load_of(best);
    for (unsigned cpu = 0; best_load && cpu < arch_cpu_count(); cpu++)
        if (((allowed >> cpu) & 1) && load_of(cpu) < best_load) {
            best = cpu;
            best_load = load_of(cpu);
        }
    return best;
}

/* Queues t, runnable and on no queue, on cpu's run queue (a move when cpu is not the one
 * it ran on), and tells cpu. */
static void queue_on(struct task *t, unsigned cpu)
{
    if (cpu != t->cpu)
        trace_sched_migrate_task(t, t->cpu, cpu);
    t->cpu = cpu;
    enqueue(t);
    resched_cpu(cpu);
}

/* Puts a runnable task that is not running on the queue of the CPU it should wait on. */
static void place(struct task *t) { queue_on(t, select_cpu(t)); }

/* t is the current task of some CPU. */
static bool running(const struct task *t) { return cpu_current[t->cpu] == t; }

/* The next task this CPU runs: the first waiting one, or prev itself when it alone can
 * run here (it was queued last, so others go first), or the idle task. */
static struct task *pick_next(struct run_queue *rq, struct task *prev)
{
    unsigned me = (unsigned)(rq - run_queues);
    if (prev != rq->idle && prev->state == TASK_RUNNABLE) {
        if ((allowed_online(prev) >> me) & 1)
            enqueue(prev);
        else
            place(prev); /* its mask no longer has this CPU: it moves */
    }
    struct task *next = rq->head;
    if (!next)
        return rq->idle;
    dequeue(next);
    return next;
}

/* Charges prev with the time since it was switched to, now that it is switched away. In
 * cycles: a counter read and a subtraction at each switch; the conversion to nanoseconds
 * waits for whoever reads the time (task_cpu_time_ns, /proc, wait's rusage). */
static void account_cpu_time(struct run_queue *rq, struct task *prev)
{
    uint64_t now = arch_cycles();
    prev->cpu_cycles += now - rq->since_cycles;
    rq->since_cycles = now;
}

uint64_t task_cpu_time_ns(const struct task *t)
{
    unsigned long flags = arch_irq_save(); /* current and since_cycles change together */
    uint64_t cycles = t->cpu_cycles;
    if (running(t))
        cycles += arch_cycles() - run_queues[t->cpu].since_cycles;
    arch_irq_restore(flags);
    return time_span_ns(cycles);
}

/* Switches this CPU (me: interrupts are off, so it stays this one until the switch) from
 * prev, its current task, to next, whose cpu is this one and which is on no queue; returns
 * when prev is switched to again, perhaps on another CPU, whose number it reads once then.
 * What every switch does. Inline in its two callers (schedule and the IPC fast path's
 * direct switch): one call frame less on each switch, and no function tracer hook of its
 * own (as Linux's context switch, inline in its notrace __schedule: the tracer would see a
 * call that returns in another task, and sched_switch records the switch anyway). */
static inline __attribute__((always_inline)) void switch_to(unsigned me, struct task *prev, struct task *next)
{
    struct run_queue *rq = &run_queues[me];
    account_cpu_time(rq, prev);
    trace_sched_switch(prev, next); /* while current_pid is still prev's, as on Linux */
    rq->switched_from = prev;
    cpu_current[me] = next; /* current */
    cpu_current_pid[me] = next->pid; /* current_pid */
    unsigned depth = kernel_lock_depth_on(me); /* next's own switch restores its own */
    arch_switch_to(prev, next);
    /* prev runs again here, switched to by some other task, perhaps on another CPU. */
    unsigned now = arch_cpu_id();
    kernel_lock_set_depth_on(now, depth);
    struct task *from = run_queues[now].switched_from;
    if (from->state == TASK_ZOMBIE) /* the test task_finish_switch starts with, inline */
        task_finish_switch(from);
}

void schedule(void)
{
    unsigned me = arch_cpu_id();
    struct run_queue *rq = &run_queues[me];
    *need_resched(rq) = false;
    struct task *prev = cpu_current[me];
    struct task *next = pick_next(rq, prev);
    if (next == prev)
        return;
    switch_to(me, prev, next); /* next->cpu is this CPU: it came off this CPU's queue */
}

/* Puts t, the current task, to sleep on chan (0: on nothing wake_up names) until deadline
 * at_ns (0: none): its state, its place among chan's waiters (hashed: in the wait table,
 * for wake_up; not: a direct sleep, which only sched_wake_sleeper ends), its timer. Inline
 * in its two callers (sleep_until_woken, the IPC fast path's switch), as end_sleep in its
 * two. */
static inline __attribute__((always_inline)) void start_sleep(struct task *t, const void *chan,
                                                             uint64_t at_ns, bool hashed)
{
    t->state = TASK_SLEEPING;
    t->wake_reason = 0;
    t->wait.chan = chan;
    t->wait_hashed = hashed && chan;
    if (t->wait_hashed)
        wait_table_add(&waiters, &t->wait, chan);
    if (at_ns && !deadline_heap_add(&sleep_timeouts, &t->sleep_timer, at_ns))
        panic("sched: no room for %s-%d's sleep timer (a task task_alloc did not reserve)",
              t->name, t->pid);
}

/* Ends sleeping t's sleep, whoever ends it: off its channel's waiters and its timer off the
 * heap (wait.chan stays until t runs: the IPC fast path reads it). */
static inline __attribute__((always_inline)) void end_sleep(struct task *t)
{
    if (t->wait_hashed)
        wait_table_remove(&waiters, &t->wait);
    if (deadline_timer_queued(&t->sleep_timer))
        deadline_heap_remove(&sleep_timeouts, &t->sleep_timer);
}

void sched_sleep_and_switch_to(const void *chan, struct task *next)
{
    unsigned me = arch_cpu_id();
    struct task *prev = cpu_current[me];
    start_sleep(prev, chan, 0, false); /* as sleep_on_direct(chan, 0) */
    end_sleep(next); /* as sched_wake_task(next, 0), but not queued: it runs now */
    next->wake_reason = 0;
    next->state = TASK_RUNNABLE;
    trace_sched_wakeup(next);
    switch_to(me, prev, next);
    prev->wait.chan = 0; /* prev is current again, perhaps on another CPU */
}

/* A new task's first code after the switch to it (arch layer calls it): it holds the
 * kernel lock the switching CPU held, one level deep, as a task returning from schedule(). */
void sched_first_run(void)
{
    kernel_lock_set_depth(1);
    task_finish_switch(this_rq()->switched_from);
}

void sched_start_task(struct task *t)
{
    unsigned long flags = arch_irq_save();
    t->state = TASK_RUNNABLE;
    place(t);
    trace_sched_wakeup_new(t); /* queued where it will run: Linux's wake_up_new_task */
    arch_irq_restore(flags);
}

void sched_yield(void)
{
    unsigned long flags = arch_irq_save();
    schedule();
    arch_irq_restore(flags);
}

void cond_resched(void)
{
    unsigned long flags = arch_irq_save();
    if (sched_need_resched())
        schedule();
    kernel_lock_break(); /* and let a CPU waiting for the kernel lock in */
    arch_irq_restore(flags);
}

/* True when a sleep of the current task must end with EINTR: it was killed, or a signal
 * it takes (not blocked, not ignored) is pending. */
static bool interrupted(void)
{
    return current->killed || sigstate_deliverable(&current->sig);
}

/* The sleep behind every form: interruptible ends at once (or when woken) on interrupted();
 * hashed puts the task in the wait table (sleep_on) or not (sleep_on_direct). */
static int sleep_until_woken(const void *chan, uint64_t timeout_ns, bool interruptible, bool hashed)
{
    if (interruptible && interrupted())
        return -EINTR;
    start_sleep(current, chan, timeout_ns ? time_ns() + timeout_ns : 0, hashed);
    if (timeout_ns)
        trace_hrtimer_start(&current->sleep_timer, (uintptr_t)sched_wake_task,
                            current->sleep_timer.at);
    schedule();
    if (timeout_ns && current->wake_reason != -ETIMEDOUT)
        trace_hrtimer_cancel(&current->sleep_timer); /* woken before its deadline */
    current->wait.chan = 0;
    if (interruptible && interrupted())
        return -EINTR;
    return current->wake_reason == -EINTR ? 0 : current->wake_reason;
}

int sleep_on(const void *chan, uint64_t timeout_ns)
{
    return sleep_until_woken(chan, timeout_ns, true, true);
}

int sleep_on_direct(const void *chan, uint64_t timeout_ns)
{
    return sleep_until_woken(chan, timeout_ns, true, false);
}

int sleep_on_uninterruptible(const void *chan)
{
    return sleep_until_woken(chan, 0, false, true);
}

int sleep_ns(uint64_t ns)
{
    unsigned long flags = arch_irq_save();
    int err = ns ? sleep_on(0, ns) : 0;
    arch_irq_restore(flags);
    return err == -ETIMEDOUT ? 0 : err;
}

/* Makes a sleeping task runnable, with the result its sleep_on() returns. */
void sched_wake_task(struct task *t, int reason)
{
    t->wake_reason = reason;
    if (t->state != TASK_RUNNABLE) {
        if (t->state == TASK_SLEEPING)
            end_sleep(t);
        t->state = TASK_RUNNABLE;
        /* The kernel lock: no other CPU sees a task between its sleep and its switch. */
        if (!running(t))
            place(t);
    }
    trace_sched_wakeup(t); /* with the CPU it was queued on, as Linux's ttwu_do_wakeup */
}

void sched_kick(struct task *t)
{
    if (running(t) && t->cpu != arch_cpu_id())
        arch_send_resched_ipi(t->cpu);
}

void wake_up(const void *chan)
{
    unsigned long flags = arch_irq_save();
    struct wait_link *l = wait_table_bucket(&waiters, chan)->first;
    while (l) {
        struct wait_link *next = l->next; /* waking l takes it off the bucket */
        if (l->chan == chan)
            sched_wake_task(task_of(l, wait), 0);
        l = next;
    }
    arch_irq_restore(flags);
}

void sched_wake_sleeper(struct task *t, const void *chan)
{
    unsigned long flags = arch_irq_save();
    if (t->state == TASK_SLEEPING && t->wait.chan == chan)
        sched_wake_task(t, 0);
    arch_irq_restore(flags);
}

void sched_alarm_set(struct task *t, uint64_t at_ns)
{
    unsigned long flags = arch_irq_save();
    deadline_heap_remove(&alarms, &t->alarm);
    if (at_ns && !deadline_heap_add(&alarms, &t->alarm, at_ns))
        panic("sched: no room for %s-%d's alarm (a task task_alloc did not reserve)", t->name,
              t->pid);
    arch_irq_restore(flags);
}

/* The least and the most loaded online CPUs; when they differ by two or more, moves the
 * first waiting task of the most loaded one that may run on the least loaded one there. */
static void balance(void)
{
    unsigned n = arch_cpu_count(), low = 0, high = 0;
    for (unsigned cpu = 1; cpu < n; cpu++) {
        if (load_of(cpu) < load_of(low))
            low = cpu;
        if (load_of(cpu) > load_of(high))
            high = cpu;
    }
    if (load_of(high) < load_of(low) + 2)
        return;
    for (struct task *t = run_queues[high].head; t; t = t->rq_next)
        if ((allowed_online(t) >> low) & 1) {
            dequeue(t);
            queue_on(t, low);
            return;
        }
}

void sched_tick(void)
{
    if (!current)
        return; /* before tasks_init */
    uint64_t now = time_ns();
    /* Only the timers that are due: the heaps' first, as long as it is due. */
    struct deadline_timer *d;
    while ((d = deadline_heap_first(&sleep_timeouts)) && d->at <= now) {
        deadline_heap_remove(&sleep_timeouts, d);
        trace_hrtimer_expire_entry(d, (uintptr_t)sched_wake_task);
        sched_wake_task(task_of(d, sleep_timer), -ETIMEDOUT);
        trace_hrtimer_expire_exit(d);
    }
    while ((d = deadline_heap_first(&alarms)) && d->at <= now) {
        deadline_heap_remove(&alarms, d); /* an interval timer is armed again in there */
        trace_hrtimer_expire_entry(d, (uintptr_t)signal_alarm_expired);
        signal_alarm_expired(task_of(d, alarm), now);
        trace_hrtimer_expire_exit(d);
    }
    loadavg_sample(runnable_tasks(), now); /* issue 16's load average */
    balance();
    /* Each CPU's local timer ends its time slices (sched_cpu_tick); without one, this tick
     * ends every CPU's. */
    if (!arch_local_timer_running())
        for (unsigned cpu = 0; cpu < arch_cpu_count(); cpu++)
            if (run_queues[cpu].queued)
                resched_cpu(cpu);
}

void sched_cpu_tick(void)
{
    if (!current)
        return; /* before tasks_init */
    /* A time slice is one tick. Kernel threads are never preempted: they see the request at
     * their next cond_resched() or wait. */
    struct run_queue *rq = this_rq();
    if (rq->queued)
        *need_resched(rq) = true;
}

void sched_idle_step(void)
{
    struct run_queue *rq = this_rq();
    if (!*need_resched(rq) && !rq->queued)
        return;
    kernel_lock();
    schedule();
    kernel_unlock();
}

int sched_setaffinity(struct task *t, uint32_t mask)
{
    unsigned long flags = arch_irq_save();
    uint32_t old = t->cpus_allowed;
    t->cpus_allowed = mask;
    if (!allowed_online(t)) {
        t->cpus_allowed = old;
        arch_irq_restore(flags);
        return -EINVAL;
    }
    if (!((allowed_online(t) >> t->cpu) & 1)) {
        if (t->on_rq) {
            dequeue(t);
            place(t);
        } else if (running(t)) {
            resched_cpu(t->cpu); /* its schedule() moves it (pick_next) */
        }
    }
    arch_irq_restore(flags);
    return 0;
}

uint32_t sched_getaffinity(const struct task *t) { return allowed_online(t); }

void sched_return_to_user(void)
{
    for (;;) {
        if (current->killed) {
            arch_irq_enable();
            int sig = current->kill_signal;
            /* It takes the fatal signal now, with its default action, as Linux's
             * get_signal records it before the process exits. */
            trace_signal_deliver(sig, current->kill_code, 0, 0);
            task_exit_signal(sig, sig_default_action(sig) == SIG_DEFAULT_CORE);
        }
        if (!sched_need_resched())
            return;
        schedule();
    }
}
