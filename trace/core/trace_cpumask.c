/*
 * trace_cpumask.c - tracing_cpumask, as Linux's: which CPUs record into the trace buffer,
 * in Linux's hex mask text (cpumask_text.h). A CPU outside the mask records nothing (its
 * writers refuse in the ring buffer, rb_set_cpu_recording, and that is no loss); a mask
 * with no CPU at all is taken, as Linux takes it, and then nothing is recorded. A bad
 * character is EINVAL, a bit past the last CPU or a group too long EOVERFLOW (Linux's
 * bitmap_parse); a refused write changes nothing. The mask is as wide as arch_cpu_count()
 * says (every CPU online; the buffer has a ring for each).
 */
#include "kernel/arch.h"
#include "kernel/fs/fs_layout.h"
#include "kernel/init.h"
#include "kernel/spinlock.h"
#include "trace/core/cpumask_text.h"
#include "trace/core/trace.h"

static struct spinlock cpumask_lock = SPINLOCK_INIT("tracing_cpumask");
static uint32_t cpumask[CPUMASK_TEXT_WORDS]; /* under cpumask_lock */

/* The CPUs the buffer has, as far as the mask text goes. */
static unsigned mask_cpus(void)
{
    unsigned n = arch_cpu_count();
    return n < CPUMASK_TEXT_MAX_CPUS ? n : CPUMASK_TEXT_MAX_CPUS;
}

static int read_cpumask(struct fs_node *f, struct fs_writer *out)
{
    (void)f;
    char text[CPUMASK_TEXT_MAX_CPUS / 4 + CPUMASK_TEXT_WORDS + 2];
    uint32_t copy[CPUMASK_TEXT_WORDS];
    unsigned long flags = spin_lock_irqsave(&cpumask_lock);
    for (unsigned i = 0; i < CPUMASK_TEXT_WORDS; i++)
        copy[i] = cpumask[i];
    spin_unlock_irqrestore(&cpumask_lock, flags);
    cpumask_text_print(text, sizeof text, copy, mask_cpus());
    fs_printf(out, "%s\n", text);
    return 0;
}

static int write_cpumask(struct fs_node *f, const char *data, size_t len, bool append)
{
    (void)f;
    (void)append;
    uint32_t mask[CPUMASK_TEXT_WORDS];
    unsigned ncpus = mask_cpus();
    int err = cpumask_text_parse(data, len, ncpus, mask);
    if (err)
        return err;
    unsigned long flags = spin_lock_irqsave(&cpumask_lock);
    for (unsigned i = 0; i < CPUMASK_TEXT_WORDS; i++)
        cpumask[i] = mask[i];
    for (unsigned cpu = 0; cpu < ncpus; cpu++)
        rb_set_cpu_recording(trace_buffer(), cpu, mask[cpu / 32] >> (cpu % 32) & 1);
    spin_unlock_irqrestore(&cpumask_lock, flags);
    return 0;
}

static const struct fs_file_ops cpumask_ops = { .read = read_cpumask, .write = write_cpumask };

/* Every CPU records at boot, as on Linux. */
static void trace_cpumask_init(void)
{
    for (unsigned cpu = 0; cpu < mask_cpus(); cpu++)
        cpumask[cpu / 32] |= 1u << (cpu % 32);
    fs_create(tracefs_root(), "tracing_cpumask", &cpumask_ops, 0);
}
INITCALL(trace, trace_cpumask_init);
