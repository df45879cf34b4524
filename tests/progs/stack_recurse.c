/* stack_recurse.c: a deep recursion that allocates nothing, between two
   allocations. The stack peak (about DEPTH x 1 KB) is reached while no
   snapshot can be taken, so only an honest low-water mark reports it.
   Usage: stack_recurse [depth]   (default 2000) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int recurse(int depth)
{
    volatile char frame[1000];          /* ~1 KB per level, not optimised away */
    memset((char *)frame, depth & 0xff, sizeof frame);
    if (depth == 0)
        return frame[10];
    return recurse(depth - 1) + frame[depth % sizeof frame];
}

int main(int argc, char **argv)
{
    int depth = argc > 1 ? atoi(argv[1]) : 2000;
    char *before = malloc(1000);
    int r = recurse(depth);
    char *after = malloc(2000);         /* first snapshot after the recursion */
    free(before);
    free(after);
    printf("%d\n", r & 1);
    return 0;
}
