/*
 * uapi/user_events.h - registering and deleting user_events through ioctl() on
 * user_events_data (Linux's include/uapi/linux/user_events.h, both generations).
 *
 * DIAG_IOCSREG takes either struct user_reg_status (size 20: the status-page ABI of Linux
 * before 6.4, Documentation/trace/user_events.rst of that time, which answers
 * with a bit of the mmap-ed user_events_status page) or struct user_reg (size 28 or more:
 * Linux 6.4's ABI, where the kernel itself sets and clears enable_bit at enable_addr in the
 * registering process, with Linux 6.6's USER_EVENT_REG_PERSIST flag). The size field tells
 * them apart; any other size is EINVAL. An event registered with the pre-6.4 structure has
 * no flags: it is deleted with its last reference, as any event without PERSIST.
 */
#ifndef UAPI_USER_EVENTS_H
#define UAPI_USER_EVENTS_H

#include <stdint.h>

#define USER_EVENTS_SYSTEM "user_events" /* the events/ directory every user event is in */
#define USER_EVENTS_PREFIX "u:"          /* what dynamic_events commands for them start with */

/* A __data_loc/__rel_loc field's value: the data's size in the high half, its offset (from
 * the record's start, or from the end of the field for __rel_loc) in the low half. */
#define DYN_LOC(offset, size) ((uint32_t)(size) << 16 | (uint32_t)(offset))

/* _IOWR / _IOW of Linux, with a pointer as the argument type (4 bytes on i386). */
#define DIAG_IOC_MAGIC '*'
#define UE_IOC(dir, nr) (((uint32_t)(dir) << 30) | (4u << 16) | (DIAG_IOC_MAGIC << 8) | (nr))
#define DIAG_IOCSREG UE_IOC(3, 0)   /* 0xc0042a00 */
#define DIAG_IOCSDEL UE_IOC(1, 1)   /* 0x40042a01 */
#define DIAG_IOCSUNREG UE_IOC(1, 2) /* 0x40042a02 */

/* The pre-6.4 registration (Linux's struct user_reg before 6.4): the answer is a status bit
 * and a write index. */
struct user_reg_status {
    uint32_t size;        /* in: sizeof(struct user_reg_status) == 20 */
    uint64_t name_args;   /* in: address of "name[:flags] [field[;field...]]" */
    uint32_t status_bit;  /* out: bit of the user_events_status page */
    uint32_t write_index; /* out: first 4 bytes of every write() for this event */
} __attribute__((packed));

/* struct user_reg's flags, as Linux 6.6 defines them. Without USER_EVENT_REG_PERSIST an
 * event is deleted when its last reference goes (the last user_events_data that registered
 * it closes, its last enable bit is unregistered or its process exits, it is disabled, the
 * last of its events/ files is closed); with it, the event stays until it is deleted. The
 * flag counts only when the registration creates the event. Any other bit is EINVAL. */
enum user_reg_flag {
    USER_EVENT_REG_PERSIST = 1u << 0,
    USER_EVENT_REG_MAX = 1u << 1, /* one past the last flag */
};

/* Linux 6.4+: the kernel keeps enable_bit of the enable_size-byte word at enable_addr equal
 * to "someone is listening". */
struct user_reg {
    uint32_t size;        /* in: sizeof(struct user_reg) == 28 */
    uint8_t enable_bit;   /* in: bit number within the word */
    uint8_t enable_size;  /* in: 4 (8 is for 64-bit processes) */
    uint16_t flags;       /* in: 0 or USER_EVENT_REG_PERSIST (Linux 6.6) */
    uint64_t enable_addr; /* in: the word, aligned to enable_size, writable */
    uint64_t name_args;   /* in: address of the command string */
    uint32_t write_index; /* out */
} __attribute__((packed));

/* Linux 6.4+: stop updating a bit registered with struct user_reg. */
struct user_unreg {
    uint32_t size;        /* in: sizeof(struct user_unreg) == 16 */
    uint8_t disable_bit;  /* in: the enable_bit given at registration */
    uint8_t __reserved;   /* must be 0 (Linux's names, so its programs compile) */
    uint16_t __reserved2; /* must be 0 */
    uint64_t disable_addr; /* in: the enable_addr given at registration */
} __attribute__((packed));

_Static_assert(sizeof(struct user_reg_status) == 20, "seed ABI size");
_Static_assert(sizeof(struct user_reg) == 28, "Linux 6.4 ABI size");
_Static_assert(sizeof(struct user_unreg) == 16, "Linux 6.4 ABI size");

#define USER_EVENTS_MAX_DESC 512 /* longest command string, NUL included (Linux: MAX_EVENT_DESC) */

#endif
