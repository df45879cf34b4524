/* Allocates 1 MiB chunks, one per step, up to argv[1] steps (default
   1000), printing each step; a NULL is printed with its step and the loop
   goes on until the third one, so a test sees the refusals after the first.
   Known by construction: after step N the heap holds N MiB from grab(),
   plus stdout's buffer. Used by t590-heap-limit.sh. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void* grab(size_t n)
{
    return malloc(n);
}

int main(int argc, char** argv)
{
    int failures = 0;
    int steps = argc > 1 ? atoi(argv[1]) : 1000;
    for (int step = 1; step <= steps; step++) {
        char* p = grab(1 << 20);
        if (p == NULL) {
            printf("NULL at step %d\n", step);
            fflush(stdout);
            if (++failures == 3)
                return 0;
            continue;
        }
        memset(p, 1, 64);
        printf("step %d\n", step);
        fflush(stdout);
    }
    return 0;
}
