/*
 * termios.h - terminal settings: tcgetattr, tcsetattr, cfmakeraw, isatty's way (TCGETS).
 * struct termios, its flags and c_cc indices are i386 Linux's (uapi/fs.h).
 */
#ifndef _TERMIOS_H
#define _TERMIOS_H

#include "uapi/fs.h"

#define TCSANOW 0
#define TCSADRAIN 1
#define TCSAFLUSH 2

/* 0, or -1 with errno (ENOTTY for a file that is no terminal). */
int tcgetattr(int fd, struct termios *t);
int tcsetattr(int fd, int when, const struct termios *t);
/* Sets t to raw mode, as glibc's cfmakeraw. */
void cfmakeraw(struct termios *t);

#endif
