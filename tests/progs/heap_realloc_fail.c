/* heap_realloc_fail.c: a realloc that fails must leave the old block live
   and freeable. Massif 3.19 drops the block from its table but keeps its
   bytes counted, so its heap never returns to zero here; memtime's does. */
#include <stdlib.h>

static void* volatile sink;

int main(void)
{
   char* a = malloc(1000);
   sink = realloc(a, (size_t)-1 / 2);   /* fails: a is untouched */
   free(a);                             /* the heap is empty again */
   sink = malloc(10);
   free(sink);
   return 0;
}
