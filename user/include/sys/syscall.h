/*
 * sys/syscall.h - the system call numbers (SYS_*), for syscall(), as on Linux.
 */
#ifndef _SYS_SYSCALL_H
#define _SYS_SYSCALL_H

#include "uapi/syscall.h"

#endif
