/*
 * stdio.h - streams (FILE) and formatted output, the small part of C's stdio that small
 * programs use.
 *
 * stdin, stdout and stderr are streams on fds 0, 1 and 2: stdout is line buffered (written
 * at each '\n', when its buffer fills, by fflush, before a read from stdin, before anything
 * goes to stderr or through dprintf/perror, and at exit()), stderr unbuffered, stdin read
 * a buffer at a time. fopen/fdopen give up to FOPEN_MAX - 3 more streams, fully buffered
 * (setvbuf changes that). Formats: %d %i %u %x %X %p %s %c %%, with l and ll on the
 * integer ones, a width, and the flags '0' and '-'. Errors as C says: EOF or a short
 * count, with errno set by the failing call and the stream's error flag.
 */
#ifndef _STDIO_H
#define _STDIO_H

#include <stdarg.h>
#include <stddef.h>

#define EOF (-1)
#define BUFSIZ 4096
#define FOPEN_MAX 16
#define _IOFBF 0
#define _IOLBF 1
#define _IONBF 2

typedef struct stdio_stream FILE;
extern FILE *stdin, *stdout, *stderr;

FILE *fopen(const char *path, const char *mode);
FILE *fdopen(int fd, const char *mode);
int fclose(FILE *f);
int fflush(FILE *f); /* NULL: every output stream */
int setvbuf(FILE *f, char *buf, int mode, size_t size);
void setbuf(FILE *f, char *buf);
int fileno(FILE *f);
int feof(FILE *f);
int ferror(FILE *f);
void clearerr(FILE *f);

int fgetc(FILE *f);
int getc(FILE *f);
int getchar(void);
int ungetc(int c, FILE *f);
char *fgets(char *s, int size, FILE *f);
size_t fread(void *p, size_t size, size_t n, FILE *f);

int fputc(int c, FILE *f);
int putc(int c, FILE *f);
int putchar(int c);
int fputs(const char *s, FILE *f);
int puts(const char *s);
size_t fwrite(const void *p, size_t size, size_t n, FILE *f);

int printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int vprintf(const char *fmt, va_list ap) __attribute__((format(printf, 1, 0)));
int fprintf(FILE *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int vfprintf(FILE *f, const char *fmt, va_list ap) __attribute__((format(printf, 2, 0)));
int dprintf(int fd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int snprintf(char *buf, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
int vsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
    __attribute__((format(printf, 3, 0)));
/* Prints "s: strerror(errno)\n" (or just the message when s is NULL or empty) to fd 2. */
void perror(const char *s);

#endif
