/* stack_fib.c: a call-heavy program (naive Fibonacci) with a few allocations,
   to measure what --stacks=yes costs: nearly every instruction block moves
   the stack pointer. Usage: stack_fib [n]   (default 27) */
#include <stdio.h>
#include <stdlib.h>

static long fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 27;
    long total = 0;
    int i;
    for (i = 0; i < 8; i++) {
        char *p = malloc(1000 * (i + 1));
        total += fib(n - 3);
        free(p);
    }
    printf("%ld\n", total);
    return 0;
}
