/* hostile_alloc.cc: allocation calls a careless or hostile program makes,
   each between ordinary allocations so every effect shows in the snapshot
   list: malloc(SIZE_MAX), calloc whose count * size overflows, malloc(0),
   realloc(NULL, n), realloc(p, 0), free of a pointer never allocated (on
   the stack, and inside a live block), double free, memalign /
   posix_memalign / aligned_alloc with alignments that are not powers of
   two or are zero, and zero-sized new[] / new. Prints what each returned
   (NULL or not, the posix_memalign status), so a run under a tool can be
   compared with the same program's answers under another. The bogus frees
   (a stack address, a pointer inside a live block, a block freed twice)
   are made only with the argument "bogus": Massif 3.19 itself dies of
   them (an assertion in the core's arena), so the comparison with Massif
   runs without them. */
/* The calls are hostile on purpose: no compiler warnings about them. */
#pragma GCC diagnostic ignored "-Walloc-size-larger-than="
#pragma GCC diagnostic ignored "-Wfree-nonheap-object"
#pragma GCC diagnostic ignored "-Wuse-after-free"
#pragma GCC diagnostic ignored "-Wpragmas"
#include <malloc.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static void* volatile sink;
void* hostile_keep[64];   /* not static: kept, and seen as used */

static void step(void)
{
   static int n;
   hostile_keep[n % 64] = malloc(1000 + n);   /* an ordinary event between two */
   n++;
}

static void say(const char* what, const void* p)
{
   printf("%s: %s\n", what, p ? "block" : "NULL");
}

int main(int argc, char** argv)
{
   char on_stack[16];
   void* p;
   void* q;
   int rc;
   int bogus = argc > 1 && argv[1][0] == 'b';

   step();
   p = malloc(SIZE_MAX);                 say("malloc(SIZE_MAX)", p);
   step();
   p = calloc(SIZE_MAX / 2 + 1, 2);      say("calloc overflowing", p);
   step();
   p = calloc(2, SIZE_MAX / 2 + 1);      say("calloc overflowing, swapped", p);
   step();
   q = malloc(0);                        say("malloc(0)", q);
   free(q);
   step();
   p = realloc(NULL, 300);               say("realloc(NULL, 300)", p);
   step();
   q = realloc(p, 0);                    say("realloc(p, 0)", q);
   free(q);
   step();
   if (bogus)
      free(on_stack);                    /* never allocated */
   step();
   p = malloc(500);
   if (bogus)
      free((char*)p + 16);               /* inside a live block */
   step();
   free(p);
   if (bogus)
      free(p);                           /* twice */
   step();
   p = memalign(3, 200);                 say("memalign(3, 200)", p);
   free(p);
   step();
   p = memalign(0, 200);                 say("memalign(0, 200)", p);
   free(p);
   step();
   q = NULL;
   rc = posix_memalign(&q, 3, 200);      printf("posix_memalign(3): %d\n", rc);
   step();
   rc = posix_memalign(&q, 0, 200);      printf("posix_memalign(0): %d\n", rc);
   step();
   rc = posix_memalign(&q, 24, 200);     printf("posix_memalign(24): %d\n", rc);
   step();
   p = aligned_alloc(3, 200);            say("aligned_alloc(3, 200)", p);
   free(p);
   step();
   p = aligned_alloc(64, 100);           say("aligned_alloc(64, 100)", p);
   free(p);
   step();
   {
      char* a = new char[0];
      int* b = new int[0];
      char* c = new char;
      sink = a;
      step();
      delete[] a;
      delete[] b;
      delete c;
   }
   step();
   return 0;
}
