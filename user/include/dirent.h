/*
 * dirent.h - reading directories: opendir, readdir, closedir over getdents64, and the
 * getdents64 call itself.
 */
#ifndef _DIRENT_H
#define _DIRENT_H

#include <sys/types.h>

#include "uapi/fs.h"

struct dirent {
    uint64_t d_ino;
    int64_t d_off;
    unsigned short d_reclen;
    unsigned char d_type;
    char d_name[256];
};

typedef struct dir_stream DIR;

/* Opens a directory stream: NULL with errno (EMFILE when DIR_STREAMS are all in use). */
DIR *opendir(const char *path);
/* The next entry, or NULL at the end (errno unchanged) or on an error (errno set). */
struct dirent *readdir(DIR *dir);
int closedir(DIR *dir);
int dirfd(DIR *dir);
/* getdents64(2): whole linux_dirent64 records into buf; bytes, 0 at the end, or -1. */
ssize_t getdents64(int fd, void *buf, size_t count);

#endif
