/* test_mounts.c - /proc/mounts's lines and the mount a node belongs to (kernel/fs/mounts.c),
 * on a tree with /proc but no /dev. */
#include "unit.h"

#include <string.h>

#include "collect_writer.h"
#include "kernel/fs/fs_tree.h"
#include "kernel/fs/mounts.h"

static int read_nothing(struct fs_node *f, struct fs_writer *out)
{
    (void)f;
    (void)out;
    return 0;
}
static const struct fs_file_ops file_ops = { .read = read_nothing };

TEST(a_mount_is_listed_only_where_its_directory_is)
{
    fs_mkdir_path("proc/1");
    struct fs_writer w = collect_writer;
    collect_reset();
    CHECK_EQ_INT(mounts_read(0, &w), 0);
    CHECK(strstr(collected, "proc /proc proc rw,nosuid,nodev,noexec,relatime 0 0\n") != NULL);
    CHECK(strstr(collected, "rootfs / rootfs ro 0 0\n") == collected); /* the first line */
    CHECK(strstr(collected, "devtmpfs") == NULL); /* no /dev in this tree */
}

TEST(a_node_belongs_to_the_deepest_mount_above_it)
{
    struct fs_node *pid_dir = fs_mkdir_path("proc/1");
    struct fs_node *stat = fs_create(pid_dir, "stat", &file_ops, 0);
    CHECK(stat != NULL);
    const struct mount *m = mount_of(stat);
    CHECK_EQ_STR(m->type, "proc");
    CHECK_EQ_INT(m->magic, 0x9fa0);
    CHECK(m->st_flags & ST_NOEXEC);
    CHECK_EQ_STR(mount_of(fs_lookup("/proc", &(int){ 0 }))->type, "proc");
}

TEST(a_node_outside_the_tree_is_pipefs)
{
    struct fs_node pipe_node = { .name = "pipe" }; /* as kernel/fs/pipe.c makes one */
    const struct mount *m = mount_of(&pipe_node);
    CHECK_EQ_STR(m->type, "pipefs");
    CHECK_EQ_INT(m->magic, 0x50495045);
}
