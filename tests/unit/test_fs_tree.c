/* test_fs_tree.c - the file tree: creation rules, Linux's layout (tracefs, debugfs and
 * their links), lookup, paths, default modes and permission checks. */
#include "unit.h"

#include "collect_writer.h"
#include "kernel/proc/cred.h"
#include "kernel/lib/errno.h"
#include "kernel/fs/fs_layout.h"
#include "kernel/fs/fs_tree.h"
#include "kernel/mm/heap.h"

static int read_hello(struct fs_node *f, struct fs_writer *out)
{
    (void)f;
    fs_printf(out, "hello %d\n", 42);
    return 0;
}
static const struct fs_file_ops hello_ops = { .read = read_hello };


TEST(create_and_lookup)
{
    struct fs_node *events = fs_mkdir_at(tracefs_root(), "events/user_events");
    CHECK(events != NULL);
    struct fs_node *f = fs_create(events, "enable", &hello_ops, NULL);
    CHECK(f != NULL);
    int err = 0;
    CHECK(fs_lookup("/sys/kernel/tracing/events/user_events/enable", &err) == f);
    CHECK(fs_lookup("sys/kernel/tracing/events/user_events/enable", &err) == f);
    CHECK(tracefs_lookup("events/user_events/enable", &err) == f);
    CHECK(fs_resolve(tracefs_root(), "events//user_events/./enable", NULL, 0, &err) == f);
    CHECK(fs_lookup("..", &err) == fs_root());
    /* The tracing files are in tracefs only: the root is Linux's. */
    CHECK(fs_lookup("events/user_events/enable", &err) == NULL);
    CHECK_EQ_INT(err, -ENOENT);
    CHECK(fs_lookup("/sys/kernel/debug/events/user_events/enable", &err) == NULL);
    CHECK_EQ_INT(err, -ENOENT);
}

TEST(layout_is_linuxs_with_debugfs_and_debug_linking_to_tracefs)
{
    struct fs_node *tracing = tracefs_root(), *debug = debugfs_root();
    CHECK(tracing != NULL && debug != NULL);
    char path[64];
    fs_path_of(tracing, path, sizeof path);
    CHECK_EQ_STR(path, "/sys/kernel/tracing");
    fs_path_of(debug, path, sizeof path);
    CHECK_EQ_STR(path, "/sys/kernel/debug");
    CHECK(tracefs_root() == tracing); /* made once */
    int err = 0;
    CHECK(fs_lookup("/sys/kernel/tracing", &err) == tracing);
    CHECK(fs_lookup("/sys/kernel/debug/tracing", &err) == tracing);
    CHECK(fs_lookup("/sys/kernel/debug/tracing/", &err) == tracing);
    CHECK(fs_lookup("/debug/tracing", &err) == tracing);
    CHECK(fs_lookup("/debug", &err) == debug);
    CHECK(fs_lookup("/sys/kernel/debug/tracing/..", &err) == fs_lookup("/sys/kernel", &err));
    /* debugfs's tracing and /debug are links (ls -l shows them so), not second parents. */
    struct fs_node *link = fs_resolve(debug, "tracing", NULL, FS_NOFOLLOW, &err);
    CHECK(link && fs_is_symlink(link));
    CHECK_EQ_INT(link->ops->readlink(link, path, sizeof path), 19);
    CHECK_EQ_STR(path, "/sys/kernel/tracing");
    CHECK_EQ_INT(link->ops->readlink(link, path, 5), 4); /* cut, terminated */
    CHECK_EQ_STR(path, "/sys");
    link = fs_resolve(NULL, "/debug", NULL, FS_NOFOLLOW, &err);
    CHECK(link && fs_is_symlink(link));
    /* Linux's modes: tracefs 0750, debugfs 0700, sysfs's root 0555. */
    CHECK_EQ_INT(fs_mode(tracing), TRACEFS_DIR_MODE);
    CHECK_EQ_INT(fs_mode(debug), 0700);
    CHECK_EQ_INT(fs_mode(fs_lookup("/sys", &err)), 0555);
    /* A user may not walk into debugfs, even through the links. */
    struct cred u = { 1000, 1000, 1000, 1000, 1000, 1000, 0, { 0 } };
    struct fs_node *ipc = fs_mkdir_at(debug, "ipc_logging/x");
    CHECK(ipc != NULL);
    CHECK(fs_lookup_as("/debug/ipc_logging/x", &u, &err) == NULL);
    CHECK_EQ_INT(err, -EACCES);
    CHECK(fs_lookup_as("/sys/kernel/debug/tracing", &u, &err) == NULL);
    CHECK_EQ_INT(err, -EACCES);
    CHECK(fs_lookup("/debug/ipc_logging/x", &err) == ipc);
}

