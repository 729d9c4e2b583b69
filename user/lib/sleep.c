/*
 * sleep.c - sleep() and usleep() on top of nanosleep().
 */
#include <errno.h>
#include <time.h>
#include <unistd.h>

/* There are no signals to interrupt a sleep, so the whole time always passes; on any other
 * failure the full time counts as not slept, as POSIX lets sleep() report. */
unsigned int sleep(unsigned int seconds)
{
    struct timespec t = { (int32_t)seconds, 0 };
    return nanosleep(&t, 0) == 0 ? 0 : seconds;
}

/* POSIX allows EINVAL for a million microseconds or more; Linux's glibc accepts any value,
 * and so does this. */
int usleep(useconds_t usec)
{
    struct timespec t = { (int32_t)(usec / 1000000u), (int32_t)(usec % 1000000u) * 1000 };
    return nanosleep(&t, 0);
}
