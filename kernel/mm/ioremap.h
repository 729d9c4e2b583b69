/*
 * ioremap.h - mapping device memory (PCI BARs) into the kernel's address space.
 *
 * Device registers must not be cached, and each mapping gets its own 4 KiB pages in the
 * ioremap window, so that a tracer can arm exactly the pages of one mapping (mmiotrace).
 */
#ifndef KERNEL_MM_IOREMAP_H
#define KERNEL_MM_IOREMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct io_mapping {
    uintptr_t virt;          /* first byte the caller asked for */
    uint64_t phys;
    size_t size;
    uint32_t id;             /* 1, 2, ... in mapping order: mmiotrace's map id */
    bool traced;             /* its pages are armed by mmiotrace */
    struct io_mapping *next; /* the list of live mappings, newest first */
    struct io_mapping *prev; /* the next newer one (NULL: the newest), for an O(1) unmap */
};

/*
 * Someone who wants to know about mappings as they come and go: mmiotrace. mapped() runs
 * after the pages are in place, before ioremap returns; unmapping() runs before they go.
 * Both with the ioremap lock held and interrupts off. caller is the code address that
 * called ioremap or iounmap.
 */
struct ioremap_observer {
    void (*mapped)(struct io_mapping *m, uintptr_t caller);
    void (*unmapping)(struct io_mapping *m, uintptr_t caller);
};
void ioremap_set_observer(const struct ioremap_observer *observer);
/* Stops observing and calls undo on every mapping, both under the ioremap lock (interrupts
 * off; undo must not wait for other CPUs): an ioremap or iounmap on another CPU comes
 * wholly before (undo sees it) or wholly after (nobody observes it). */
void ioremap_detach_observer(void (*undo)(struct io_mapping *m));

/*
 * Watching every access to a mapping (mmiotrace's fault path, which arch/x86 implements):
 * the tracer passes the sink it wants each access reported to, and the arch arms the pages
 * of each mapping it names so that their accesses fault. The sink runs from the page-fault
 * or debug-trap handler, once per access: op is MMIO_OP_READ, MMIO_OP_WRITE or
 * MMIO_OP_UNKNOWN (an instruction the decoder does not know; opcode then holds its first
 * bytes, else 0), pc the instruction's address. (A program's accesses through its mapping
 * of a BAR are recorded by arch/x86/mmiotrace_user.c itself, with its pid.)
 */
enum mmio_trace_op {
    MMIO_OP_READ = 1,
    MMIO_OP_WRITE,
    MMIO_OP_UNKNOWN, /* an instruction the decoder does not know touched the mapping */
    MMIO_OP_MAP,
    MMIO_OP_UNMAP,
};
typedef void (*mmio_access_sink)(uint8_t op, uint8_t width, uint32_t map_id, uint64_t phys,
                                 uint32_t value, uint32_t pc, const uint8_t opcode[3]);
/* Installs the fault handlers that report to sink (0 or -errno: -EBUSY while an int3
 * kprobe is armed, arch/x86/kprobe_arch.h), or removes them (sink 0). */
int mmiotrace_arch_enable(mmio_access_sink sink);
/* mmiotrace's recorders (trace/mmiotrace/mmiotrace.c) of a program's mapping of a BAR and
 * its accesses (arch/x86/mmiotrace_user.c): as the tracer's records, with the user byte
 * set, so that a line ends with the pid of the process (current) where the kernel's say 0,
 * as Linux's. */
void mmiotrace_record_user_rw(uint8_t op, uint8_t width, uint32_t map_id, uint64_t phys,
                              uint32_t value, uint32_t pc, const uint8_t opcode[3]);
void mmiotrace_record_user_map(uint8_t op, uint32_t map_id, uint64_t phys, uint32_t virt,
                               uint32_t len, uint32_t pc);
/* Whether the fault handlers are installed (mmiotrace or an mmio/ event is on). */
bool mmiotrace_arch_active(void);
/* Arms every page of a mapping (its accesses fault and reach the sink) or disarms it. */
void mmiotrace_arm(struct io_mapping *m, bool arm);

/* A map id of the same sequence as the mappings' own (mmiotrace's MAP of a program's
 * mapping of a BAR: every map id in a log is unique). */
uint32_t ioremap_take_id(void);

/*
 * A program's mapping of device memory (sysfs's resourceN, issue 23): the current process
 * has just mapped [phys, phys+len) at user address va, from its call at user address pc
 * (0: unknown). While mmiotrace is current (it sets the hook kernel/trace_hooks.h
 * trace_user_iomap to this), the pages are armed for that process only, MAP is recorded,
 * every access it makes is recorded as R/W with its pid, and UNMAP when it unmaps them or
 * exits (arch/x86/mmiotrace_user.c).
 */
void mmiotrace_user_map(uint32_t va, uint32_t len, uint64_t phys, uint32_t pc);
/* Forgets every program's traced mapping, disarming its pages (the tracer stops). */
void mmiotrace_user_disarm_all(void);

/* Takes pages of virtual addresses out of the ioremap window for the caller's own use
 * (mmiotrace's second view of a traced page). Returns the first address, or 0. */
uintptr_t ioremap_reserve_window(uint32_t pages);

/* Maps [phys, phys+size) uncached; returns the virtual address of phys, or NULL when the
 * window has no room, or the request is empty, larger than the window or above 4 GiB. It
 * prints nothing: the caller reports the failure, in its own words, once. */
void *ioremap(uint64_t phys, size_t size);
/* The size of the window every mapping comes from, in bytes. */
size_t ioremap_window_bytes(void);
/* Removes the mapping ioremap returned at addr; an unknown addr is reported and ignored. */
void iounmap(void *addr);

/* The page-aligned start and the number of pages of a mapping. */
uintptr_t ioremap_first_page(const struct io_mapping *m);
uint32_t ioremap_page_count(const struct io_mapping *m);

/* The mapping containing virtual address va, or NULL: one load from a table of the window's
 * pages, whatever the number of mappings. */
const struct io_mapping *ioremap_find(uintptr_t va);
/* All live mappings, newest first. */
const struct io_mapping *ioremap_list(void);

#endif
