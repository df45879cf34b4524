/* malloc_loop.c: the allocation-heavy loop of bench "clock": nothing but
   malloc and free of small blocks (a few live at a time), so the cost per
   allocation event, where the ms clock is consulted, is all there is.
   Usage: malloc_loop [iterations]   (default 2000000) */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 2000000, i;
    void *live[4] = { 0 };
    for (i = 0; i < n; i++) {
        free(live[i & 3]);
        live[i & 3] = malloc(16 + (size_t)(i & 255));
    }
    for (i = 0; i < 4; i++)
        free(live[i]);
    printf("%ld\n", n);
    return 0;
}
