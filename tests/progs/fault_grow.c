/* fault_grow.c CTLDIR: allocates a little more at every step (one block of
   a new size, kept), sleeping 1 ms between steps (a wait before which
   memtime brings its profile up to date), until the file CTLDIR/stop
   appears; then frees everything and exits 0. With --detailed-freq=1 the
   profile grows by a detailed snapshot per step, so the tests can fill a
   small file system with it. Stops by itself after 600 s so a broken test
   cannot leave it running. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#define MAX_BLOCKS 100000

static void* blocks[MAX_BLOCKS];

int main(int argc, char** argv)
{
   char stop[4096];
   struct timespec ms = { 0, 1000 * 1000 };
   time_t end = time(NULL) + 600;
   int n = 0, i;

   if (argc != 2)
      return 2;
   snprintf(stop, sizeof stop, "%s/stop", argv[1]);
   while (access(stop, F_OK) != 0 && n < MAX_BLOCKS && time(NULL) < end) {
      blocks[n] = malloc(100 + n);
      n++;
      nanosleep(&ms, NULL);
   }
   for (i = 0; i < n; i++)
      free(blocks[i]);
   return 0;
}
