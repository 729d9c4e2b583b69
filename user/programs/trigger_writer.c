/*
 * trigger_writer.c - writes of lengths the caller chooses, for the trigger tests
 * (tests/shell/triggers.script): each argument N becomes one write(1, ...) of N bytes
 * (N-1 dots and a newline), so sys_enter_write's count field names the write a trigger's
 * filter picks.
 *
 * Usage: trigger_writer N... (1 <= N <= 64). Prints nothing else; errors: exit status 1.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    char line[64];
    for (int i = 1; i < argc; i++) {
        int n = atoi(argv[i]);
        if (n < 1 || n > (int)sizeof line)
            return 1;
        memset(line, '.', (size_t)n - 1);
        line[n - 1] = '\n';
        if (write(1, line, (size_t)n) != n)
            return 1;
    }
    return 0;
}
