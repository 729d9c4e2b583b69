/*
 * syscall.h - the system call table: what each call is named and takes.
 *
 * User programs enter with `int $0x80` (uapi/syscall.h). The table describes every call the
 * kernel has by its Linux i386 number: its name ("write"), its arguments' names and C types ("unsigned int fd",
 * "const char * buf", "size_t count", as Linux's SYSCALL_DEFINE gives them) and its handler. Syscall tracepoints
 * (trace/events/trace_syscalls.c) print from the same descriptions. The handlers themselves are
 * declared in kernel/syscall/syscall_handlers.h; the numbers programs use are uapi/syscall.h's.
 */
#ifndef KERNEL_SYSCALL_SYSCALL_H
#define KERNEL_SYSCALL_SYSCALL_H

#include <stdint.h>

#include "uapi/ipc.h"
#include "uapi/syscall.h"

#define SYSCALL_ARGS_MAX 6

/*
 * The table is indexed by slot: a Linux call's slot is its number; each operation of
 * tracekern's one IPC call (uapi/ipc.h: SYS_tracekern_ipc, the operation in the first
 * argument) has a slot of its own after Linux's numbers, so that it has its own name and
 * tracepoints (sys_ipc_call). A slot's handler and tracepoint see the registers after the
 * operation. SYSCALL_NO_SLOT: the kernel has no such call (ENOSYS).
 */
#define SYSCALL_SLOT_IPC SYS_MAX
#define SYSCALL_SLOTS (SYSCALL_SLOT_IPC + IPC_OPS)
#define SYSCALL_NO_SLOT SYSCALL_SLOTS

/* The slot of call nr, whose argument registers are regs. */
static inline unsigned syscall_slot(unsigned nr, const uint32_t regs[SYSCALL_ARGS_MAX])
{
    if (nr == SYS_tracekern_ipc)
        return regs[0] < IPC_OPS ? SYSCALL_SLOT_IPC + regs[0] : SYSCALL_NO_SLOT;
    return nr < SYS_MAX ? nr : SYSCALL_NO_SLOT;
}

/* The arguments the call in slot sees, from its registers: all of them, or for an IPC
 * operation those after the operation (the last one zero). */
static inline void syscall_slot_args(unsigned slot, const uint32_t regs[SYSCALL_ARGS_MAX],
                                     uint32_t args[SYSCALL_ARGS_MAX])
{
    unsigned skip = slot >= SYSCALL_SLOT_IPC ? 1 : 0;
    for (unsigned i = 0; i < SYSCALL_ARGS_MAX; i++)
        args[i] = i + skip < SYSCALL_ARGS_MAX ? regs[i + skip] : 0;
}

struct syscall_info {
    const char *name;                          /* without the sys_ prefix */
    uint8_t nargs;
    const char *arg_names[SYSCALL_ARGS_MAX];
    const char *arg_types[SYSCALL_ARGS_MAX];   /* as declared: "unsigned int", "const char *" */
    /* The handler: arguments as the registers carried them; returns the result or -errno. */
    int32_t (*handler)(const uint32_t args[SYSCALL_ARGS_MAX]);
};

/* The description of the call in slot (for Linux's calls: its number), or NULL when the
 * kernel has no such call. */
const struct syscall_info *syscall_info(unsigned slot);

/*
 * A tracer of system calls (the syscall tracepoints of trace/events/trace_syscalls.c): enter runs
 * before each call with its number and arguments as the registers carried them, exit after
 * it with the same and its result (a value or -errno); either may see a number the table
 * does not have. The tracer
 * is installed only while it wants calls, so that an untraced call pays one test of a
 * pointer. syscall_set_tracer(NULL) removes it; syscall_tracer is the one installed now.
 */
struct syscall_tracer {
    void (*enter)(unsigned nr, const uint32_t args[SYSCALL_ARGS_MAX]);
    void (*exit)(unsigned nr, const uint32_t args[SYSCALL_ARGS_MAX], int32_t ret);
};
void syscall_set_tracer(const struct syscall_tracer *tracer);
extern const struct syscall_tracer *volatile syscall_tracer;

/* Runs system call nr for the current process (from the int $0x80 trap, interrupts on);
 * returns what goes back to the program in EAX. */
int32_t syscall_dispatch(unsigned nr, const uint32_t args[SYSCALL_ARGS_MAX]);

#endif
