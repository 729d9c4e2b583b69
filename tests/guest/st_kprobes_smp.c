/*
 * st_kprobes_smp.c - kprobes hit on every CPU at once (issue 19).
 *
 * kprobes_smp_stress: every CPU but 0 calls the test module's functions (known results,
 * each checked) an exact number of times while probes sit on them: an entry probe (the
 * ftrace site), an int3 on a push (stepped out of line) and an int3 on a call (the pushed
 * return address fixed after the step). Meanwhile CPU 0 keeps arming and disarming two
 * more int3 probes on functions the loops call, so the armed table is reshuffled (a
 * disarm moves the last entry into the hole) under CPUs looking entries up in it; the
 * first disarm moves one of the counted probes. Two return probes sit on the functions
 * too: on ftrace_test_leaf with the default maxactive (10, more than the CPUs that can
 * have a call pending), which must count one hit per call and no miss, and on
 * ftrace_test_middle with maxactive 1, where calls on several CPUs at once find the one
 * instance taken: its hits and misses must add up to the calls. Their instances come from
 * one pool for every CPU; a race on it would hand two CPUs one instance, and a call would
 * return to the wrong place (a wrong result, or the trampoline's panic). Each counted
 * probe's kprobe_profile must show exactly one hit per call and no miss, no call may
 * return a wrong result, nothing may crash (a CPU stepping another's copy, or an int3
 * whose entry it cannot find, panics), and the functions' text is as before once the
 * probes are gone.
 *
 * With one CPU (SMP=1, or before the others run work) CPU 0 runs the loop itself between
 * rearmings: everything but the concurrency is checked the same.
 *
 * A named test (selftest=kprobes_smp_stress) run under QEMU's default multi-threaded TCG,
 * as st_ftrace_smp.c is: the probes' int3s are written into code other CPUs run, and
 * text_poke_byte writes each byte twice for QEMU (docs/ftrace.md section 11).
 */
#include "kernel/arch.h"
#include "kernel/lib/string.h"
#include "kernel/log/printk.h"
#include "kernel/selftest.h"
#include "kernel/smp.h"
#include "samples/ftrace/ftrace_testmod.h"
#include "tests/guest/guest_helpers.h"
#include "trace/core/trace_internal.h"

#define LOOP_CALLS 2000   /* iterations per loop CPU */
#define ONE_CPU_ROUNDS 50 /* rearmings when CPU 0 is the only caller */
#define ONE_CPU_CALLS 40  /* iterations per rearming then */
#define TEXT_BYTES 48     /* text of each probed function compared before and after */

/* One loop CPU's job and results, a cache line of its own. */
struct kp_loop {
    uint32_t limit;     /* iterations to make */
    uint32_t calls;     /* iterations made */
    uint32_t wrong;     /* returns that were not the known result */
    volatile bool done; /* set when the loop returns */
} __attribute__((aligned(64)));
static struct kp_loop kp_loops[MAX_CPUS];

/* Calls the probed functions limit times: each iteration is one ftrace_test_top (two
 * middles, each a leaf and a leaf2) and one ftrace_test_leaf, so 3 leaf calls. */
static void kp_call_loop(void *arg)
{
    struct kp_loop *l = arg;
    uint32_t n = 0;
    for (; n < l->limit; n++) {
        int x = (int)(n & 0xffff);
        if (ftrace_test_top(x) != 6 * x + 5)
            l->wrong++;
        if (ftrace_test_leaf(x) != x + 1)
            l->wrong++;
        arch_cpu_relax(); /* pause: lets single-threaded TCG run the other CPUs */
    }
    l->calls = n;
    __atomic_store_n(&l->done, true, __ATOMIC_RELEASE);
}

/* The CPUs that run the loops: every CPU but 0, or CPU 0 alone on one CPU. */
static unsigned kp_first_loop_cpu(void) { return arch_cpu_count() > 1 ? 1 : 0; }
static unsigned kp_cpus(void) { return arch_cpu_count() < MAX_CPUS ? arch_cpu_count() : MAX_CPUS; }

