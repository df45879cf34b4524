/* alloc_usable.c: blocks of odd sizes through every kind of entry point
   (malloc, calloc, realloc growing and shrinking, aligned, C library or
   jemalloc), then a snapshot, then the program's own count: the bytes it
   asked for and the usable bytes its allocator gave beyond them
   (malloc_usable_size), on one line:
     requested=<B> beyond=<B> blocks=<n>
   Under --allocator=program with --heap-admin=0, memtime's snapshot must
   hold exactly these as mem_heap_B and mem_heap_extra_B. Built against
   jemalloc with -DJE_PREFIX=_rjem_ it calls the prefixed API. */
#include <stdio.h>
#include <stdlib.h>
#include <malloc.h>
#include "memtime.h"

#ifdef JE_PREFIX
#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)
#define J(fn) CAT(JE_PREFIX, fn)
void* J(malloc)(size_t);
void* J(calloc)(size_t, size_t);
void* J(realloc)(void*, size_t);
void* J(aligned_alloc)(size_t, size_t);
size_t J(malloc_usable_size)(void*);
#define MALLOC J(malloc)
#define CALLOC J(calloc)
#define REALLOC J(realloc)
#define ALIGNED_ALLOC J(aligned_alloc)
#define USABLE J(malloc_usable_size)
#else
#define MALLOC malloc
#define CALLOC calloc
#define REALLOC realloc
#define ALIGNED_ALLOC aligned_alloc
#define USABLE malloc_usable_size
#endif

#define N 60

int main(void)
{
   static void* p[N];
   static size_t req[N];
   size_t i, requested = 0, beyond = 0;
   for (i = 0; i < N; i++) {
      size_t n = 13 + i * 37 + (i % 7) * 1001;
      switch (i % 5) {
      case 0: p[i] = MALLOC(n); break;
      case 1: p[i] = CALLOC(3, n); n *= 3; break;
      case 2: p[i] = REALLOC(MALLOC(n / 2 + 1), n); break;      /* grows */
      case 3: p[i] = REALLOC(MALLOC(n * 2), n); break;          /* shrinks */
      case 4: n = (n + 63) & ~(size_t)63; p[i] = ALIGNED_ALLOC(64, n); break;
      }
      if (p[i] == NULL) return 1;
      req[i] = n;
   }
   MEMTIME_SNAPSHOT();
   for (i = 0; i < N; i++) {
      requested += req[i];
      beyond += USABLE(p[i]) - req[i];
   }
   printf("requested=%zu beyond=%zu blocks=%d\n", requested, beyond, N);
   return 0;
}