TEST(lookup_errors)
{
    int err = 0;
    CHECK(fs_lookup("nope", &err) == NULL);
    CHECK_EQ_INT(err, -ENOENT);
    struct fs_node *d = fs_mkdir_path("errs");
    fs_create(d, "file", &hello_ops, NULL);
    CHECK(fs_lookup("errs/file/more", &err) == NULL);
    CHECK_EQ_INT(err, -ENOTDIR);
    /* A trailing slash (or "/.") after a file asks for a directory, as Linux's walk. */
    err = 0;
    CHECK(fs_lookup("errs/file/", &err) == NULL);
    CHECK_EQ_INT(err, -ENOTDIR);
    err = 0;
    CHECK(fs_lookup("/errs/file//", &err) == NULL);
    CHECK_EQ_INT(err, -ENOTDIR);
    CHECK(fs_lookup("errs/file/.", &err) == NULL);
    CHECK_EQ_INT(err, -ENOTDIR);
    CHECK(fs_lookup("errs/", &err) == d);
    CHECK(fs_lookup("/sys/kernel/tracing/", &err) == tracefs_root());
    char long_path[FS_PATH_MAX + 10];
    memset(long_path, 'a', sizeof long_path - 1);
    long_path[sizeof long_path - 1] = '\0';
    CHECK(fs_lookup(long_path, &err) == NULL);
    CHECK_EQ_INT(err, -ENAMETOOLONG);
    /* Names are whole components. */
    CHECK(fs_lookup("/sys/kernel/tracingx", &err) == NULL);
    CHECK_EQ_INT(err, -ENOENT);
    /* fs_mkdir_at refuses a file on the way, and a missing base. */
    CHECK(fs_mkdir_at(d, "file/sub") == NULL);
    CHECK(fs_mkdir_at(NULL, "x") == NULL);
    CHECK(fs_mkdir_at(fs_lookup("errs/file", &err), "x") == NULL);
}

TEST(bad_names_and_duplicates_refused)
{
    struct fs_node *d = fs_mkdir_path("names");
    CHECK(fs_create(d, "a", &hello_ops, NULL) != NULL);
    CHECK(fs_create(d, "a", &hello_ops, NULL) == NULL);
    CHECK(fs_mkdir(d, "") == NULL);
    CHECK(fs_mkdir(d, ".") == NULL);
    CHECK(fs_mkdir(d, "..") == NULL);
    CHECK(fs_mkdir(d, "x/y") == NULL);
    CHECK(fs_create(d, "noops", NULL, NULL) == NULL);
    CHECK(fs_mkdir(fs_lookup("names/a", &(int){0}), "sub") == NULL); /* a file has no children */
}

TEST(children_sorted)
{
    struct fs_node *d = fs_mkdir_path("sorted");
    fs_create(d, "trace_pipe", &hello_ops, NULL);
    fs_create(d, "available_tracers", &hello_ops, NULL);
    fs_mkdir(d, "events");
    CHECK_EQ_STR(d->children->name, "available_tracers");
    CHECK_EQ_STR(d->children->next->name, "events");
    CHECK_EQ_STR(d->children->next->next->name, "trace_pipe");
}

