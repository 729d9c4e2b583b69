/*
 * proc_cpuinfo.c - /proc/cpuinfo: one block per online CPU, with Linux's field names
 * (arch/x86/kernel/cpu/proc.c shows the same ones), so tools that parse it work here.
 *
 * Each CPU executes CPUID itself when it comes up (cpuinfo_capture_this_cpu): leaf 0 the
 * vendor and highest leaf, leaf 1 the signature (family, model, stepping), the initial
 * APIC id (EBX bits 24-31) and the feature flags, leaves 0x80000002-4 the model name. The
 * flags are named as Linux names them (arch/x86/include/asm/cpufeatures.h).
 */
#include "arch/x86/cpuinfo.h"

#include "arch/x86/lapic.h"
#include "kernel/arch.h"
#include "kernel/fs/fs_tree.h"
#include "kernel/init.h"
#include "kernel/lib/string.h"
#include "kernel/smp.h"

struct cpu_identity {
    uint32_t max_leaf, max_ext_leaf;
    char vendor[13];
    char model_name[49];
    uint32_t signature;           /* CPUID.1 EAX */
    uint32_t initial_apic_id;     /* CPUID.1 EBX[31:24] */
    uint32_t edx1, ecx1;          /* CPUID.1 feature flags */
    uint32_t edx_ext, ecx_ext;    /* CPUID.80000001h feature flags */
    uint32_t clflush_bytes;       /* CPUID.1 EBX[15:8] * 8 */
    uint32_t apic_id;             /* what its local APIC says */
};

static struct cpu_identity identities[MAX_CPUS];

static void cpuid(uint32_t leaf, uint32_t r[4])
{
    __asm__ volatile("cpuid" : "=a"(r[0]), "=b"(r[1]), "=c"(r[2]), "=d"(r[3]) : "a"(leaf), "c"(0));
}

void cpuinfo_capture_this_cpu(void)
{
    struct cpu_identity *id = &identities[arch_cpu_id()];
    uint32_t r[4];
    cpuid(0, r);
    id->max_leaf = r[0];
    memcpy(id->vendor, &r[1], 4);
    memcpy(id->vendor + 4, &r[3], 4);
    memcpy(id->vendor + 8, &r[2], 4);
    id->vendor[12] = '\0';
    if (id->max_leaf >= 1) {
        cpuid(1, r);
        id->signature = r[0];
        id->initial_apic_id = r[1] >> 24;
        id->clflush_bytes = ((r[1] >> 8) & 0xff) * 8;
        id->ecx1 = r[2];
        id->edx1 = r[3];
    }
    cpuid(0x80000000u, r);
    id->max_ext_leaf = r[0];
    if (id->max_ext_leaf >= 0x80000001u) {
        cpuid(0x80000001u, r);
        id->ecx_ext = r[2];
        id->edx_ext = r[3];
    }
    if (id->max_ext_leaf >= 0x80000004u) {
        for (uint32_t i = 0; i < 3; i++) {
            cpuid(0x80000002u + i, r);
            memcpy(id->model_name + 16 * i, r, 16);
        }
        id->model_name[48] = '\0';
    } else {
        strlcpy(id->model_name, "unknown", sizeof id->model_name);
    }
    id->apic_id = lapic_present() ? lapic_id() : id->initial_apic_id;
}

