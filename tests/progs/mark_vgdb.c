/* mark_vgdb.c STOPFILE: a program for monitor-command tests. Allocates
   100 KB, creates STOPFILE.ready holding its pid (the pid vgdb needs: the
   program and Valgrind are one process; written under another name and
   renamed, so a reader never sees half of it), then computes (so
   Valgrind's gdbserver polls for vgdb requests without needing ptrace)
   until STOPFILE exists,
   allocates 50 KB more and exits. Gives up after 900 s, so a broken test
   cannot leave it running (long enough that load never ends it first). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double now_s(void)
{
   struct timespec ts;
   clock_gettime(CLOCK_MONOTONIC, &ts);
   return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char** argv)
{
   char ready[4096], tmp[4096];
   volatile unsigned long sink = 0;
   void *a, *b;
   double give_up = now_s() + 900;
   FILE* f;
   long i;

   if (argc != 2 || strlen(argv[1]) > sizeof ready - 16)
      return 2;
   a = malloc(100000);
   snprintf(ready, sizeof ready, "%s.ready", argv[1]);
   snprintf(tmp, sizeof tmp, "%s.ready.tmp", argv[1]);
   f = fopen(tmp, "w");
   if (f == NULL || fprintf(f, "%d\n", (int)getpid()) < 0 || fclose(f) != 0
       || rename(tmp, ready) != 0)
      return 1;
   while (access(argv[1], F_OK) != 0 && now_s() < give_up)
      for (i = 0; i < 200000; i++)
         sink += (unsigned long)i ^ (sink >> 3);
   b = malloc(50000);
   free(a);
   free(b);
   return (int)(sink & 0);
}
