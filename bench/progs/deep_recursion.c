/* deep_recursion.c: the deep-recursion workload of bench "defaults" (issue
   13's --stacks=yes target). ROUNDS times, it recurses to a depth between
   DEPTH/2 and DEPTH (a real ~100-byte frame per level, so the stack reaches
   megabytes), allocating a small block every 64 levels and freeing it on the
   way back up: the stack and the heap both rise and fall every round.
   Usage: deep_recursion [rounds] [depth]   (default 200 40000) */
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) static unsigned long descend(int level, int depth)
{
    volatile char pad[64];           /* a real frame, not a leaf in registers */
    void *p = NULL;
    unsigned long sum;
    pad[0] = (char)level;
    if (level % 64 == 0)
        p = malloc(32 + (size_t)(level % 512));
    sum = level < depth ? descend(level + 1, depth) : 0;
    free(p);
    return sum + (unsigned char)pad[0];   /* work after the call: no tail call */
}

int main(int argc, char **argv)
{
    int rounds = argc > 1 ? atoi(argv[1]) : 200;
    int depth = argc > 2 ? atoi(argv[2]) : 40000;
    unsigned long total = 0;
    if (depth < 2)
        depth = 2;
    for (int r = 0; r < rounds; r++)
        total += descend(0, depth / 2 + (int)((unsigned)r * 7919u % (unsigned)(depth / 2)));
    printf("deep_recursion: %lu\n", total);
    return 0;
}
