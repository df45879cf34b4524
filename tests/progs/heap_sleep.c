/* heap_sleep.c: allocates, then stays alive without allocating (three
   150 ms sleeps), then exits: with --time-unit=ms the timeline must reach
   past the last allocation (sampling and the final snapshot). */
#include <stdlib.h>
#include <time.h>

static void* volatile sink;

int main(void)
{
   struct timespec ts = { 0, 150 * 1000 * 1000 };
   int i;
   sink = malloc(100000);
   for (i = 0; i < 3; i++)
      nanosleep(&ts, NULL);
   return 0;
}
