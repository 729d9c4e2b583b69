/*
 * sys/ioctl.h - ioctl(), the device-specific control call (user_events registers with it).
 */
#ifndef _SYS_IOCTL_H
#define _SYS_IOCTL_H

/* Issues request on fd with one argument (a pointer or an integer); returns the kernel's
 * non-negative result, or -1 with errno set. */
int ioctl(int fd, unsigned long request, ...);

#endif
