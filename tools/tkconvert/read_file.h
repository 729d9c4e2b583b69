/*
 * read_file.h - a whole file into memory, for the converter's inputs (the capture, and the
 * unpacked header_page trace.dat's header is checked against).
 */
#ifndef TOOLS_TKCONVERT_READ_FILE_H
#define TOOLS_TKCONVERT_READ_FILE_H

#include <stddef.h>

/* The bytes of path in a heap buffer with a NUL after them (so text can be read as a
 * string), their count in *size. NULL with errno set when the file cannot be opened or read,
 * memory runs out (ENOMEM), or it holds more than limit bytes (EFBIG). */
void *tk_read_file(const char *path, size_t limit, size_t *size);

#endif
