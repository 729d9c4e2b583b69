/*
 * error.c - error numbers as text: strerror(), strerrorname_np(), perror().
 *
 * The texts are glibc's, so that a program's messages read as they would on Linux.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

static const struct {
    int number;
    const char *name;
    const char *text;
} errors[] = {
    { EPERM, "EPERM", "Operation not permitted" },
    { ENOENT, "ENOENT", "No such file or directory" },
    { ESRCH, "ESRCH", "No such process" },
    { EINTR, "EINTR", "Interrupted system call" },
    { EIO, "EIO", "Input/output error" },
    { ENXIO, "ENXIO", "No such device or address" },
    { E2BIG, "E2BIG", "Argument list too long" },
    { ENOEXEC, "ENOEXEC", "Exec format error" },
    { EBADF, "EBADF", "Bad file descriptor" },
    { ECHILD, "ECHILD", "No child processes" },
    { EAGAIN, "EAGAIN", "Resource temporarily unavailable" },
    { ENOMEM, "ENOMEM", "Cannot allocate memory" },
    { EACCES, "EACCES", "Permission denied" },
    { EFAULT, "EFAULT", "Bad address" },
    { EBUSY, "EBUSY", "Device or resource busy" },
    { EEXIST, "EEXIST", "File exists" },
    { ENODEV, "ENODEV", "No such device" },
    { ENOTDIR, "ENOTDIR", "Not a directory" },
    { EISDIR, "EISDIR", "Is a directory" },
    { EINVAL, "EINVAL", "Invalid argument" },
    { EMFILE, "EMFILE", "Too many open files" },
    { ENOTTY, "ENOTTY", "Inappropriate ioctl for device" },
    { EFBIG, "EFBIG", "File too large" },
    { ENOSPC, "ENOSPC", "No space left on device" },
    { ESPIPE, "ESPIPE", "Illegal seek" },
    { EPIPE, "EPIPE", "Broken pipe" },
    { ERANGE, "ERANGE", "Numerical result out of range" },
    { ENAMETOOLONG, "ENAMETOOLONG", "File name too long" },
    { ENOSYS, "ENOSYS", "Function not implemented" },
    { ENOTEMPTY, "ENOTEMPTY", "Directory not empty" },
    { ELOOP, "ELOOP", "Too many levels of symbolic links" },
    { EOVERFLOW, "EOVERFLOW", "Value too large for defined data type" },
    { EILSEQ, "EILSEQ", "Invalid or incomplete multibyte or wide character" },
    { EOPNOTSUPP, "EOPNOTSUPP", "Operation not supported" },
    { EADDRINUSE, "EADDRINUSE", "Address already in use" },
    { ETIMEDOUT, "ETIMEDOUT", "Connection timed out" },
};

/* The table's index for errnum, or -1. */
static int error_index(int errnum)
{
    for (int i = 0; i < (int)(sizeof(errors) / sizeof(errors[0])); i++)
        if (errors[i].number == errnum)
            return i;
    return -1;
}

/* Unknown numbers get glibc's "Unknown error N", in a buffer the next call overwrites. */
char *strerror(int errnum)
{
    static char unknown[32];
    int i = error_index(errnum);
    if (i >= 0)
        return (char *)errors[i].text;
    snprintf(unknown, sizeof(unknown), "Unknown error %d", errnum);
    return unknown;
}

const char *strerrorname_np(int errnum)
{
    int i = error_index(errnum);
    return i >= 0 ? errors[i].name : 0;
}

/* errno is read before anything else runs, since writing could change it. */
void perror(const char *s)
{
    const char *text = strerror(errno);
    if (s && *s)
        dprintf(2, "%s: %s\n", s, text);
    else
        dprintf(2, "%s\n", text);
}