/* Linux's names for the feature bits, by register; NULL: not shown. */
static const char *const edx1_names[32] = {
    "fpu", "vme", "de", "pse", "tsc", "msr", "pae", "mce", "cx8", "apic", 0, "sep", "mtrr",
    "pge", "mca", "cmov", "pat", "pse36", "pn", "clflush", 0, "dts", "acpi", "mmx", "fxsr",
    "sse", "sse2", "ss", "ht", "tm", "ia64", "pbe",
};
static const char *const ecx1_names[32] = {
    "pni", "pclmulqdq", "dtes64", "monitor", "ds_cpl", "vmx", "smx", "est", "tm2", "ssse3",
    "cid", "sdbg", "fma", "cx16", "xtpr", "pdcm", 0, "pcid", "dca", "sse4_1", "sse4_2",
    "x2apic", "movbe", "popcnt", "tsc_deadline_timer", "aes", "xsave", 0, "avx", "f16c",
    "rdrand", "hypervisor",
};
static const char *const edx_ext_names[32] = {
    [11] = "syscall", [19] = "mp", [20] = "nx", [22] = "mmxext", [25] = "fxsr_opt",
    [26] = "pdpe1gb", [27] = "rdtscp", [29] = "lm", [30] = "3dnowext", [31] = "3dnow",
};
static const char *const ecx_ext_names[32] = {
    [0] = "lahf_lm", [1] = "cmp_legacy", [2] = "svm", [3] = "extapic", [4] = "cr8_legacy",
    [5] = "abm", [6] = "sse4a", [7] = "misalignsse", [8] = "3dnowprefetch",
};

static void print_flags(struct fs_writer *out, uint32_t bits, const char *const names[32])
{
    for (int b = 0; b < 32; b++)
        if ((bits & (1u << b)) && names[b])
            fs_printf(out, " %s", names[b]);
}

static int read_cpuinfo(struct fs_node *f, struct fs_writer *out)
{
    (void)f;
    unsigned n = arch_cpu_count();
    uint32_t khz = arch_cycles_khz();
    for (unsigned cpu = 0; cpu < n; cpu++) {
        const struct cpu_identity *id = &identities[cpu];
        unsigned family = (id->signature >> 8) & 0xf, model = (id->signature >> 4) & 0xf;
        if (family == 0xf)
            family += (id->signature >> 20) & 0xff;
        if (family == 0x6 || family >= 0xf)
            model |= ((id->signature >> 16) & 0xf) << 4;
        fs_printf(out, "processor\t: %u\n", cpu);
        fs_printf(out, "vendor_id\t: %s\n", id->vendor);
        fs_printf(out, "cpu family\t: %u\n", family);
        fs_printf(out, "model\t\t: %u\n", model);
        fs_printf(out, "model name\t: %s\n", id->model_name);
        fs_printf(out, "stepping\t: %u\n", id->signature & 0xf);
        fs_printf(out, "cpu MHz\t\t: %u.%03u\n", khz / 1000, khz % 1000);
        fs_printf(out, "physical id\t: 0\nsiblings\t: %u\ncore id\t\t: %u\ncpu cores\t: %u\n",
                  n, cpu, n);
        fs_printf(out, "apicid\t\t: %u\ninitial apicid\t: %u\n", id->apic_id,
                  id->initial_apic_id);
        fs_printf(out, "fpu\t\t: %s\nfpu_exception\t: %s\n", id->edx1 & 1 ? "yes" : "no",
                  id->edx1 & 1 ? "yes" : "no");
        fs_printf(out, "cpuid level\t: %u\nwp\t\t: yes\n", id->max_leaf);
        fs_puts(out, "flags\t\t:");
        print_flags(out, id->edx1, edx1_names);
        print_flags(out, id->edx_ext, edx_ext_names);
        print_flags(out, id->ecx1, ecx1_names);
        print_flags(out, id->ecx_ext, ecx_ext_names);
        fs_printf(out, "\nbogomips\t: %u.%02u\n", khz * 2 / 1000, (khz * 2 % 1000) / 10);
        fs_printf(out, "clflush size\t: %u\ncache_alignment\t: %u\n", id->clflush_bytes,
                  id->clflush_bytes);
        fs_puts(out, "power management:\n\n");
    }
    return 0;
}

static const struct fs_file_ops cpuinfo_ops = { .read = read_cpuinfo };

static void proc_cpuinfo_init(void)
{
    fs_set_mode(fs_create(fs_mkdir_path("proc"), "cpuinfo", &cpuinfo_ops, 0), 0444, 0, 0);
}
INITCALL(arch, proc_cpuinfo_init);