TEST(remove_and_path)
{
    struct fs_node *d = fs_mkdir_path("rm/dir");
    struct fs_node *f = fs_create(d, "file", &hello_ops, NULL);
    char path[64];
    fs_path_of(f, path, sizeof path);
    CHECK_EQ_STR(path, "/rm/dir/file");
    fs_path_of(fs_root(), path, sizeof path);
    CHECK_EQ_STR(path, "/");
    CHECK_EQ_INT(fs_remove(d), -ENOTEMPTY);
    f->open_files = 1; /* as file_open leaves it while a program has the file open */
    CHECK(fs_in_use(d));
    CHECK_EQ_INT(fs_remove(f), -EBUSY);
    f->open_files = 0;
    CHECK(!fs_in_use(d));
    CHECK_EQ_INT(fs_remove(f), 0);
    CHECK_EQ_INT(fs_remove(d), 0);
    CHECK_EQ_INT(fs_remove(fs_root()), -EINVAL);
    int err;
    CHECK(fs_lookup("rm/dir", &err) == NULL);
}

/* A file removed while open (an event deleted while a program holds its enable file, as
 * Linux's tracefs allows) leaves the tree at once: its name is free again and its
 * directory can go, while the node keeps its ops and mode for the open file until the last
 * close frees it (kernel/fs/file.c). An unopened node is freed at once. */
TEST(detach_removes_an_open_file_from_the_tree)
{
    struct fs_node *d = fs_mkdir_path("det/ev");
    struct fs_node *f = fs_create(d, "enable", &hello_ops, NULL);
    struct fs_node *g = fs_create(d, "format", &hello_ops, NULL);
    CHECK_EQ_INT(fs_detach(d), -ENOTEMPTY);
    CHECK_EQ_INT(fs_detach(fs_root()), -EINVAL);
    uint16_t mode = fs_mode(f);
    f->open_files = 1;
    CHECK_EQ_INT(fs_detach(f), 0);
    CHECK(f->detached);
    CHECK(f->parent == NULL);
    CHECK(f->ops == &hello_ops);
    CHECK_EQ_INT(fs_mode(f), mode);
    CHECK_EQ_INT(fs_detach(f), -EINVAL); /* already out of the tree */
    int err;
    CHECK(fs_lookup("det/ev/enable", &err) == NULL);
    CHECK_EQ_INT(err, -ENOENT);
    struct fs_node *again = fs_create(d, "enable", &hello_ops, NULL);
    CHECK(again != NULL && again != f);
    CHECK_EQ_INT(fs_detach(again), 0); /* not open: freed now */
    CHECK_EQ_INT(fs_detach(g), 0);
    CHECK(d->children == NULL);
    CHECK_EQ_INT(fs_detach(d), 0);
    CHECK(fs_lookup("det/ev", &err) == NULL);
    CHECK(fs_lookup("det", &err) != NULL);
    /* What file_put does at the last close of a detached node. */
    f->open_files = 0;
    kfree(f);
}

