/*
 * trace_comm.c - pid to name, for the context column of trace output; and the
 * saved_cmdlines file that lists what is known, and saved_tgids beside it.
 */
#include "trace/core/trace_comm.h"

#include "kernel/init.h"
#include "kernel/lib/string.h"
#include "kernel/fs/fs_tree.h"
#include "kernel/fs/fs_layout.h"

struct comm_slot {
    int pid; /* 0: empty (pid 0 is never saved: it is always <idle>) */
    char name[TRACE_COMM_LEN];
};

/* Slot pid % TRACE_COMM_SLOTS: a newer pid with the same slot replaces an older one. */
static struct comm_slot slots[TRACE_COMM_SLOTS];

static uint32_t changes; /* trace_comm_changes */

uint32_t trace_comm_changes(void) { return __atomic_load_n(&changes, __ATOMIC_ACQUIRE); }

void trace_comm_save(int pid, const char *name)
{
    __atomic_add_fetch(&changes, 1, __ATOMIC_RELEASE);
    struct comm_slot *s = &slots[pid % TRACE_COMM_SLOTS];
    s->pid = pid;
    size_t n = strlen(name);
    if (n >= TRACE_COMM_LEN)
        n = TRACE_COMM_LEN - 1;
    memcpy(s->name, name, n);
    s->name[n] = 0;
}

const char *trace_comm_lookup(int pid)
{
    if (pid == 0)
        return "<idle>";
    const struct comm_slot *s = &slots[pid % TRACE_COMM_SLOTS];
    return pid > 0 && s->pid == pid ? s->name : "<...>";
}

int trace_tgid_lookup(int pid)
{
    return pid > 0 && slots[pid % TRACE_COMM_SLOTS].pid == pid ? pid : 0;
}

/* saved_cmdlines: "pid name" per known pid, as Linux lists them. */
static int read_saved_cmdlines(struct fs_node *f, struct fs_writer *out)
{
    (void)f;
    for (int i = 0; i < TRACE_COMM_SLOTS; i++)
        if (slots[i].pid)
            fs_printf(out, "%d %s\n", slots[i].pid, slots[i].name);
    return 0;
}

/* saved_tgids: "pid tgid" per known pid, as Linux lists them, for the same pids as
 * saved_cmdlines. A process here has one thread, so its thread group id is its pid. */
static int read_saved_tgids(struct fs_node *f, struct fs_writer *out)
{
    (void)f;
    for (int i = 0; i < TRACE_COMM_SLOTS; i++)
        if (slots[i].pid)
            fs_printf(out, "%d %d\n", slots[i].pid, slots[i].pid);
    return 0;
}

static const struct fs_file_ops saved_cmdlines_ops = { .read = read_saved_cmdlines };
static const struct fs_file_ops saved_tgids_ops = { .read = read_saved_tgids };

static void trace_comm_init(void)
{
    fs_create(tracefs_root(), "saved_cmdlines", &saved_cmdlines_ops, 0);
    fs_create(tracefs_root(), "saved_tgids", &saved_tgids_ops, 0);
}
INITCALL(trace, trace_comm_init);
