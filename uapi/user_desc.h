/*
 * uapi/user_desc.h - struct user_desc, the argument of set_thread_area and get_thread_area,
 * as Linux's <asm/ldt.h> has it on i386.
 */
#ifndef UAPI_USER_DESC_H
#define UAPI_USER_DESC_H

struct user_desc {
    unsigned int entry_number; /* GDT slot 6..8, or -1: the kernel picks a free one */
    unsigned int base_addr;
    unsigned int limit;
    unsigned int seg_32bit : 1;
    unsigned int contents : 2;       /* 0 data, 1 data growing down (2, 3: code, refused) */
    unsigned int read_exec_only : 1;
    unsigned int limit_in_pages : 1;
    unsigned int seg_not_present : 1;
    unsigned int useable : 1;
};

#endif
