/* kill_grow.c [SECONDS [DEPTH]]: a program that grows until it is killed from
   outside (the tests send SIGKILL, as the OOM killer does), with a wide
   allocation tree so every detailed snapshot is big: allocations come from
   8^DEPTH distinct call stacks (grow() recurses DEPTH levels, 1 to 6,
   default 4, through one of eight call sites per level). It keeps up to 16384 blocks live,
   replacing one at random at each step, and holds a little more memory
   every round; each round begins with a phase mark. Stops by itself after
   SECONDS (default 60), so a broken test cannot leave it running. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "memtime.h"

#define LIVE 16384

static void* live[LIVE];

static void* grow(int depth, unsigned path, size_t n)
{
   void* p;
   if (depth == 0)
      return malloc(n);
   /* One call site per case: eight distinct return addresses per level. */
   switch (path % 8) {
   case 0:  p = grow(depth - 1, path / 8, n); break;
   case 1:  p = grow(depth - 1, path / 8, n); break;
   case 2:  p = grow(depth - 1, path / 8, n); break;
   case 3:  p = grow(depth - 1, path / 8, n); break;
   case 4:  p = grow(depth - 1, path / 8, n); break;
   case 5:  p = grow(depth - 1, path / 8, n); break;
   case 6:  p = grow(depth - 1, path / 8, n); break;
   default: p = grow(depth - 1, path / 8, n); break;
   }
   return p;
}

static double now_s(void)
{
   struct timespec ts;
   clock_gettime(CLOCK_MONOTONIC, &ts);
   return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char** argv)
{
   double end = now_s() + (argc > 1 ? atof(argv[1]) : 60);
   unsigned long long r = 88172645463325252ULL;
   int depth = argc > 2 ? atoi(argv[2]) : 4;
   unsigned sites = 1, round;
   long i;

   if (depth < 1 || depth > 6)
      return 2;
   for (i = 0; i < depth; i++)
      sites *= 8;

   for (round = 0; now_s() < end; round++) {
      char label[32];
      snprintf(label, sizeof label, "round %u", round);   /* no malloc */
      MEMTIME_MARK(label);
      for (i = 0; i < 20000; i++) {
         unsigned slot;
         r ^= r << 13; r ^= r >> 7; r ^= r << 17;
         slot = (unsigned)(r % LIVE);
         free(live[slot]);
         /* Sizes grow with the round: memory keeps growing. */
         live[slot] = grow(depth, (unsigned)(r >> 20) % sites,
                           16 + (size_t)(r >> 40) % 64 + round * 8);
      }
   }
   return 0;
}
