/* mark_client.c: phases named with MEMTIME_MARK and detailed snapshots
   asked for with MEMTIME_SNAPSHOT. Prints each request's result, so a test
   can see 1 under memtime and 0 natively. Phases: "load" allocates 300 KB,
   a snapshot is requested, "compute" runs ~200 ms without allocating,
   "prune" frees half, a snapshot is requested; then labels that test the
   edges: one with a newline inside, an empty one, and a NULL pointer. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "memtime.h"

static void* blocks[30];

static double now_s(void)
{
   struct timespec ts;
   clock_gettime(CLOCK_MONOTONIC, &ts);
   return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(void)
{
   int i;
   volatile unsigned long sink = 0;
   double end;

   printf("mark load %d\n", MEMTIME_MARK("load: 300 KB in 30 blocks"));
   for (i = 0; i < 30; i++)
      blocks[i] = malloc(10000);
   printf("snapshot %d\n", MEMTIME_SNAPSHOT());

   printf("mark compute %d\n", MEMTIME_MARK("compute"));
   end = now_s() + 0.2;
   while (now_s() < end)
      for (i = 0; i < 100000; i++)
         sink += (unsigned long)i * i;

   printf("mark prune %d\n", MEMTIME_MARK("prune"));
   for (i = 0; i < 15; i++)
      free(blocks[i]);
   printf("snapshot %d\n", MEMTIME_SNAPSHOT());

   printf("mark newline %d\n", MEMTIME_MARK("two\nlines"));
   printf("mark empty %d\n", MEMTIME_MARK(""));
   printf("mark null %d\n", MEMTIME_MARK((const char*)0));
   for (i = 15; i < 30; i++)
      free(blocks[i]);
   return (int)(sink & 0);
}
