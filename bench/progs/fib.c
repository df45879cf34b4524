/* fib.c: the call-heavy workload of bench "stacks".
   Naive recursive Fibonacci moves the stack pointer twice per call, which is
   what stack profiling pays for; a little heap churn keeps snapshots coming.
   Usage: fib N [threads]   (threads > 0: each thread computes fib(N) too) */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) static unsigned long fib(int n)
{
    volatile char pad[32];           /* a real frame, not a leaf in registers */
    pad[0] = (char)n;
    if (n < 2)
        return (unsigned long)n + (unsigned long)(pad[0] & 0);
    return fib(n - 1) + fib(n - 2);
}

static void *worker(void *arg)
{
    int n = *(int *)arg;
    unsigned long sum = 0;
    for (int i = 0; i < 4; i++) {
        void *p = malloc(1024 * (size_t)(i + 1));
        sum += fib(n - 2);
        free(p);
    }
    return (void *)sum;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 30;
    int threads = argc > 2 ? atoi(argv[2]) : 0;
    unsigned long total = 0;

    if (threads <= 0) {
        for (int i = 0; i < 4; i++) {
            void *p = malloc(4096 * (size_t)(i + 1));
            total += fib(n - 2);
            free(p);
        }
    } else {
        pthread_t *tid = calloc((size_t)threads, sizeof *tid);
        for (int t = 0; t < threads; t++)
            pthread_create(&tid[t], NULL, worker, &n);
        for (int t = 0; t < threads; t++) {
            void *r;
            pthread_join(tid[t], &r);
            total += (unsigned long)r;
        }
        free(tid);
    }
    printf("fib: %lu\n", total);
    return 0;
}
