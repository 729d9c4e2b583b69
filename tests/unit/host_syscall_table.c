/* host_syscall_table.c - a system call table of three calls (write, getpid and the IPC
 * operation ipc_call in its slot), described as
 * kernel/syscall/syscall.c describes them, for host tests of code that reads the table. Apart from
 * the test files because uapi/syscall.h's struct timespec clashes with the host's libc. */
#include "kernel/syscall/syscall.h"

static const struct syscall_info host_write = { "write", 3, { "fd", "buf", "count" },
                                              { "unsigned int", "const char *", "size_t" }, 0 };
static const struct syscall_info host_getpid = { "getpid", 0, { 0 }, { 0 }, 0 };
static const struct syscall_info host_ipc_call = {
    "ipc_call", 4, { "ep", "msg", "reply", "timeout_ms" },
    { "int", "const struct ipc_msg *", "struct ipc_msg *", "unsigned int" }, 0
};

const struct syscall_info *syscall_info(unsigned slot)
{
    if (slot == SYSCALL_SLOT_IPC + IPC_OP_CALL)
        return &host_ipc_call;
    return slot == SYS_write ? &host_write : slot == SYS_getpid ? &host_getpid : 0;
}

/* The dispatcher's tracer slot: the tests read what trace_syscalls.c installed. */
const struct syscall_tracer *volatile syscall_tracer;
void syscall_set_tracer(const struct syscall_tracer *tracer) { syscall_tracer = tracer; }
