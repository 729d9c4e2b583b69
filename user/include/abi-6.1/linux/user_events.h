/*
 * abi-6.1/linux/user_events.h - Linux 6.1's user_events header (include/linux/
 * user_events.h of that tree, the pre-6.4 ABI): struct user_reg is the 20-byte status-page
 * registration, with status_bit, and there is no DIAG_IOCSUNREG. For programs written
 * against 6.1, such as its samples/user_events/example.c: they are built with
 * -Iuser/include/abi-6.1 ahead of -Iuser/include (see user/include/linux/user_events.h).
 * The kernel takes this structure by its size, 20 (uapi/user_events.h: struct
 * user_reg_status, the same layout).
 */
#ifndef _LINUX_USER_EVENTS_H
#define _LINUX_USER_EVENTS_H

#include <linux/ioctl.h>
#include <linux/types.h>
#include <sys/uio.h>

#define USER_EVENTS_SYSTEM "user_events"
#define USER_EVENTS_PREFIX "u:"

/* A __data_loc/__rel_loc field's value: size in the high half, offset in the low. */
#define DYN_LOC(offset, size) ((size) << 16 | (offset))

/* The registration: size and name_args in, status_bit and write_index out. */
struct user_reg {
    __u32 size;
    __u64 name_args;
    __u32 status_bit;
    __u32 write_index;
} __attribute__((__packed__));

#define DIAG_IOC_MAGIC '*'
#define DIAG_IOCSREG _IOWR(DIAG_IOC_MAGIC, 0, struct user_reg *)
#define DIAG_IOCSDEL _IOW(DIAG_IOC_MAGIC, 1, char *)

_Static_assert(sizeof(struct user_reg) == 20, "Linux 6.1's size");
_Static_assert(DIAG_IOCSREG == 0xc0042a00u, "the number the kernel takes");

#endif
