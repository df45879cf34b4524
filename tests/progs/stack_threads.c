/* stack_threads.c: four threads whose stacks reach very different depths at
   the same moment (a barrier holds each at its deepest point), plus the main
   thread's own recursion. Thread k (1..4) recurses k*K levels of ~1 KB, the
   main thread M levels. Each thread allocates at its deepest point, so both
   Massif and memtime see the combined peak. Each thread names itself
   "deep-<levels>" so a test can match the per-thread sizes to the depths.
   Usage: stack_threads [K] [M]   (defaults 100, 50) */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N_THREADS 4
static pthread_barrier_t at_bottom, may_return;

static int recurse(int depth)
{
    volatile char frame[1000];
    memset((char *)frame, depth & 0xff, sizeof frame);
    if (depth == 0) {
        char *p;
        pthread_barrier_wait(&at_bottom);    /* everyone at its deepest */
        p = malloc(100);                     /* a snapshot chance for Massif */
        free(p);
        pthread_barrier_wait(&may_return);
        return frame[3];
    }
    return recurse(depth - 1) + frame[depth % sizeof frame];
}

static void *thread_main(void *arg)
{
    int levels = (int)(long)arg;
    char name[16];
    snprintf(name, sizeof name, "deep-%d", levels);
    pthread_setname_np(pthread_self(), name);
    return (void *)(long)recurse(levels);
}

int main(int argc, char **argv)
{
    int k = argc > 1 ? atoi(argv[1]) : 100;
    int m = argc > 2 ? atoi(argv[2]) : 50;
    pthread_t t[N_THREADS];
    pthread_attr_t attr;
    long i, sum = 0;
    void *r;

    pthread_barrier_init(&at_bottom, NULL, N_THREADS + 1);
    pthread_barrier_init(&may_return, NULL, N_THREADS + 1);
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, 8 << 20);
    for (i = 0; i < N_THREADS; i++)
        pthread_create(&t[i], &attr, thread_main, (void *)((i + 1) * k));
    sum += recurse(m);
    for (i = 0; i < N_THREADS; i++) {
        pthread_join(t[i], &r);
        sum += (long)r;
    }
    free(malloc(10));                        /* a snapshot after the joins */
    printf("%ld\n", sum & 1);
    return 0;
}
