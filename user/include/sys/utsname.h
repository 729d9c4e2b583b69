/*
 * sys/utsname.h - uname(2): the kernel's name, release and machine (struct utsname is
 * Linux's struct new_utsname, uapi/syscall.h). Returns 0, or -1 with errno (EFAULT).
 */
#ifndef _SYS_UTSNAME_H
#define _SYS_UTSNAME_H

#include "uapi/syscall.h"

int uname(struct utsname *buf);

#endif
