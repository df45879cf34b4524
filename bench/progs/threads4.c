/* threads4.c: the 4-thread allocation workload of bench "defaults".
   THREADS pthreads (default 4) each do OPS malloc/free pairs of varied sizes
   (mostly small, some medium, a few large) over a small live set of their
   own, from a fixed per-thread seed, so every tool sees the same events in
   each thread.
   Usage: threads4 [ops_per_thread] [threads]   (default 500000 4) */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LIVE 64

struct job { long ops; unsigned long long seed, bytes; };

static void *worker(void *arg)
{
    struct job *j = arg;
    unsigned long long r = j->seed;
    void *live[LIVE] = { 0 };
    for (long i = 0; i < j->ops; i++) {
        r ^= r << 13; r ^= r >> 7; r ^= r << 17;     /* xorshift */
        size_t sz;
        switch (r & 15) {
        case 0:          sz = 4096 + (r >> 8) % 32768; break;
        case 1: case 2:  sz = 256 + (r >> 8) % 2048; break;
        default:         sz = 8 + (r >> 8) % 248; break;
        }
        unsigned slot = (unsigned)(r >> 40) % LIVE;
        free(live[slot]);
        live[slot] = malloc(sz);
        if (!live[slot])
            abort();
        memset(live[slot], (int)i, sz < 64 ? sz : 64);
        j->bytes += sz;
    }
    for (unsigned s = 0; s < LIVE; s++)
        free(live[s]);
    return NULL;
}

int main(int argc, char **argv)
{
    long ops = argc > 1 ? atol(argv[1]) : 500000;
    int n = argc > 2 ? atoi(argv[2]) : 4;
    if (n < 1 || n > 64)
        n = 4;
    pthread_t tid[64];
    struct job jobs[64];
    unsigned long long total = 0;
    for (int t = 0; t < n; t++) {
        jobs[t] = (struct job){ ops, 0x9E3779B97F4A7C15ULL * (unsigned)(t + 1), 0 };
        if (pthread_create(&tid[t], NULL, worker, &jobs[t]) != 0) {
            perror("pthread_create");
            return 1;
        }
    }
    for (int t = 0; t < n; t++) {
        pthread_join(tid[t], NULL);
        total += jobs[t].bytes;
    }
    printf("threads4: %d threads, %ld ops each, %llu bytes\n", n, ops, total);
    return 0;
}
