/* heap_crash.c segv|abort|kill: allocates, then dies: of SIGSEGV, of abort(),
   or (kill) after allocating for about a second and a half (and at least
   200000 times), of SIGKILL,
   which no exit handler sees. The profile must survive each death. */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static void* volatile keep[64];

static double now_s(void)
{
   struct timespec ts;
   clock_gettime(CLOCK_MONOTONIC, &ts);
   return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char** argv)
{
   const char* how = argc > 1 ? argv[1] : "segv";
   int i;
   for (i = 0; i < 64; i++)
      keep[i] = malloc(1000 + i * 100);
   if (strcmp(how, "kill") == 0) {
      double end = now_s() + 1.5;
      /* At least 200000 rounds too: memtime reads its clock (and so
         rewrites the profile) every 50000 blocks run, so however little
         CPU a loaded machine gives the program, a periodic rewrite has
         happened before the kill. */
      for (i = 0; now_s() < end || i < 200000; i++) {
         free(keep[i % 64]);
         keep[i % 64] = malloc(500 + (i * 37) % 5000);
      }
      kill(getpid(), SIGKILL);
   } else if (strcmp(how, "abort") == 0) {
      abort();
   } else {
      *(volatile int*)(void*)16 = 1;
   }
   return 0;
}
