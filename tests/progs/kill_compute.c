/* kill_compute.c READYFILE [SECONDS]: allocates and frees for about a
   second (so snapshots are culled and spaced out), then marks "compute"
   (MEMTIME_MARK), creates READYFILE and computes without allocating until
   it is killed from outside. Stops by itself after SECONDS (default 60),
   so a broken test cannot leave it running. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "memtime.h"

static void* keep[256];

static double now_s(void)
{
   struct timespec ts;
   clock_gettime(CLOCK_MONOTONIC, &ts);
   return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char** argv)
{
   double end, give_up;
   volatile unsigned long sink = 0;
   FILE* f;
   long i;

   if (argc < 2)
      return 2;
   give_up = now_s() + (argc > 2 ? atof(argv[2]) : 60);
   end = now_s() + 1.0;
   for (i = 0; now_s() < end; i++) {
      free(keep[i % 256]);
      keep[i % 256] = malloc(100 + (size_t)(i * 37) % 4000);
   }
   MEMTIME_MARK("compute");
   f = fopen(argv[1], "w");
   if (f == NULL || fclose(f) != 0)
      return 1;
   while (now_s() < give_up)
      for (i = 0; i < 1000000; i++)
         sink += (unsigned long)i ^ (sink >> 5);
   return (int)(sink & 0);
}
