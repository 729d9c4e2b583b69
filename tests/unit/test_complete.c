/* test_complete.c - unit tests for kernel/shell/complete.c: command names for the first word,
 * paths of the tree for the others, unique and shared completions, the listing. */
#include "unit.h"

#include "collect_writer.h"
#include "kernel/fs/fs_layout.h"
#include "kernel/shell/complete.h"

static const char *const command_names[] = { "echo", "cat", "dmesg", "markers", "mmio",
                                             "mmio_map", "help", "halt", "run", "ls" };

static void visit_commands(complete_visit visit, void *arg)
{
    for (size_t i = 0; i < sizeof command_names / sizeof command_names[0]; i++)
        visit(arg, command_names[i], false);
}

static int read_nothing(struct fs_node *f, struct fs_writer *out)
{
    (void)f;
    (void)out;
    return 0;
}
static const struct fs_file_ops file_ops = { .read = read_nothing };

/* A tree like the kernel's: /sys/kernel/tracing with trace, trace_pipe, trace_marker,
 * tracing_on, events/sched/..., and /dev/ttyS1, /dev/null. The shell's current directory
 * is the tracing one. */
static void make_tree(void)
{
    static bool made;
    if (made)
        return;
    made = true;
    struct fs_node *tracing = tracefs_root();
    fs_create(tracing, "trace", &file_ops, NULL);
    fs_create(tracing, "trace_pipe", &file_ops, NULL);
    fs_create(tracing, "trace_marker", &file_ops, NULL);
    fs_create(tracing, "tracing_on", &file_ops, NULL);
    fs_create(tracing, "current_tracer", &file_ops, NULL);
    struct fs_node *sched = fs_mkdir_at(tracing, "events/sched");
    fs_create(sched, "enable", &file_ops, NULL);
    fs_create(sched, "filter", &file_ops, NULL);
    fs_mkdir_at(tracing, "events/syscalls");
    fs_create(fs_mkdir_at(tracing, "events"), "enable", &file_ops, NULL);
    struct fs_node *dev = fs_mkdir_path("dev");
    fs_create(dev, "ttyS1", &file_ops, NULL);
    fs_create(dev, "null", &file_ops, NULL);
}

static struct completion c;

/* Completes line with the cursor at its end; returns the text to insert. */
static const char *complete(const char *line)
{
    make_tree();
    collect_reset();
    complete_word(line, strlen(line), visit_commands, tracefs_root(), &c, &collect_writer);
    return c.insert;
}

TEST(unique_command_is_completed_with_a_blank)
{
    CHECK_EQ_STR(complete("ec"), "ho ");
    CHECK_EQ_INT(c.matches, 1);
    CHECK_EQ_STR(complete("  dm"), "esg ");
    CHECK_EQ_STR(complete("echo a; ca"), "t ");
    CHECK_EQ_STR(complete("echo a;ca"), "t ");
    CHECK_EQ_STR(collected, "");
}

TEST(shared_part_of_several_commands_is_completed_and_they_are_listed)
{
    CHECK_EQ_STR(complete("mm"), "io");
    CHECK_EQ_INT(c.matches, 2);
    CHECK_EQ_STR(collected, "mmio      mmio_map\n");
    CHECK_EQ_STR(complete("h"), "");
    CHECK_EQ_INT(c.matches, 2);
    CHECK_EQ_STR(collected, "halt  help\n");
}

TEST(no_match_inserts_nothing)
{
    CHECK_EQ_STR(complete("xyz"), "");
    CHECK_EQ_INT(c.matches, 0);
    CHECK_EQ_STR(complete("cat nosuch/tr"), "");
    CHECK_EQ_INT(c.matches, 0);
    CHECK_EQ_STR(complete("cat trace/x"), ""); /* a file is no directory */
    CHECK_EQ_INT(c.matches, 0);
}

