/* test_cred.c - Linux's rules for changing ids (kernel/sys.c) and its DAC check. */
#include "unit.h"

#include "kernel/proc/cred.h"
#include "kernel/lib/errno.h"

#define NC CRED_NO_CHANGE

static struct cred user(uint32_t id) { return (struct cred){ id, id, id, id, id, id, 0, { 0 } }; }

TEST(root_setuid_sets_all_three_and_cannot_come_back)
{
    struct cred c = CRED_ROOT;
    CHECK_EQ_INT(cred_setuid(&c, 1000), 0);
    CHECK(c.uid == 1000 && c.euid == 1000 && c.suid == 1000);
    CHECK_EQ_INT(cred_setuid(&c, 0), -EPERM);
    CHECK_EQ_INT(cred_setresuid(&c, 0, NC, NC), -EPERM);
    CHECK_EQ_INT(cred_setreuid(&c, NC, 0), -EPERM);
    CHECK(c.uid == 1000 && c.euid == 1000 && c.suid == 1000);
}

TEST(a_temporary_drop_keeps_the_saved_id)
{
    struct cred c = CRED_ROOT;
    CHECK_EQ_INT(cred_setresuid(&c, NC, 1000, NC), 0);
    CHECK(c.uid == 0 && c.euid == 1000 && c.suid == 0);
    CHECK(!cred_privileged(&c));
    CHECK_EQ_INT(cred_setresuid(&c, NC, 5, NC), -EPERM); /* not one of its own */
    CHECK_EQ_INT(cred_setuid(&c, 0), 0);                 /* 0 is its real id: euid only */
    CHECK(c.uid == 0 && c.euid == 0 && c.suid == 0);
}

TEST(minus_one_is_no_id)
{
    struct cred c = user(1000);
    CHECK_EQ_INT(cred_setuid(&c, NC), -EINVAL);
    CHECK_EQ_INT(cred_setgid(&c, NC), -EINVAL);
    CHECK_EQ_INT(cred_setresuid(&c, NC, NC, NC), 0);
    CHECK_EQ_INT(cred_setresgid(&c, NC, NC, NC), 0);
    CHECK(c.uid == 1000 && c.gid == 1000);
}

TEST(setreuid_moves_saved_id_as_linux)
{
    struct cred c = { 1000, 2000, 3000, 0, 0, 0, 0, { 0 } };
    CHECK_EQ_INT(cred_setreuid(&c, NC, 3000), 0); /* euid to the saved id, not the real */
    CHECK(c.uid == 1000 && c.euid == 3000 && c.suid == 3000);
    c = (struct cred){ 1000, 2000, 3000, 0, 0, 0, 0, { 0 } };
    CHECK_EQ_INT(cred_setreuid(&c, NC, 1000), 0); /* euid to the real id: saved stays */
    CHECK(c.euid == 1000 && c.suid == 3000);
    CHECK_EQ_INT(cred_setreuid(&c, 3000, NC), -EPERM); /* real only from real or effective */
    CHECK_EQ_INT(cred_setreuid(&c, 1000, NC), 0);      /* setting the real id sets saved */
    CHECK(c.suid == 1000);
}

TEST(unprivileged_setgid_and_setregid)
{
    struct cred c = { 1000, 1000, 1000, 100, 100, 200, 0, { 0 } };
    CHECK_EQ_INT(cred_setgid(&c, 0), -EPERM);
    CHECK_EQ_INT(cred_setgid(&c, 200), 0);
    CHECK(c.gid == 100 && c.egid == 200 && c.sgid == 200);
    CHECK_EQ_INT(cred_setregid(&c, NC, 0), -EPERM);
    CHECK_EQ_INT(cred_setresgid(&c, 0, NC, NC), -EPERM);
    CHECK(c.gid == 100 && c.egid == 200);
}

TEST(sixteen_bit_conversions)
{
    CHECK(cred_id_from16(0xffff) == CRED_NO_CHANGE);
    CHECK_EQ_INT(cred_id_from16(0xfffe), 0xfffe);
    CHECK_EQ_INT(cred_uid_to16(70000), 65534);
    CHECK_EQ_INT(cred_gid_to16(65535), 65535);
    CHECK_EQ_INT(cred_uid_to16(0), 0);
}

TEST(dac_owner_group_other_and_root)
{
    struct cred u = user(1000), root = CRED_ROOT;
    CHECK(!cred_may_access(&u, 0, 0, 0640, MAY_READ, false));
    CHECK(cred_may_access(&u, 0, 0, 0644, MAY_READ, false));
    CHECK(!cred_may_access(&u, 0, 0, 0644, MAY_WRITE, false));
    CHECK(cred_may_access(&u, 1000, 0, 0600, MAY_READ | MAY_WRITE, false));
    /* The owner's bits decide for the owner, even when others have more. */
    CHECK(!cred_may_access(&u, 1000, 0, 0066, MAY_READ, false));
    CHECK(cred_may_access(&u, 0, 1000, 0060, MAY_WRITE, false));
    CHECK(!cred_may_access(&u, 0, 20, 0660, MAY_WRITE, false)); /* dialout, not ours */
    CHECK(!cred_may_access(&u, 0, 0, 0750, MAY_EXEC, true));
    CHECK(cred_may_access(&root, 1000, 1000, 0000, MAY_READ | MAY_WRITE, false));
    CHECK(cred_may_access(&root, 0, 0, 0000, MAY_EXEC, true));
    CHECK(!cred_may_access(&root, 0, 0, 0644, MAY_EXEC, false)); /* no x bit anywhere */
}

TEST(setgroups_only_root_sorted_and_bounded_as_linux)
{
    struct cred u = user(1000), root = CRED_ROOT;
    uint32_t three[3] = { 27, 4, 100 };
    CHECK_EQ_INT(cred_setgroups(&u, three, 3), -EPERM);
    CHECK_EQ_INT(u.ngroups, 0);
    CHECK_EQ_INT(cred_setgroups(&root, three, NGROUPS_MAX + 1), -EINVAL);
    CHECK_EQ_INT(cred_setgroups(&root, three, CRED_GROUPS_KEPT + 1), -ENOMEM);
    uint32_t bad[2] = { 5, CRED_NO_CHANGE };
    CHECK_EQ_INT(cred_setgroups(&root, bad, 2), -EINVAL);
    CHECK_EQ_INT(root.ngroups, 0);
    CHECK_EQ_INT(cred_setgroups(&root, three, 3), 0);
    CHECK(root.ngroups == 3 && root.groups[0] == 4 && root.groups[1] == 27 && root.groups[2] == 100);
    CHECK_EQ_INT(cred_setgroups(&root, three, 0), 0);
    CHECK_EQ_INT(root.ngroups, 0);
}

TEST(a_supplementary_group_opens_the_group_bits)
{
    struct cred root = CRED_ROOT;
    uint32_t dialout = GID_DIALOUT;
    CHECK_EQ_INT(cred_setgroups(&root, &dialout, 1), 0);
    struct cred u = root; /* what a program started by root then made uid 1000 keeps */
    CHECK_EQ_INT(cred_setresgid(&u, 1000, 1000, 1000), 0);
    CHECK_EQ_INT(cred_setresuid(&u, 1000, 1000, 1000), 0);
    CHECK(cred_in_group(&u, GID_DIALOUT) && cred_in_group(&u, 1000) && !cred_in_group(&u, 0));
    CHECK(cred_may_access(&u, 0, GID_DIALOUT, 0660, MAY_READ | MAY_WRITE, false));
    CHECK(!cred_may_access(&u, 0, 0, 0660, MAY_READ, false));
}
