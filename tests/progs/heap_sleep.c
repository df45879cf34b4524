/* heap_sleep.c: allocates 100000 bytes, then stays alive without
   allocating (three 150 ms sleeps), allocates 2000 more and exits: with
   --time-unit=ms the timeline must show the sleeps (sampling) and reach
   past the last allocation (the final snapshot). */
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
   sink = malloc(2000);
   return 0;
}
