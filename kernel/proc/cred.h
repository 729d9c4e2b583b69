/*
 * cred.h - who a task is: Linux's real, effective and saved user and group ids, and the
 * rules by which a task may change them and reach a file.
 *
 * A task's credentials are copied into what it starts (kernel/proc/task.c); kernel threads and
 * the console shell are root. "Privileged" means effective uid 0: with no file
 * capabilities, Linux's CAP_SETUID, CAP_SETGID, CAP_DAC_OVERRIDE and CAP_DAC_READ_SEARCH are
 * in the effective set exactly when the effective uid is 0 (cap_emulate_setxuid), so that
 * one test gives Linux's answers. There is no setfsuid here, so file access uses the
 * effective ids, which is what Linux's fsuid/fsgid then equal. Supplementary groups are
 * Linux's: set only by a privileged task (setgroups), kept sorted, and a file's group bits
 * apply to a task whose effective gid or any supplementary group is the file's group
 * (in_group_p). A task keeps up to CRED_GROUPS_KEPT of them: a longer list, up to Linux's
 * NGROUPS_MAX, is ENOMEM (what Linux says when it cannot allocate the list).
 * Portable (no kernel state): tests/unit/test_cred.c.
 */
#ifndef KERNEL_PROC_CRED_H
#define KERNEL_PROC_CRED_H

#include <stdbool.h>
#include <stdint.h>

#define CRED_NO_CHANGE 0xffffffffu /* (uid_t)-1: "leave this id" in set*id, else invalid */
#define OVERFLOW_UID 65534u        /* what a 16-bit call shows for an id above 0xffff */
#define OVERFLOW_GID 65534u
#define GID_DIALOUT 20u            /* Debian's group of the serial ports */
#define NGROUPS_MAX 65536u         /* Linux's bound on a setgroups list (EINVAL above) */
#define CRED_GROUPS_KEPT 32u       /* supplementary groups a task can hold (ENOMEM above) */

struct cred {
    uint32_t uid, euid, suid; /* real, effective, saved user id */
    uint32_t gid, egid, sgid; /* the same for the group */
    uint32_t ngroups;         /* supplementary groups, sorted ascending */
    uint32_t groups[CRED_GROUPS_KEPT];
};

/* Root's credentials: every id 0, no supplementary groups. */
#define CRED_ROOT ((struct cred){ 0, 0, 0, 0, 0, 0, 0, { 0 } })

/* setgroups's rule: only a privileged task (-EPERM), at most NGROUPS_MAX (-EINVAL), no
 * (gid_t)-1 among them (-EINVAL), at most CRED_GROUPS_KEPT (-ENOMEM); the list is kept
 * sorted as Linux's groups_sort leaves it. On an error *c is unchanged. */
int cred_setgroups(struct cred *c, const uint32_t *groups, uint32_t count);

/* Linux's in_group_p: whether gid is the effective gid or a supplementary group. */
static inline bool cred_in_group(const struct cred *c, uint32_t gid)
{
    if (c->egid == gid)
        return true;
    for (uint32_t i = 0; i < c->ngroups && i < CRED_GROUPS_KEPT; i++)
        if (c->groups[i] == gid)
            return true;
    return false;
}

static inline bool cred_privileged(const struct cred *c) { return c->euid == 0; }

/* The changes of Linux's kernel/sys.c, applied to *c: 0, -EINVAL (an id of -1 where one is
 * required) or -EPERM (an unprivileged task asking for an id that is none of its own);
 * on an error *c is unchanged. */
int cred_setuid(struct cred *c, uint32_t uid);
int cred_setgid(struct cred *c, uint32_t gid);
int cred_setreuid(struct cred *c, uint32_t ruid, uint32_t euid);
int cred_setregid(struct cred *c, uint32_t rgid, uint32_t egid);
int cred_setresuid(struct cred *c, uint32_t ruid, uint32_t euid, uint32_t suid);
int cred_setresgid(struct cred *c, uint32_t rgid, uint32_t egid, uint32_t sgid);

/* The 16-bit calls' conversions (Linux's low2highuid/high2lowuid): 0xffff is -1 going in;
 * an id above 0xffff comes out as the overflow id. */
static inline uint32_t cred_id_from16(uint16_t id) { return id == 0xffff ? CRED_NO_CHANGE : id; }
static inline uint16_t cred_uid_to16(uint32_t id) { return id > 0xffff ? OVERFLOW_UID : (uint16_t)id; }
static inline uint16_t cred_gid_to16(uint32_t id) { return id > 0xffff ? OVERFLOW_GID : (uint16_t)id; }

/* What an access asks for, as Linux's MAY_* bits (the same as the mode's rwx bits). */
#define MAY_EXEC 1
#define MAY_WRITE 2
#define MAY_READ 4

/* Linux's DAC check (generic_permission): the owner's bits for the owner, else the group's
 * for a member of the group (cred_in_group), else the others'; a privileged task may read and write anything and
 * search any directory (CAP_DAC_OVERRIDE), but execute a file only if some x bit is set.
 * True when allowed. Inline so that the file tree (kernel/fs/fs_tree.c) needs no other file. */
static inline bool cred_may_access(const struct cred *c, uint32_t uid, uint32_t gid,
                                   uint16_t mode, int want, bool is_dir)
{
    want &= MAY_READ | MAY_WRITE | MAY_EXEC;
    unsigned bits = c->euid == uid ? (mode >> 6) & 7u : cred_in_group(c, gid) ? (mode >> 3) & 7u : mode & 7u;
    if ((want & ~bits) == 0)
        return true;
    return cred_privileged(c) && (!(want & MAY_EXEC) || is_dir || (mode & 0111));
}

#endif
