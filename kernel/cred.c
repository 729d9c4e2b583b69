/*
 * cred.c - Linux's rules for changing a task's ids (kernel/sys.c) and for reaching a file
 * with them (fs/namei.c), on a struct cred and nothing else.
 */
#include "kernel/cred.h"

#include "kernel/errno.h"

/* Whether id is one of the three (an unprivileged task may move only among its own). */
static bool one_of(uint32_t id, uint32_t a, uint32_t b, uint32_t c)
{
    return id == a || id == b || id == c;
}

/* setuid: root sets all three ids; anyone else may set the effective id to its real or
 * saved one. -1 is not an id (EINVAL). */
int cred_setuid(struct cred *c, uint32_t uid)
{
    if (uid == CRED_NO_CHANGE)
        return -EINVAL;
    if (cred_privileged(c))
        c->uid = c->suid = c->euid = uid;
    else if (uid == c->uid || uid == c->suid)
        c->euid = uid;
    else
        return -EPERM;
    return 0;
}

int cred_setgid(struct cred *c, uint32_t gid)
{
    if (gid == CRED_NO_CHANGE)
        return -EINVAL;
    if (cred_privileged(c))
        c->gid = c->sgid = c->egid = gid;
    else if (gid == c->gid || gid == c->sgid)
        c->egid = gid;
    else
        return -EPERM;
    return 0;
}

/* setreuid: the real id may become the real or effective one, the effective id any of the
 * three; the saved id follows the new effective id when the real id is set, or when the
 * effective id is set to something other than the old real id (as Linux). */
int cred_setreuid(struct cred *c, uint32_t ruid, uint32_t euid)
{
    bool priv = cred_privileged(c);
    if (ruid != CRED_NO_CHANGE && !priv && !one_of(ruid, c->uid, c->euid, c->euid))
        return -EPERM;
    if (euid != CRED_NO_CHANGE && !priv && !one_of(euid, c->uid, c->euid, c->suid))
        return -EPERM;
    uint32_t old_ruid = c->uid;
    if (ruid != CRED_NO_CHANGE)
        c->uid = ruid;
    if (euid != CRED_NO_CHANGE)
        c->euid = euid;
    if (ruid != CRED_NO_CHANGE || (euid != CRED_NO_CHANGE && euid != old_ruid))
        c->suid = c->euid;
    return 0;
}

int cred_setregid(struct cred *c, uint32_t rgid, uint32_t egid)
{
    bool priv = cred_privileged(c);
    if (rgid != CRED_NO_CHANGE && !priv && !one_of(rgid, c->gid, c->egid, c->egid))
        return -EPERM;
    if (egid != CRED_NO_CHANGE && !priv && !one_of(egid, c->gid, c->egid, c->sgid))
        return -EPERM;
    uint32_t old_rgid = c->gid;
    if (rgid != CRED_NO_CHANGE)
        c->gid = rgid;
    if (egid != CRED_NO_CHANGE)
        c->egid = egid;
    if (rgid != CRED_NO_CHANGE || (egid != CRED_NO_CHANGE && egid != old_rgid))
        c->sgid = c->egid;
    return 0;
}

/* setresuid/setresgid: each id given (not -1) must be one of the three old ones unless the
 * task is privileged; all are checked before any changes. */
static int set_three(uint32_t ids[3], const uint32_t want[3], bool priv)
{
    for (int i = 0; i < 3; i++)
        if (want[i] != CRED_NO_CHANGE && !priv && !one_of(want[i], ids[0], ids[1], ids[2]))
            return -EPERM;
    for (int i = 0; i < 3; i++)
        if (want[i] != CRED_NO_CHANGE)
            ids[i] = want[i];
    return 0;
}

int cred_setresuid(struct cred *c, uint32_t ruid, uint32_t euid, uint32_t suid)
{
    uint32_t ids[3] = { c->uid, c->euid, c->suid }, want[3] = { ruid, euid, suid };
    int err = set_three(ids, want, cred_privileged(c));
    if (!err) {
        c->uid = ids[0];
        c->euid = ids[1];
        c->suid = ids[2];
    }
    return err;
}

int cred_setresgid(struct cred *c, uint32_t rgid, uint32_t egid, uint32_t sgid)
{
    uint32_t ids[3] = { c->gid, c->egid, c->sgid }, want[3] = { rgid, egid, sgid };
    int err = set_three(ids, want, cred_privileged(c));
    if (!err) {
        c->gid = ids[0];
        c->egid = ids[1];
        c->sgid = ids[2];
    }
    return err;
}
