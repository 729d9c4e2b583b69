/*
 * tty.h - the console as user programs' terminal (/dev/console, /dev/tty, /dev/ttyS0), with
 * the behaviour of Linux's n_tty line discipline that programs rely on (issue 16).
 *
 * One terminal, COM1, shared with the kernel's shell: the shell reads it with its own line
 * editor while no program is in the foreground; `run` makes a program's process group the
 * foreground (tty_give_terminal), and the program then reads it through termios:
 * canonical mode (lines, edited with VERASE and VKILL, echoed with ECHO, VEOF at the start
 * of a line is end of file) or raw mode (ICANON off: bytes as typed, VMIN/VTIME). With ISIG
 * a ^C sends SIGINT to the foreground group at once, from the console's interrupt handler,
 * as n_tty's isig() (unread input is flushed unless NOFLSH; ^C is echoed before the terminal's
 * next output, after what the interrupted program was writing); with ISIG off
 * it is data (busybox ash's line editor reads it so). When the foreground goes
 * to a program or back to the shell, the terminal's settings return to Linux's defaults
 * (tty_std_termios), as a shell restores them after a job.
 *
 * Job control as Linux's, without stopped processes: a process outside the foreground group
 * reads EIO (read, FIONREAD; poll says readable, as the read would not wait), and its
 * changes (TCSETS*, TIOCSWINSZ, TCFLSH) are EIO unless it is in the terminal's session and
 * blocks or ignores SIGTTOU; TIOCSPGRP is ENOTTY then, as Linux answers.
 */
#ifndef KERNEL_FS_TTY_H
#define KERNEL_FS_TTY_H

/* Gives the terminal to process group pgid of session sid, with Linux's default settings
 * (pgid 0: back to the kernel's shell). */
void tty_give_terminal(int pgid, int sid);
/* The foreground process group: the one ^C sends SIGINT to (0: the kernel's shell). */
int tty_foreground_pgrp(void);

#endif
