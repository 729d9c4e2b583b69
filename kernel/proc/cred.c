/*
 * cred.c - Linux's rules for changing a task's ids (kernel/sys.c) and for reaching a file
 * with them (fs/namei.c), on a struct cred and nothing else.
 */
#include "kernel/proc/cred.h"

#include "kernel/lib/errno.h"

/* Whether id is one of the three (an unprivileged task may move only among its own). */
static bool one_of(uint32_t id, uint32_t a, uint32_t b, uint32_t c)
{
    return id == a || id == b || id == c;
}

/* The real, effective and saved ids of one kind, user or group: Linux applies the same
 * rules to both, so each rule below is written once, over this. */
struct ids {
    uint32_t *real, *eff, *saved;
};
static struct ids user_ids(struct cred *c) { return (struct ids){ &c->uid, &c->euid, &c->suid }; }
static struct ids group_ids(struct cred *c) { return (struct ids){ &c->gid, &c->egid, &c->sgid }; }

/* setuid/setgid: a privileged task sets all three ids; any other may set the effective id
 * to its real or saved one. -1 is not an id (EINVAL). priv is asked of the old ids. */
static int set_id(struct ids ids, bool priv, uint32_t id)
{
    if (id == CRED_NO_CHANGE)
        return -EINVAL;
    if (priv)
        *ids.real = *ids.saved = *ids.eff = id;
    else if (id == *ids.real || id == *ids.saved)
        *ids.eff = id;
    else
        return -EPERM;
    return 0;
}

/* setreuid/setregid: the real id may become the real or effective one, the effective id
 * any of the three; the saved id follows the new effective id when the real id is set, or
 * when the effective id is set to something other than the old real id (as Linux). */
static int set_re(struct ids ids, bool priv, uint32_t real, uint32_t eff)
{
    if (real != CRED_NO_CHANGE && !priv && !one_of(real, *ids.real, *ids.eff, *ids.eff))
        return -EPERM;
    if (eff != CRED_NO_CHANGE && !priv && !one_of(eff, *ids.real, *ids.eff, *ids.saved))
        return -EPERM;
    uint32_t old_real = *ids.real;
    if (real != CRED_NO_CHANGE)
        *ids.real = real;
    if (eff != CRED_NO_CHANGE)
        *ids.eff = eff;
    if (real != CRED_NO_CHANGE || (eff != CRED_NO_CHANGE && eff != old_real))
        *ids.saved = *ids.eff;
    return 0;
}

/* setresuid/setresgid: each id given (not -1) must be one of the three old ones unless the
 * task is privileged; all are checked before any changes. */
static int set_res(struct ids ids, bool priv, uint32_t real, uint32_t eff, uint32_t saved)
{
    uint32_t *slot[3] = { ids.real, ids.eff, ids.saved }, want[3] = { real, eff, saved };
    for (int i = 0; i < 3; i++)
        if (want[i] != CRED_NO_CHANGE && !priv && !one_of(want[i], *ids.real, *ids.eff, *ids.saved))
            return -EPERM;
    for (int i = 0; i < 3; i++)
        if (want[i] != CRED_NO_CHANGE)
            *slot[i] = want[i];
    return 0;
}

int cred_setuid(struct cred *c, uint32_t uid) { return set_id(user_ids(c), cred_privileged(c), uid); }
int cred_setgid(struct cred *c, uint32_t gid) { return set_id(group_ids(c), cred_privileged(c), gid); }

int cred_setreuid(struct cred *c, uint32_t ruid, uint32_t euid)
{
    return set_re(user_ids(c), cred_privileged(c), ruid, euid);
}

int cred_setregid(struct cred *c, uint32_t rgid, uint32_t egid)
{
    return set_re(group_ids(c), cred_privileged(c), rgid, egid);
}

int cred_setresuid(struct cred *c, uint32_t ruid, uint32_t euid, uint32_t suid)
{
    return set_res(user_ids(c), cred_privileged(c), ruid, euid, suid);
}

int cred_setresgid(struct cred *c, uint32_t rgid, uint32_t egid, uint32_t sgid)
{
    return set_res(group_ids(c), cred_privileged(c), rgid, egid, sgid);
}

/* Sorts n ids ascending (insertion sort: n is at most CRED_GROUPS_KEPT). */
static void sort_ids(uint32_t *ids, uint32_t n)
{
    for (uint32_t i = 1; i < n; i++) {
        uint32_t id = ids[i], j = i;
        for (; j > 0 && ids[j - 1] > id; j--)
            ids[j] = ids[j - 1];
        ids[j] = id;
    }
}

int cred_setgroups(struct cred *c, const uint32_t *groups, uint32_t count)
{
    if (!cred_privileged(c))
        return -EPERM;
    if (count > NGROUPS_MAX)
        return -EINVAL;
    if (count > CRED_GROUPS_KEPT)
        return -ENOMEM;
    uint32_t sorted[CRED_GROUPS_KEPT];
    for (uint32_t i = 0; i < count; i++) {
        if (groups[i] == CRED_NO_CHANGE)
            return -EINVAL;
        sorted[i] = groups[i];
    }
    sort_ids(sorted, count);
    for (uint32_t i = 0; i < count; i++)
        c->groups[i] = sorted[i];
    c->ngroups = count;
    return 0;
}
