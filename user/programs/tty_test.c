/*
 * tty_test.c - the console as a terminal, typed at (tests/shell/tty.sh types the keys):
 * canonical mode with VERASE and VKILL, ^D at the start of a line as end of file, raw mode
 * with ISIG off (^C is a byte), VMIN 0 / VTIME's timeout, poll() waiting for a line, and a
 * blocking read that ^C ends with SIGINT (the shell says "Interrupt (signal 2)").
 * Each step prints "tty_test: STEP" when it waits for keys, and what it read as
 * "tty_test: read N: BYTES" (bytes in hex), so the script knows when to type and the
 * log shows what arrived.
 */
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

/* Prints what a read returned: its count and the bytes in hex. */
static void show(long n, const unsigned char *buf)
{
    char line[200];
    int at = snprintf(line, sizeof line, "tty_test: read %ld:", n);
    for (long i = 0; i < n && at < (int)sizeof line - 4; i++)
        at += snprintf(line + at, sizeof line - (size_t)at, " %02x", buf[i]);
    printf("%s\r\n", line);
}

int main(void)
{
    unsigned char buf[100];
    struct termios cooked, raw;
    tcgetattr(0, &cooked);

    printf("tty_test: type a line\n");
    show(read(0, buf, sizeof buf), buf);
    printf("tty_test: type a killed line\n");
    show(read(0, buf, sizeof buf), buf);
    printf("tty_test: type ^D\n");
    show(read(0, buf, sizeof buf), buf);

    raw = cooked;
    cfmakeraw(&raw);
    tcsetattr(0, TCSANOW, &raw);
    printf("tty_test: raw, 3 bytes\r\n");
    long got = 0;
    while (got < 3) {
        long n = read(0, buf + got, 1);
        if (n <= 0)
            break;
        got += n;
    }
    show(got, buf);
    raw.c_cc[VMIN] = 0;
    raw.c_cc[VTIME] = 2;
    tcsetattr(0, TCSANOW, &raw);
    printf("tty_test: VTIME wait\r\n");
    show(read(0, buf, sizeof buf), buf);
    tcsetattr(0, TCSANOW, &cooked);

    struct pollfd p = { 0, POLLIN, 0 };
    printf("tty_test: poll\n");
    int ready = poll(&p, 1, 10000);
    printf("tty_test: poll says %d, revents 0x%x\n", ready, p.revents);
    show(read(0, buf, sizeof buf), buf);

    printf("tty_test: blocking read, ^C ends it\n");
    long n = read(0, buf, sizeof buf);
    printf("tty_test: the read returned %ld\n", n);
    return 1;
}