/* Starts limit iterations on each loop CPU (on one CPU: runs them to the end at once). */
static bool kp_start_loops(uint32_t limit)
{
    bool ok = true;
    for (unsigned cpu = kp_first_loop_cpu(); cpu < kp_cpus(); cpu++) {
        kp_loops[cpu] = (struct kp_loop){ .limit = limit };
        ok &= smp_run_on(cpu, kp_call_loop, &kp_loops[cpu]);
    }
    return ok;
}

static bool kp_loops_done(void)
{
    for (unsigned cpu = kp_first_loop_cpu(); cpu < kp_cpus(); cpu++)
        if (!__atomic_load_n(&kp_loops[cpu].done, __ATOMIC_ACQUIRE))
            return false;
    return true;
}

/* The offset in ftrace_test_top of its first call (to ftrace_test_middle): an e8 rel32
 * whose target is that function. 0 when there is none. */
static uint32_t call_offset(void)
{
    const uint8_t *top = (const uint8_t *)(uintptr_t)ftrace_test_top;
    uint32_t middle = (uint32_t)(uintptr_t)ftrace_test_middle;
    for (uint32_t off = 5; off + 5 <= TEXT_BYTES; off++) {
        int32_t rel;
        memcpy(&rel, top + off + 1, 4);
        if (top[off] == 0xe8 && (uint32_t)(uintptr_t)top + off + 5 + (uint32_t)rel == middle)
            return off;
    }
    return 0;
}

/* The Hit and Miss columns of name's line in kprobe_profile; false when it has none. */
static bool profile_counts(const char *name, uint64_t *hits, uint64_t *misses)
{
    const char *text = guest_read_file("kprobe_profile");
    size_t len = strlen(name);
    for (const char *p = text; *p; p++) {
        if ((p != text && p[-1] != '\n') || strncmp(p, "  ", 2) != 0 ||
            strncmp(p + 2, name, len) != 0 || p[2 + len] != ' ')
            continue;
        const char *q = p + 2 + len;
        uint64_t v[2] = { 0, 0 };
        for (int i = 0; i < 2; i++) {
            while (*q == ' ')
                q++;
            if (*q < '0' || *q > '9')
                return false;
            while (*q >= '0' && *q <= '9')
                v[i] = v[i] * 10 + (uint64_t)(*q++ - '0');
        }
        *hits = v[0];
        *misses = v[1];
        return true;
    }
    return false;
}

/* dst (of size 64) made a followed by b. */
static char *join(char dst[64], const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la + lb >= 64)
        lb = la >= 63 ? 0 : 63 - la;
    memcpy(dst, a, la < 63 ? la : 63);
    memcpy(dst + (la < 63 ? la : 63), b, lb);
    dst[(la < 63 ? la : 63) + lb] = '\0';
    return dst;
}

/* Writes "0" or "1" to events/kpsmp/NAME/enable. */
static bool kp_enable(const char *name, bool on)
{
    char path[64], tail[64];
    join(path, "events/kpsmp/", join(tail, name, "/enable"));
    return guest_write_file(path, on ? "1" : "0", false) == 0;
}

/* One rearming: each moving probe disarmed (the other, if armed after it, moves into its
 * place in the armed table) and armed again (at the end). */
static bool kp_rearm(void)
{
    return kp_enable("mv1", false) && kp_enable("mv1", true) && kp_enable("mv2", false) &&
           kp_enable("mv2", true);
}

/* The counted probe name has exactly want hits and no miss. */
static bool kp_counted(const char *name, uint64_t want)
{
    uint64_t hits = ~0ull, misses = ~0ull;
    bool found = profile_counts(name, &hits, &misses);
    printk("kprobes_smp_stress: %s: %llu hits (want %llu), %llu missed\n", name,
           (unsigned long long)hits, (unsigned long long)want, (unsigned long long)misses);
    return found && hits == want && misses == 0;
}

/* The counted probe name's hits and misses add up to want (some hits may be misses). */
static bool kp_counted_sum(const char *name, uint64_t want)
{
    uint64_t hits = ~0ull, misses = ~0ull;
    bool found = profile_counts(name, &hits, &misses);
    printk("kprobes_smp_stress: %s: %llu hits + %llu missed (want %llu together)\n", name,
           (unsigned long long)hits, (unsigned long long)misses, (unsigned long long)want);
    return found && hits + misses == want;
}

