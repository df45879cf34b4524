/* heap_c.c: exercises every C allocation entry point memtime replaces, for
   the Massif-agreement tests: malloc, calloc, realloc (NULL, grow in
   place, grow by moving, shrink, to 0), free, memalign, posix_memalign,
   aligned_alloc, valloc, malloc_usable_size, zero-size and huge (failing)
   requests, an --ignore-fn target and a custom allocator reporting its
   blocks with VALGRIND_MALLOCLIKE/FREELIKE/RESIZEINPLACE_BLOCK.
   Sizes are fixed so both tools see the same events. */
#include <malloc.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <valgrind/valgrind.h>

/* Kept so the compiler cannot drop an allocation. */
static void* volatile sink;

/* A bump allocator over one malloc'd arena, reported to the tool. */
static char* arena;
static size_t arena_used;
static void* pool_alloc(size_t n)
{
   void* p = arena + arena_used;
   arena_used += (n + 15) & ~(size_t)15;
   VALGRIND_MALLOCLIKE_BLOCK(p, n, 0, 0);
   return p;
}
static void pool_resize(void* p, size_t old_n, size_t new_n)
{
   VALGRIND_RESIZEINPLACE_BLOCK(p, old_n, new_n, 0);
}
static void pool_free(void* p)
{
   VALGRIND_FREELIKE_BLOCK(p, 0);
}

/* Allocations made here are dropped with --ignore-fn=ignored_alloc. */
__attribute__((noinline)) static void* ignored_alloc(size_t n)
{
   return malloc(n);
}

__attribute__((noinline)) static void* leaf_alloc(size_t n)
{
   return malloc(n);
}
__attribute__((noinline)) static void* mid_alloc(size_t n)
{
   return leaf_alloc(n);
}

int main(void)
{
   void *a, *b, *c, *d, *e, *f, *g, *h, *z, *q;
   size_t i;
   volatile size_t big_n = (size_t)1 << 40;

   a = malloc(1000);
   b = calloc(10, 100);
   c = realloc(NULL, 200);          /* malloc */
   c = realloc(c, 204);             /* fits the slop: in place */
   c = realloc(c, 5000);            /* moves */
   c = realloc(c, 100);             /* shrinks in place */
   d = memalign(64, 300);
   if (posix_memalign(&e, 256, 700) != 0) return 1;
   f = aligned_alloc(128, 1024);
   g = valloc(333);
   z = malloc(0);                   /* costs only extra bytes */
   sink = malloc((size_t)-1 / 2);   /* huge: fails */
   sink = calloc(big_n, big_n);     /* product overflows: fails */
   /* (A failing realloc is in heap_realloc_fail.c: Massif 3.19 loses the
      block's record there, so the programs compared with it avoid one.) */
   printf("usable %zu\n", malloc_usable_size(b) >= 1000);

   h = ignored_alloc(4000);
   h = realloc(h, 8000);            /* realloc of an ignored block */

   for (i = 0; i < 40; i++) {       /* a burst through a deeper stack */
      q = mid_alloc(100 + i * 10);
      if (i % 3) free(q);
   }

   arena = malloc(1 << 16);
   q = pool_alloc(2000);
   sink = pool_alloc(300);
   pool_resize(q, 2000, 3000);
   pool_resize(q, 3000, 500);
   pool_free(q);

   c = realloc(c, 0);               /* frees */
   free(a); free(b); free(d); free(e); free(f); free(g); free(z); free(h);
   free(NULL);
   sink = malloc(50);               /* something live at exit */
   free(arena);
   return 0;
}
