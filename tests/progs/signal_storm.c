/* signal_storm.c CTLDIR: creates CTLDIR/ready once its SIGUSR1 handler is
   in place, then counts SIGUSR1s (the handler only counts) while
   allocating and freeing over a wide tree (256 call stacks), until the
   file CTLDIR/stop appears; then prints "signals: N" and exits 0. A
   storm of signals sent from outside lands during memtime's rewrites.
   Stops by itself after 600 s. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t n_signals;
static void* slots[4096];

static void on_usr1(int sig)
{
   (void)sig;
   n_signals++;
}

static void* grow(int depth, unsigned path, size_t n)
{
   if (depth == 0)
      return malloc(n);
   switch (path % 4) {
   case 0:  return grow(depth - 1, path / 4, n);
   case 1:  return grow(depth - 1, path / 4, n);
   case 2:  return grow(depth - 1, path / 4, n);
   default: return grow(depth - 1, path / 4, n);
   }
}

int main(int argc, char** argv)
{
   char stop[4096], ready[4096];
   struct sigaction sa;
   time_t end = time(NULL) + 600;
   unsigned step = 0;

   if (argc != 2)
      return 2;
   snprintf(stop, sizeof stop, "%s/stop", argv[1]);
   sa.sa_handler = on_usr1;
   sigemptyset(&sa.sa_mask);
   sa.sa_flags = SA_RESTART;
   sigaction(SIGUSR1, &sa, NULL);
   /* Ready for signals: says so with the file CTLDIR/ready. */
   snprintf(ready, sizeof ready, "%s/ready", argv[1]);
   fclose(fopen(ready, "w"));
   while (time(NULL) < end) {
      unsigned i = (step * 2654435761u) % 4096;
      free(slots[i]);
      slots[i] = grow(4, step, 16 + step % 512);
      if (++step % 256 == 0 && access(stop, F_OK) == 0)
         break;
   }
   printf("signals: %d\n", (int)n_signals);
   return 0;
}