TEST(writer_formats)
{
    struct fs_writer w = collect_writer;
    collect_reset();
    struct fs_node *f = fs_create(fs_mkdir_path("w"), "hello", &hello_ops, NULL);
    CHECK_EQ_INT(f->ops->read(f, &w), 0);
    CHECK_EQ_STR(collected, "hello 42\n");
    collect_reset();
    char big[1000];
    memset(big, 'z', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    fs_printf(&w, "<%s>", big); /* longer than fs_printf's stack buffer */
    CHECK_EQ_INT(collected_len, 1001);
}

static int write_nothing(struct fs_node *f, const char *d, size_t l, bool a)
{
    (void)f, (void)d, (void)l, (void)a;
    return 0;
}
static const struct fs_file_ops rw_ops = { .read = read_hello, .write = write_nothing };
static const struct fs_file_ops wo_ops = { .write = write_nothing };
static const void *some_bytes(struct fs_node *f, uint32_t *size)
{
    (void)f;
    *size = 3;
    return "\177EL";
}
static const struct fs_file_ops bytes_ops = { .bytes = some_bytes };

TEST(modes_default_from_the_directory_as_linux)
{
    struct fs_node *d = fs_mkdir_at(tracefs_root(), "modes");
    CHECK_EQ_INT(fs_mode(fs_root()), 0755);
    CHECK_EQ_INT(fs_mode(fs_mkdir_path("at_root")), 0755); /* the root's own default */
    CHECK_EQ_INT(fs_mode(d), TRACEFS_DIR_MODE);
    CHECK_EQ_INT(fs_mode(fs_create(d, "ro", &hello_ops, NULL)), 0440); /* TRACE_MODE_READ */
    CHECK_EQ_INT(fs_mode(fs_create(d, "rw", &rw_ops, NULL)), 0640);    /* TRACE_MODE_WRITE */
    CHECK_EQ_INT(fs_mode(fs_create(d, "wo", &wo_ops, NULL)), 0200);    /* as free_buffer */
    struct fs_node *proc = fs_set_mode(fs_mkdir_at(d, "proc"), 0555, 0, 0);
    struct fs_node *sub = fs_mkdir(proc, "sub");
    CHECK_EQ_INT(fs_mode(sub), 0555);
    CHECK_EQ_INT(fs_mode(fs_create(sub, "f", &hello_ops, NULL)), 0444);
    /* A file of fixed bytes (a program's image) can be read. */
    CHECK_EQ_INT(fs_mode(fs_create(sub, "image", &bytes_ops, NULL)), 0444);
    struct fs_node *tty = fs_set_mode(fs_create(d, "tty", &rw_ops, NULL), 0660, 0, 20);
    CHECK_EQ_INT(fs_mode(tty), 0660);
    CHECK_EQ_INT(tty->gid, 20);
    CHECK(fs_set_mode(NULL, 0644, 0, 0) == NULL);
}

TEST(lookup_as_a_user_needs_search_permission)
{
    struct cred u = { 1000, 1000, 1000, 1000, 1000, 1000, 0, { 0 } }, root = CRED_ROOT;
    struct fs_node *open_dir = fs_set_mode(fs_mkdir_path("pub"), 0755, 0, 0);
    struct fs_node *f = fs_create(open_dir, "f", &hello_ops, NULL);
    fs_create(fs_set_mode(fs_mkdir_path("priv"), 0750, 0, 0), "g", &hello_ops, NULL);
    int err = 0;
    CHECK(fs_lookup_as("/pub/f", &u, &err) == f);
    CHECK(fs_lookup_as("/priv/g", &u, &err) == NULL);
    CHECK_EQ_INT(err, -EACCES);
    CHECK(fs_lookup_as("/priv/../pub/f", &u, &err) == NULL); /* every directory passed */
    CHECK(fs_lookup_as("/priv/g", &root, &err) != NULL);
    CHECK_EQ_INT(fs_may_open(f, &u, MAY_READ), 0); /* 0444: "pub"'s 0755 without x or w */
    CHECK_EQ_INT(fs_may_open(f, &u, MAY_WRITE), -EACCES);
}

/* Symbolic links for the walk tests: each node's data is its target. */
static int read_target(struct fs_node *link, char *buf, size_t size)
{
    const char *target = link->data;
    size_t n = strlen(target);
    if (n >= size)
        return -ENAMETOOLONG;
    memcpy(buf, target, n + 1);
    return (int)n;
}
static const struct fs_file_ops link_ops = { .readlink = read_target };

TEST(symlinks_are_followed_except_the_last_with_nofollow)
{
    struct fs_node *dir = fs_mkdir_path("links/real");
    struct fs_node *file = fs_create(dir, "f", &hello_ops, NULL);
    struct fs_node *top = fs_lookup("links", &(int){0});
    struct fs_node *rel = fs_symlink(top, "rel", &link_ops, "real");
    struct fs_node *abs = fs_symlink(top, "abs", &link_ops, "/links/real/f");
    struct fs_node *dotdot = fs_symlink(dir, "up", &link_ops, "../real");
    CHECK(rel && abs && dotdot);
    CHECK(fs_is_symlink(rel) && !fs_is_dir(rel));
    CHECK_EQ_INT((int)fs_type(rel), 0120000);
    CHECK_EQ_INT(fs_mode(rel), 0777);
    int err = 0;
    CHECK(fs_lookup("links/rel/f", &err) == file);
    CHECK(fs_lookup("links/abs", &err) == file);
    CHECK(fs_lookup("links/real/up/up/up/f", &err) == file);
    CHECK(fs_resolve(NULL, "links/abs", NULL, FS_NOFOLLOW, &err) == abs);
    CHECK(fs_resolve(NULL, "links/rel", NULL, FS_NOFOLLOW, &err) == rel);
    CHECK(fs_resolve(NULL, "links/rel/", NULL, FS_NOFOLLOW, &err) == dir); /* a slash follows */
    CHECK(fs_resolve(top, "rel/f", NULL, 0, &err) == file);               /* from a start */
    CHECK(fs_resolve(dir, "../abs", NULL, 0, &err) == file);
    CHECK(fs_resolve(dir, "/links/rel", NULL, 0, &err) == dir);           /* absolute: root */
    CHECK(fs_lookup("links/abs/", &err) == NULL);
    CHECK_EQ_INT(err, -ENOTDIR);
}

TEST(symlink_loops_are_eloop)
{
    struct fs_node *d = fs_mkdir_path("loops");
    fs_symlink(d, "a", &link_ops, "b");
    fs_symlink(d, "b", &link_ops, "a");
    fs_symlink(d, "self", &link_ops, "self/x");
    fs_symlink(d, "dangling", &link_ops, "nowhere");
    fs_symlink(d, "empty", &link_ops, "");
    int err = 0;
    CHECK(fs_lookup("loops/a", &err) == NULL);
    CHECK_EQ_INT(err, -ELOOP);
    CHECK(fs_lookup("loops/self", &err) == NULL);
    CHECK_EQ_INT(err, -ELOOP);
    CHECK(fs_resolve(NULL, "loops/a", NULL, FS_NOFOLLOW, &err) != NULL); /* not followed */
    CHECK(fs_lookup("loops/dangling", &err) == NULL);
    CHECK_EQ_INT(err, -ENOENT);
    CHECK(fs_lookup("loops/empty", &err) == NULL);
    CHECK_EQ_INT(err, -ENOENT);
    /* A chain of FS_LINKS_MAX links resolves; one more is ELOOP, though none loops. */
    static char targets[FS_LINKS_MAX + 2][8];
    struct fs_node *c = fs_mkdir_path("chain");
    fs_create(c, "end", &hello_ops, NULL);
    for (int i = 0; i <= FS_LINKS_MAX; i++) {
        char name[8];
        snprintf(name, sizeof name, "l%d", i);
        if (i == 0)
            snprintf(targets[i], sizeof targets[i], "end");
        else
            snprintf(targets[i], sizeof targets[i], "l%d", i - 1);
        CHECK(fs_symlink(c, name, &link_ops, targets[i]) != NULL);
    }
    char path[32];
    snprintf(path, sizeof path, "chain/l%d", FS_LINKS_MAX - 1);
    CHECK(fs_lookup(path, &err) != NULL); /* 40 links */
    snprintf(path, sizeof path, "chain/l%d", FS_LINKS_MAX);
    CHECK(fs_lookup(path, &err) == NULL); /* 41 */
    CHECK_EQ_INT(err, -ELOOP);
}

TEST(inode_numbers_and_device_numbers)
{
    struct fs_node *d = fs_mkdir_path("inodes");
    struct fs_node *a = fs_create(d, "a", &hello_ops, NULL);
    struct fs_node *b = fs_create(d, "b", &hello_ops, NULL);
    CHECK(fs_root()->ino == 1);
    CHECK(a->ino != b->ino && a->ino > 1 && b->ino > 1 && d->ino != a->ino);
    CHECK_EQ_INT((int)fs_type(a), 0100000);
    CHECK_EQ_INT((int)fs_type(d), 0040000);
    fs_set_rdev(b, 1, 3);
    CHECK_EQ_INT((int)b->rdev, 0x103);
    CHECK_EQ_INT((int)fs_type(b), 0020000);
}

/* The directory's list in order, prev mirroring next, every child found by name. */
static bool dir_consistent(struct fs_node *dir, unsigned want)
{
    unsigned seen = 0;
    struct fs_node *prev = NULL;
    for (struct fs_node *n = dir->children; n; prev = n, n = n->next, seen++)
        if (n->prev != prev || (prev && strcmp(prev->name, n->name) >= 0) ||
            fs_child(dir, n->name) != n)
            return false;
    return seen == want;
}

TEST(children_stay_sorted_in_any_insertion_order_and_through_removals)
{
    /* Names inserted in a scrambled order land in name order (ls's), through the index's
     * growth; removing every third, and then files open elsewhere detached, keeps it so. */
    enum { N = 600 };
    struct fs_node *dir = fs_mkdir(fs_root(), "sorted_test");
    CHECK(dir != NULL);
    static struct fs_node *made[N];
    char name[16];
    for (unsigned i = 0; i < N; i++) {
        unsigned k = (i * 389) % N; /* 389 is prime to 600: every k once */
        snprintf(name, sizeof name, "%c%u", 'a' + k % 5, k);
        made[k] = fs_create(dir, name, &hello_ops, NULL);
        CHECK(made[k] != NULL);
        CHECK(fs_create(dir, name, &hello_ops, NULL) == NULL); /* a duplicate */
    }
    CHECK(dir_consistent(dir, N));
    unsigned left = N;
    for (unsigned k = 0; k < N; k += 3, left--)
        CHECK_EQ_INT(fs_remove(made[k]), 0);
    CHECK(dir_consistent(dir, left));
    snprintf(name, sizeof name, "%c%u", 'a' + 3 % 5, 3u);
    CHECK(fs_child(dir, name) == NULL);
    made[1]->open_files = 1;
    CHECK_EQ_INT(fs_detach(made[1]), 0); /* stays allocated for its open file */
    CHECK(dir_consistent(dir, --left));
    CHECK(fs_child(dir, made[1]->name) == NULL);
    CHECK(fs_create(dir, made[1]->name, &hello_ops, NULL) != NULL); /* its name is free again */
    left++;
    CHECK(dir_consistent(dir, left));
    kfree(made[1]);
    while (dir->children)
        CHECK_EQ_INT(fs_remove(dir->children), 0);
    CHECK(dir->index == NULL || dir->index->names.count == 0);
    CHECK_EQ_INT(fs_remove(dir), 0);
    CHECK(fs_child(fs_root(), "sorted_test") == NULL);
}

/* A lazy directory (fs_mkdir_lazy): what its fill makes, and how often it runs. */
static unsigned fills;        /* fill_abc's runs */
static unsigned fill_budget;  /* files fill_abc may still make before it "runs out" */

/* Makes a, b and c in dir, those still missing, within fill_budget; looks into dir itself
 * (fs_child), as trace_events.c's fills do, which must not run it again. */
static bool fill_abc(struct fs_node *dir)
{
    fills++;
    static const char *const names[] = { "c", "a", "b" };
    for (unsigned i = 0; i < 3; i++) {
        if (fs_child(dir, names[i]))
            continue;
        if (fill_budget == 0)
            return false;
        fill_budget--;
        if (!fs_create(dir, names[i], &hello_ops, dir->data))
            return false;
    }
    return true;
}

TEST(lazy_directory_is_filled_at_its_first_look_only)
{
    fills = 0;
    fill_budget = 100;
    struct fs_node *parent = fs_mkdir_path("lazy1");
    struct fs_node *d = fs_mkdir_lazy(parent, "d", fill_abc, (void *)"owner");
    CHECK(d != NULL && fs_is_dir(d));
    CHECK(fs_fill_pending(d));
    CHECK(fs_mkdir_lazy(parent, "d", fill_abc, NULL) == NULL); /* a duplicate, as fs_mkdir */
    /* Made, and found, without filling it. */
    int err;
    CHECK(fs_lookup("lazy1/d", &err) == d);
    CHECK_EQ_INT(fills, 0);
    CHECK(!fs_in_use(d));
    CHECK_EQ_INT(fills, 0);
    /* A lookup of a name in it fills it; the files are there, in order, with its data. */
    struct fs_node *b = fs_lookup("lazy1/d/b", &err);
    CHECK(b != NULL);
    CHECK_EQ_STR((const char *)b->data, "owner");
    CHECK_EQ_INT(fills, 1);
    CHECK(!fs_fill_pending(d));
    struct fs_node *c = fs_children(d);
    CHECK(c != NULL && strcmp(c->name, "a") == 0 && c->next == b);
    CHECK(b->next != NULL && strcmp(b->next->name, "c") == 0 && b->next->next == NULL);
    /* Never again: not for a lookup of a missing name, a listing, or a new child. */
    CHECK(fs_lookup("lazy1/d/zz", &err) == NULL);
    CHECK_EQ_INT(err, -ENOENT);
    CHECK(fs_create(d, "e", &hello_ops, NULL) != NULL);
    CHECK(fs_create(d, "a", &hello_ops, NULL) == NULL);
    CHECK_EQ_INT(fills, 1);
    while (d->children)
        CHECK_EQ_INT(fs_remove(d->children), 0);
    CHECK(fs_children(d) == NULL); /* emptied by its owner: not filled again */
    CHECK_EQ_INT(fills, 1);
    CHECK_EQ_INT(fs_remove(d), 0);
    CHECK_EQ_INT(fs_remove(parent), 0);
}

TEST(lazy_directory_fills_before_a_listing_or_a_new_child)
{
    fills = 0;
    fill_budget = 100;
    struct fs_node *parent = fs_mkdir_path("lazy2");
    struct fs_node *listed = fs_mkdir_lazy(parent, "listed", fill_abc, NULL);
    struct fs_node *added = fs_mkdir_lazy(parent, "added", fill_abc, NULL);
    struct fs_node *first = fs_children(listed);
    CHECK(first != NULL && strcmp(first->name, "a") == 0);
    CHECK_EQ_INT(fills, 1);
    /* A child added first: the fill runs before, so the new one and the fill's are all
     * there, each once, and one the fill makes is refused as a duplicate. */
    CHECK(fs_create(added, "b", &hello_ops, NULL) == NULL);
    CHECK(fs_create(added, "bb", &hello_ops, NULL) != NULL);
    CHECK_EQ_INT(fills, 2);
    unsigned n = 0;
    for (struct fs_node *k = fs_children(added); k; k = k->next)
        n++;
    CHECK_EQ_INT(n, 4);
    /* The owner may test for a pending fill, and a directory never looked into goes
     * without being filled. */
    struct fs_node *never = fs_mkdir_lazy(parent, "never", fill_abc, NULL);
    CHECK(fs_fill_pending(never));
    CHECK_EQ_INT(fs_remove(never), 0);
    CHECK_EQ_INT(fills, 2);
}

/* A fill that runs out of memory runs again at the next look and makes the rest; a
 * detached lazy directory is never filled. */
TEST(lazy_directory_short_of_memory_is_filled_at_the_next_look)
{
    fills = 0;
    fill_budget = 1;
    struct fs_node *parent = fs_mkdir_path("lazy3");
    struct fs_node *d = fs_mkdir_lazy(parent, "d", fill_abc, NULL);
    int err;
    CHECK(fs_lookup("lazy3/d/a", &err) == NULL); /* only c was made */
    CHECK_EQ_INT(fills, 1);
    CHECK(fs_fill_pending(d));
    CHECK(fs_child(d, "c") != NULL); /* this look runs it again: still short */
    CHECK_EQ_INT(fills, 2);
    fill_budget = 100;
    CHECK(fs_lookup("lazy3/d/a", &err) != NULL);
    CHECK_EQ_INT(fills, 3);
    CHECK(!fs_fill_pending(d));
    CHECK(fs_child(d, "b") != NULL && fs_child(d, "c") != NULL);
    struct fs_node *gone = fs_mkdir_lazy(parent, "gone", fill_abc, NULL);
    gone->open_files = 1; /* a program has it open */
    CHECK_EQ_INT(fs_detach(gone), 0);
    CHECK(!fs_fill_pending(gone));
    CHECK(fs_children(gone) == NULL);
    CHECK_EQ_INT(fills, 3);
    gone->open_files = 0;
    kfree(gone);
}
