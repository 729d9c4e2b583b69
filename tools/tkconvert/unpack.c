/*
 * unpack.c - writes a capture to a directory, safely (see unpack.h).
 */
#include "tools/tkconvert/unpack.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int unpack_path(const char *capture_path, char *out, size_t outlen)
{
    const char *rel = capture_path;
    const char *prefix = UNPACK_TRACEFS;
    if (rel[0] == '/') {
        rel++;
        prefix = "";
    }
    if (strlen(capture_path) >= UNPACK_PATH_MAX) {
        snprintf(out, outlen, "path too long");
        return -1;
    }
    /* Each component: not empty, not "." or "..", no control characters. */
    for (const char *p = rel;;) {
        const char *slash = strchr(p, '/');
        size_t n = slash ? (size_t)(slash - p) : strlen(p);
        if (n == 0) {
            snprintf(out, outlen, "empty path component");
            return -1;
        }
        if ((n == 1 && p[0] == '.') || (n == 2 && p[0] == '.' && p[1] == '.')) {
            snprintf(out, outlen, "\".\" or \"..\" in the path");
            return -1;
        }
        for (size_t i = 0; i < n; i++) {
            if ((unsigned char)p[i] < 0x20 || p[i] == 0x7f) {
                snprintf(out, outlen, "control character in the path");
                return -1;
            }
        }
        if (!slash)
            break;
        p = slash + 1;
    }
    if ((size_t)snprintf(out, outlen, "%s%s", prefix, rel) >= outlen) {
        snprintf(out, outlen, "path too long");
        return -1;
    }
    return 0;
}

/* mkdir -p of root itself (the user's path: symbolic links in it are the user's). */
static int make_root(const char *root)
{
    char path[UNPACK_PATH_MAX * 4];
    if (snprintf(path, sizeof path, "%s", root) >= (int)sizeof path) {
        errno = ENAMETOOLONG;
        return -1;
    }
    for (char *p = path + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = '\0';
        if (mkdir(path, 0755) != 0 && errno != EEXIST)
            return -1;
        *p = '/';
    }
    if (mkdir(path, 0755) != 0 && errno != EEXIST)
        return -1;
    return 0;
}

/* Opens rel (checked by unpack_path) for writing under the directory rootfd, creating its
 * directories; no component may be a symbolic link. Returns an fd or -1 with errno. */
static int open_under(int rootfd, const char *rel)
{
    char path[UNPACK_PATH_MAX + 32];
    snprintf(path, sizeof path, "%s", rel);
    int dir = dup(rootfd);
    char *name = path;
    for (char *slash; dir >= 0 && (slash = strchr(name, '/')) != NULL; name = slash + 1) {
        *slash = '\0';
        if (mkdirat(dir, name, 0755) != 0 && errno != EEXIST) {
            close(dir);
            return -1;
        }
        int sub = openat(dir, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        int saved = errno;
        close(dir);
        errno = saved;
        dir = sub;
    }
    if (dir < 0)
        return -1;
    int fd = openat(dir, name, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644);
    int saved = errno;
    close(dir);
    errno = saved;
    return fd;
}

/* Whether the directory dirfd holds anything besides "." and "..". Files left in it by an
 * older capture (a format, a cpuN) would be read with this capture's by trace-cmd restore,
 * so an unpack wants it empty. */
static bool dir_has_entries(int dirfd)
{
    int fd = dup(dirfd);
    DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
    if (!d) {
        if (fd >= 0)
            close(fd);
        return true; /* cannot tell: refuse rather than mix */
    }
    bool any = false;
    for (struct dirent *e; !any && (e = readdir(d)) != NULL;)
        any = strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
    closedir(d);
    return any;
}

int unpack_root_unused(const char *root, char *err, size_t errlen)
{
    int fd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0)
        return 0; /* missing (or not a directory: unpack_capture says so) */
    bool used = dir_has_entries(fd);
    close(fd);
    if (!used)
        return 0;
    snprintf(err, errlen, "%s exists and is not empty: give a new or empty directory (files "
             "of an older capture would mix with this one's)", root);
    return -1;
}

static bool write_all(int fd, const uint8_t *data, size_t size)
{
    while (size > 0) {
        ssize_t n = write(fd, data, size);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return false;
        data += n;
        size -= (size_t)n;
    }
    return true;
}

/* Writes one file; reports and returns false when it cannot. */
static bool put_file(int rootfd, const char *capture_path, const char *rel, const uint8_t *data,
                     size_t size, FILE *warn)
{
    int fd = open_under(rootfd, rel);
    if (fd < 0) {
        fprintf(warn, "tkconvert: %s: cannot write %s: %s\n", capture_path, rel, strerror(errno));
        return false;
    }
    bool ok = write_all(fd, data, size);
    if (!ok)
        fprintf(warn, "tkconvert: %s: write failed: %s\n", rel, strerror(errno));
    close(fd);
    return ok;
}

int unpack_capture(const struct capture *c, const char *root, FILE *warn, char *err, size_t errlen)
{
    if (make_root(root) != 0) {
        snprintf(err, errlen, "cannot make directory %s: %s", root, strerror(errno));
        return -1;
    }
    int rootfd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (rootfd < 0) {
        snprintf(err, errlen, "cannot open directory %s: %s", root, strerror(errno));
        return -1;
    }
    int written = 0;
    char rel[UNPACK_PATH_MAX + 32];
    for (size_t i = 0; i < c->nr_files; i++) {
        const struct capture_file *f = &c->files[i];
        if (unpack_path(f->path, rel, sizeof rel) != 0) {
            fprintf(warn, "tkconvert: refusing the capture's file \"%.200s\": %s\n", f->path, rel);
            continue;
        }
        written += put_file(rootfd, f->path, rel, f->data, f->size, warn);
    }
    for (unsigned cpu = 0; cpu < c->nr_cpus; cpu++) {
        snprintf(rel, sizeof rel, UNPACK_TRACEFS "per_cpu/cpu%u/trace_pipe_raw", cpu);
        written += put_file(rootfd, rel, rel, c->pages[cpu] ? c->pages[cpu] : (const uint8_t *)"",
                            c->nr_pages[cpu] * CAPTURE_PAGE_BYTES, warn);
    }
    close(rootfd);
    return written;
}