NAMEDTEST(kprobes_smp_stress)
{
    static const void *const funcs[] = { ftrace_test_top, ftrace_test_middle, ftrace_test_leaf,
                                         ftrace_test_leaf2 };
    static uint8_t text_before[4][TEXT_BYTES];
    for (int i = 0; i < 4; i++)
        memcpy(text_before[i], funcs[i], TEXT_BYTES);
    uint32_t call_off = call_offset();
    ST_CHECK(call_off != 0);
    char call_probe[64] = "p:kpsmp/call ftrace_test_top+";
    size_t n = strlen(call_probe);
    if (call_off >= 10)
        call_probe[n++] = (char)('0' + call_off / 10);
    call_probe[n++] = (char)('0' + call_off % 10);
    call_probe[n] = '\0';
    bool saved_stream = trace_stream_enabled;
    trace_stream_enabled = false;

    /* The moving probes go in first, so the first disarm moves a counted one. */
    static const char *const probes[] = {
        "p:kpsmp/mv1 ftrace_test_leaf2+5", "p:kpsmp/mv2 ftrace_test_middle+6",
        "p:kpsmp/entry ftrace_test_leaf",  "p:kpsmp/push ftrace_test_leaf+5 x=+4(%sp):s32",
    };
    static const char *const names[] = { "mv1", "mv2", "entry", "push", "call", "ret", "ret1" };
    for (int i = 0; i < 4; i++)
        ST_CHECK(guest_write_file("kprobe_events", probes[i], true) == 0);
    ST_CHECK(guest_write_file("kprobe_events", call_probe, true) == 0);
    ST_CHECK(guest_write_file("kprobe_events", "r:kpsmp/ret ftrace_test_leaf ret=$retval", true) == 0);
    ST_CHECK(guest_write_file("kprobe_events", "r1:kpsmp/ret1 ftrace_test_middle", true) == 0);
    for (int i = 0; i < 7; i++)
        ST_CHECK(kp_enable(names[i], true));

    uint32_t rounds = 0, one_cpu_calls = 0, wrong = 0;
    if (kp_first_loop_cpu() > 0) {
        ST_CHECK(kp_start_loops(LOOP_CALLS));
        while (!kp_loops_done()) {
            ST_CHECK(kp_rearm());
            rounds++;
        }
        for (unsigned cpu = 1; cpu < kp_cpus(); cpu++)
            smp_wait(cpu);
    } else {
        for (; rounds < ONE_CPU_ROUNDS; rounds++) {
            ST_CHECK(kp_rearm());
            ST_CHECK(kp_start_loops(ONE_CPU_CALLS));
            one_cpu_calls += kp_loops[0].calls;
            wrong += kp_loops[0].wrong;
        }
    }
    for (int i = 0; i < 7; i++)
        ST_CHECK(kp_enable(names[i], false));

    uint64_t iterations = one_cpu_calls;
    for (unsigned cpu = kp_first_loop_cpu(); kp_first_loop_cpu() > 0 && cpu < kp_cpus(); cpu++) {
        ST_CHECK(kp_loops[cpu].calls == LOOP_CALLS);
        iterations += kp_loops[cpu].calls;
        wrong += kp_loops[cpu].wrong;
    }
    printk("kprobes_smp_stress: %u CPU(s) made %llu iterations during %u rearmings, %u wrong "
           "results\n", kp_cpus() - kp_first_loop_cpu(), (unsigned long long)iterations, rounds,
           wrong);
    ST_CHECK(wrong == 0);
    ST_CHECK(rounds > 0);
    ST_CHECK(iterations > 0);
    ST_CHECK(kp_counted("entry", 3 * iterations));
    ST_CHECK(kp_counted("push", 3 * iterations));
    ST_CHECK(kp_counted("call", iterations));
    ST_CHECK(kp_counted("ret", 3 * iterations));
    ST_CHECK(kp_counted_sum("ret1", 2 * iterations));

    for (int i = 0; i < 7; i++) {
        char del[64];
        ST_CHECK(guest_write_file("kprobe_events", join(del, "-:kpsmp/", names[i]), true) == 0);
    }
    for (int i = 0; i < 4; i++)
        ST_CHECK(memcmp(text_before[i], funcs[i], TEXT_BYTES) == 0);
    rb_reset(trace_buffer());
    trace_stream_enabled = saved_stream;
}
