/* threads64.c: 64 threads allocate at once (a barrier releases them
   together): each keeps 10 blocks of 1000 + t bytes (t = its number, 0 to
   63) from thread_alloc() and frees 10 others; main joins them and exits
   with the blocks live. By construction thread_alloc holds
   10 * (64 * 1000 + 0 + 1 + ... + 63) = 660160 bytes at the end. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define N_THREADS 64
#define N_KEPT    10

static pthread_barrier_t start;
static void* kept[N_THREADS][N_KEPT];

static void* __attribute__((noinline)) thread_alloc(size_t n)
{
   void* p = malloc(n);
   memset(p, 0, n);
   return p;
}

static void* run(void* arg)
{
   long t = (long)arg;
   int i;
   pthread_barrier_wait(&start);
   for (i = 0; i < N_KEPT; i++) {
      void* tmp = malloc(500 + t);
      kept[t][i] = thread_alloc(1000 + t);
      free(tmp);
   }
   return NULL;
}

int main(void)
{
   pthread_t th[N_THREADS];
   long t;
   pthread_barrier_init(&start, NULL, N_THREADS);
   for (t = 0; t < N_THREADS; t++)
      if (pthread_create(&th[t], NULL, run, (void*)t) != 0)
         return 1;
   for (t = 0; t < N_THREADS; t++)
      pthread_join(th[t], NULL);
   return 0;
}
