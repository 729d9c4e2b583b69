/*
 * sys_syslog.c - syslog(2) (103, sys_syslog; glibc's klogctl), so that busybox's dmesg
 * reads the kernel log (kernel/log/klog.h) as Linux's does.
 *
 * As Linux with dmesg_restrict=1 (Debian's default, and what /dev/kmsg here follows):
 * every action needs CAP_SYSLOG, which here is root; others get EPERM. The actions:
 *   0 CLOSE, 1 OPEN         nothing to do: 0
 *   3 READ_ALL              the newest whole lines of the log that fit in len bytes,
 *                           oldest first, as "[    1.234567] text\n" (the log keeps no
 *                           levels, so no "<N>" prefix): the count copied
 *   4 READ_CLEAR            the same, then the log is emptied
 *   5 CLEAR                 the log is emptied: 0
 *   10 SIZE_BUFFER          the log's size in bytes
 * READ (2, the destructive read that waits) and SIZE_UNREAD (9) need a reader's position,
 * and the console levels (6, 7, 8) a console that filters by level: this kernel has
 * neither, so those are EINVAL, Linux's answer for an action it does not know.
 */
#include "kernel/lib/errno.h"
#include "kernel/lib/string.h"
#include "kernel/log/klog.h"
#include "kernel/mm/heap.h"
#include "kernel/mm/uaccess.h"
#include "kernel/proc/task_internal.h"
#include "kernel/syscall/syscall_handlers.h"

enum {
    SYSLOG_ACTION_CLOSE = 0,
    SYSLOG_ACTION_OPEN = 1,
    SYSLOG_ACTION_READ_ALL = 3,
    SYSLOG_ACTION_READ_CLEAR = 4,
    SYSLOG_ACTION_CLEAR = 5,
    SYSLOG_ACTION_SIZE_BUFFER = 10,
};

#define LOG_TEXT_MAX (KLOG_SIZE + 256) /* the log's lines plus the "lost" line */

struct log_text {
    char *data;
    size_t len;
};

static void append(void *ctx, const char *text, size_t len)
{
    struct log_text *t = ctx;
    if (len > LOG_TEXT_MAX - t->len)
        len = LOG_TEXT_MAX - t->len;
    memcpy(t->data + t->len, text, len);
    t->len += len;
}

/* READ_ALL and READ_CLEAR: the log rendered, then its oldest lines dropped until the rest
 * fits in len bytes. */
static int32_t read_all(uint32_t ubuf, int32_t len, bool clear)
{
    if (!ubuf || len < 0)
        return -EINVAL;
    if (len == 0)
        return 0;
    if (!user_range_ok(ubuf, (uint32_t)len, true))
        return -EFAULT;
    struct log_text t = { kmalloc(LOG_TEXT_MAX), 0 };
    if (!t.data)
        return -ENOMEM;
    klog_dump(append, &t);
    size_t start = 0;
    while (t.len - start > (size_t)len) {
        const char *nl = memchr(t.data + start, '\n', t.len - start);
        start = nl ? (size_t)(nl - t.data) + 1 : t.len;
    }
    int32_t ret = copy_to_user(ubuf, t.data + start, (uint32_t)(t.len - start))
                      ? -EFAULT : (int32_t)(t.len - start);
    kfree(t.data);
    if (ret >= 0 && clear)
        klog_clear();
    return ret;
}

SYSCALL_HANDLER(syslog)
{
    if (!cred_privileged(&current->cred))
        return -EPERM;
    switch ((int32_t)a[0]) {
    case SYSLOG_ACTION_CLOSE:
    case SYSLOG_ACTION_OPEN: return 0;
    case SYSLOG_ACTION_READ_ALL: return read_all(a[1], (int32_t)a[2], false);
    case SYSLOG_ACTION_READ_CLEAR: return read_all(a[1], (int32_t)a[2], true);
    case SYSLOG_ACTION_CLEAR: klog_clear(); return 0;
    case SYSLOG_ACTION_SIZE_BUFFER: return (int32_t)KLOG_SIZE;
    default: return -EINVAL;
    }
}
