/*
 * sys_cred.c - the system calls on a process's user and group ids, with Linux's i386
 * numbers and handler names: the 16-bit calls of the original ABI (getuid16 ...), which
 * take and give old_uid_t (16 bits; -1 is 0xffff, an id above 0xffff shows as 65534), and
 * the 32-bit ones (getuid32 is sys_getuid ...) that libc uses. The rules are kernel/proc/cred.c's.
 */
#include "kernel/proc/cred.h"
#include "kernel/lib/errno.h"
#include "kernel/proc/task_internal.h"
#include "kernel/syscall/syscall_handlers.h"
#include "kernel/mm/uaccess.h"

SYSCALL_HANDLER(getuid) { (void)a; return (int32_t)current->cred.uid; }
SYSCALL_HANDLER(geteuid) { (void)a; return (int32_t)current->cred.euid; }
SYSCALL_HANDLER(getgid) { (void)a; return (int32_t)current->cred.gid; }
SYSCALL_HANDLER(getegid) { (void)a; return (int32_t)current->cred.egid; }
SYSCALL_HANDLER(getuid16) { (void)a; return cred_uid_to16(current->cred.uid); }
SYSCALL_HANDLER(geteuid16) { (void)a; return cred_uid_to16(current->cred.euid); }
SYSCALL_HANDLER(getgid16) { (void)a; return cred_gid_to16(current->cred.gid); }
SYSCALL_HANDLER(getegid16) { (void)a; return cred_gid_to16(current->cred.egid); }

SYSCALL_HANDLER(setuid) { return cred_setuid(&current->cred, a[0]); }
SYSCALL_HANDLER(setgid) { return cred_setgid(&current->cred, a[0]); }
SYSCALL_HANDLER(setreuid) { return cred_setreuid(&current->cred, a[0], a[1]); }
SYSCALL_HANDLER(setregid) { return cred_setregid(&current->cred, a[0], a[1]); }
SYSCALL_HANDLER(setresuid) { return cred_setresuid(&current->cred, a[0], a[1], a[2]); }
SYSCALL_HANDLER(setresgid) { return cred_setresgid(&current->cred, a[0], a[1], a[2]); }

/* The 16-bit set calls see only the low 16 bits of each argument, as Linux's old_uid_t
 * parameters do, and 0xffff means -1. */
#define ID16(i) cred_id_from16((uint16_t)a[i])
SYSCALL_HANDLER(setuid16) { return cred_setuid(&current->cred, ID16(0)); }
SYSCALL_HANDLER(setgid16) { return cred_setgid(&current->cred, ID16(0)); }
SYSCALL_HANDLER(setreuid16) { return cred_setreuid(&current->cred, ID16(0), ID16(1)); }
SYSCALL_HANDLER(setregid16) { return cred_setregid(&current->cred, ID16(0), ID16(1)); }
SYSCALL_HANDLER(setresuid16) { return cred_setresuid(&current->cred, ID16(0), ID16(1), ID16(2)); }
SYSCALL_HANDLER(setresgid16) { return cred_setresgid(&current->cred, ID16(0), ID16(1), ID16(2)); }

/* Stores three ids at three user addresses of size bytes each, in order, stopping at the
 * first that faults (-EFAULT), as Linux's put_user sequence: the ones before it are
 * written. */
static int32_t put_three(const uint32_t user[3], const uint32_t ids[3], uint32_t size)
{
    for (int i = 0; i < 3; i++) {
        uint16_t id16 = (uint16_t)ids[i];
        const void *from = size == 2 ? (const void *)&id16 : (const void *)&ids[i];
        if (copy_to_user(user[i], from, size))
            return -EFAULT;
    }
    return 0;
}

SYSCALL_HANDLER(getresuid)
{
    const struct cred *c = &current->cred;
    return put_three(a, (const uint32_t[3]){ c->uid, c->euid, c->suid }, 4);
}

SYSCALL_HANDLER(getresgid)
{
    const struct cred *c = &current->cred;
    return put_three(a, (const uint32_t[3]){ c->gid, c->egid, c->sgid }, 4);
}

SYSCALL_HANDLER(getresuid16)
{
    const struct cred *c = &current->cred;
    return put_three(a, (const uint32_t[3]){ cred_uid_to16(c->uid), cred_uid_to16(c->euid),
                                             cred_uid_to16(c->suid) }, 2);
}

SYSCALL_HANDLER(getresgid16)
{
    const struct cred *c = &current->cred;
    return put_three(a, (const uint32_t[3]){ cred_gid_to16(c->gid), cred_gid_to16(c->egid),
                                             cred_gid_to16(c->sgid) }, 2);
}

/* Supplementary groups (issue 16: busybox's id lists them). getgroups and setgroups pass
 * each id in width bytes: 2 for the 16-bit calls (old_gid_t), 4 for the 32-bit ones. */

/* getgroups: size 0 asks only for the count; a list smaller than the count is EINVAL, as
 * is a negative size; an unwritable list is EFAULT. Returns the count. */
static int32_t get_groups(int32_t size, uint32_t list, uint32_t width)
{
    const struct cred *c = &current->cred;
    if (size < 0)
        return -EINVAL;
    if (size == 0)
        return (int32_t)c->ngroups;
    if ((uint32_t)size < c->ngroups)
        return -EINVAL;
    for (uint32_t i = 0; i < c->ngroups; i++) {
        uint32_t id = width == 2 ? cred_gid_to16(c->groups[i]) : c->groups[i];
        if (copy_to_user(list + i * width, &id, width)) /* little-endian: low bytes first */
            return -EFAULT;
    }
    return (int32_t)c->ngroups;
}

/* setgroups: Linux's order of refusals, privilege (EPERM) and size (EINVAL; a negative
 * size is a huge one) before the list is read (EFAULT); the rest is cred_setgroups's. */
static int32_t set_groups(int32_t size, uint32_t list, uint32_t width)
{
    struct cred *c = &current->cred;
    if (!cred_privileged(c))
        return -EPERM;
    if ((uint32_t)size > NGROUPS_MAX)
        return -EINVAL;
    if ((uint32_t)size > CRED_GROUPS_KEPT)
        return -ENOMEM;
    uint32_t ids[CRED_GROUPS_KEPT];
    for (uint32_t i = 0; i < (uint32_t)size; i++) {
        uint32_t id = 0;
        if (copy_from_user(&id, list + i * width, width))
            return -EFAULT;
        ids[i] = width == 2 ? cred_id_from16((uint16_t)id) : id;
    }
    return cred_setgroups(c, ids, (uint32_t)size);
}

SYSCALL_HANDLER(getgroups) { return get_groups((int32_t)a[0], a[1], 4); }
SYSCALL_HANDLER(setgroups) { return set_groups((int32_t)a[0], a[1], 4); }
SYSCALL_HANDLER(getgroups16) { return get_groups((int32_t)a[0], a[1], 2); }
SYSCALL_HANDLER(setgroups16) { return set_groups((int32_t)a[0], a[1], 2); }