TEST(later_words_complete_paths)
{
    CHECK_EQ_STR(complete("cat cur"), "rent_tracer ");
    CHECK_EQ_STR(complete("echo 1 > tracing_"), "on ");
    CHECK_EQ_STR(complete("echo 1 >tracing_"), "on ");
    CHECK_EQ_STR(complete("dmesg > /dev/tt"), "yS1 ");
    CHECK_EQ_STR(complete("cat /sys/kernel/tracing/tracing_"), "on ");
    CHECK_EQ_STR(complete("cat /sys/kernel/debug/tracing/tracing_"), "on "); /* a link */
    CHECK_EQ_STR(complete("cat ../../../dev/n"), "ull ");
}

TEST(relative_paths_complete_from_the_current_directory)
{
    make_tree();
    complete_word("ls tr", 5, visit_commands, fs_root(), &c, NULL);
    CHECK_EQ_INT(c.matches, 0); /* the tracing files are not at the root */
    complete_word("ls s", 4, visit_commands, fs_root(), &c, NULL);
    CHECK_EQ_STR(c.insert, "ys/");
    complete_word("ls ../", 6, visit_commands, tracefs_root(), &c, NULL);
    CHECK_EQ_INT(c.matches, 2); /* /sys/kernel: debug/ and tracing/ */
    /* A current directory that was removed (NULL): only absolute paths complete. */
    complete_word("cat tra", 7, visit_commands, NULL, &c, NULL);
    CHECK_EQ_INT(c.matches, 0);
    complete_word("cat /dev/tt", 11, visit_commands, NULL, &c, NULL);
    CHECK_EQ_STR(c.insert, "yS1 ");
}

TEST(a_directory_ends_in_a_slash_without_a_blank)
{
    CHECK_EQ_STR(complete("ls ev"), "ents/");
    CHECK_EQ_STR(complete("ls events/sc"), "hed/");
    CHECK_EQ_STR(complete("cat events/sched/en"), "able ");
}

TEST(files_that_share_a_prefix_are_listed_sorted_directories_marked)
{
    CHECK_EQ_STR(complete("cat tra"), "c");
    CHECK_EQ_INT(c.matches, 4);
    CHECK_EQ_STR(collected, "trace         trace_marker  trace_pipe    tracing_on\n");
}

TEST(every_name_of_a_directory_for_an_empty_word)
{
    CHECK_EQ_STR(complete("ls events/"), "");
    CHECK_EQ_INT(c.matches, 3);
    CHECK_EQ_STR(collected, "enable     sched/     syscalls/\n");
}

TEST(a_word_with_quotes_or_dollar_is_not_completed)
{
    CHECK_EQ_STR(complete("cat 'tra"), "");
    CHECK_EQ_INT(c.matches, 0);
    CHECK_EQ_STR(complete("cat \\tra"), "");
    CHECK_EQ_STR(complete("cat $tra"), "");
}

TEST(completion_at_the_cursor_in_mid_line)
{
    make_tree();
    collect_reset();
    complete_word("cat curXX trace", 7, visit_commands, tracefs_root(), &c, NULL);
    CHECK_EQ_STR(c.insert, "rent_tracer ");
    complete_word("ec trace", 2, visit_commands, tracefs_root(), &c, NULL);
    CHECK_EQ_STR(c.insert, "ho ");
}

TEST(many_matches_are_counted_not_listed)
{
    make_tree();
    struct fs_node *many = fs_mkdir_at(tracefs_root(), "many");
    char name[16];
    for (int i = 0; i < COMPLETE_LIST_MAX + 1; i++) {
        snprintf(name, sizeof name, "f%03d", i);
        fs_create(many, name, &file_ops, NULL);
    }
    CHECK_EQ_STR(complete("cat many/f"), "");
    CHECK_EQ_INT(c.matches, COMPLETE_LIST_MAX + 1);
    CHECK_EQ_STR(collected, "(201 names start with 'f': type more of the name)\n");
    CHECK_EQ_STR(complete("cat many/f19"), "");
    CHECK_EQ_INT(c.matches, 10);
    CHECK_EQ_STR(collected, "f190  f191  f192  f193  f194  f195  f196  f197  f198  f199\n");
}
