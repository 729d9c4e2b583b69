/*
 * sys/types.h - the POSIX types the system call wrappers take and return (i386 sizes).
 */
#ifndef _SYS_TYPES_H
#define _SYS_TYPES_H

#include <stddef.h>
#include <stdint.h>

typedef int ssize_t;
typedef long off_t;
typedef int pid_t;
typedef unsigned int uid_t;
typedef unsigned int gid_t;
typedef unsigned int useconds_t;
typedef int clockid_t;
typedef long time_t;
typedef unsigned int mode_t;

#endif
