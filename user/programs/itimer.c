/*
 * itimer.c - SIGALRM's timer as a program uses it, for the timer/ events
 * (tests/shell/timer_events.script): setitimer(ITIMER_REAL) every MS ms, COUNT SIGALRMs
 * taken in pause(), the timer stopped; then alarm(5) taken back at once with alarm(0).
 *
 * Usage: itimer [MS [COUNT]]   (defaults 20 ms, 3 times)
 * Prints  itimer: pid P took COUNT SIGALRM every MS ms
 *         itimer: alarm(0) left S s
 * and exits 0 (1, with perror's message, if a call fails).
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/time.h>
#include <unistd.h>

static volatile int alarms;

static void on_alarm(int sig)
{
    (void)sig;
    alarms++;
}

int main(int argc, char **argv)
{
    int ms = argc > 1 ? atoi(argv[1]) : 20;
    int count = argc > 2 ? atoi(argv[2]) : 3;
    struct sigaction sa = { 0 };
    sa.sa_handler = on_alarm;
    if (sigaction(SIGALRM, &sa, 0) < 0) {
        perror("itimer: sigaction");
        return 1;
    }
    struct itimerval every = { { ms / 1000, ms % 1000 * 1000 }, { ms / 1000, ms % 1000 * 1000 } };
    struct itimerval off = { { 0, 0 }, { 0, 0 } };
    if (setitimer(ITIMER_REAL, &every, 0) < 0) {
        perror("itimer: setitimer");
        return 1;
    }
    while (alarms < count)
        pause(); /* the next period wakes it, should a signal come before the pause */
    if (setitimer(ITIMER_REAL, &off, 0) < 0) {
        perror("itimer: setitimer");
        return 1;
    }
    printf("itimer: pid %d took %d SIGALRM every %d ms\n", getpid(), alarms, ms);
    alarm(5);
    printf("itimer: alarm(0) left %u s\n", alarm(0));
    return 0;
}
