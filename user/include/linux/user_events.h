/*
 * linux/user_events.h - Linux 6.4+'s user_events header for programs written for Linux:
 * struct user_reg (enable_bit, enable_size, flags, enable_addr, name_args, write_index),
 * struct user_unreg, DIAG_IOCSREG / DIAG_IOCSDEL / DIAG_IOCSUNREG, USER_EVENT_REG_PERSIST,
 * DYN_LOC. The definitions are the kernel's own (uapi/user_events.h, which also has
 * tracekern's name for the pre-6.4 structure, struct user_reg_status); this header adds
 * what Linux's brings along: the __u32/__u64 types, the _IOC macros and struct iovec with
 * writev.
 *
 * A program written for the pre-6.4 ABI, whose struct user_reg has status_bit (Linux 6.1's
 * samples/user_events/example.c), finds Linux 6.1's header instead with
 * -Iuser/include/abi-6.1 before -Iuser/include: on Linux too the header a program gets is
 * that of the kernel tree it is built against (6.1's include/linux/user_events.h or
 * 6.4's include/uapi/linux/user_events.h), and the two define struct user_reg differently.
 */
#ifndef _LINUX_USER_EVENTS_H
#define _LINUX_USER_EVENTS_H

#include <linux/ioctl.h>
#include <linux/types.h>
#include <sys/uio.h>

#include "uapi/user_events.h"

_Static_assert(DIAG_IOCSREG == _IOWR(DIAG_IOC_MAGIC, 0, struct user_reg *), "Linux's number");
_Static_assert(DIAG_IOCSDEL == _IOW(DIAG_IOC_MAGIC, 1, char *), "Linux's number");
_Static_assert(DIAG_IOCSUNREG == _IOW(DIAG_IOC_MAGIC, 2, struct user_unreg *), "Linux's number");

#endif
