/*
 * linux/types.h - the fixed-size types of Linux's user-space headers (include/uapi/
 * linux/types.h and asm-generic/int-ll64.h): __u8 .. __u64, __s8 .. __s64, and the
 * byte-order-tagged __le16 .. __be64 (plain integers here, as without sparse).
 */
#ifndef _LINUX_TYPES_H
#define _LINUX_TYPES_H

typedef signed char __s8;
typedef unsigned char __u8;
typedef signed short __s16;
typedef unsigned short __u16;
typedef signed int __s32;
typedef unsigned int __u32;
typedef signed long long __s64;
typedef unsigned long long __u64;

typedef __u16 __le16;
typedef __u16 __be16;
typedef __u32 __le32;
typedef __u32 __be32;
typedef __u64 __le64;
typedef __u64 __be64;
typedef __u16 __sum16;
typedef __u32 __wsum;

#endif
