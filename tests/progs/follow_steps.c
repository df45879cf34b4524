/* follow_steps.c DIR STEPS: a program whose pace the test sets, for
   --follow (t680-t682). Step i (1..STEPS) waits for the file DIR/go.i, then
   adds one MiB to a table held by grow_table() (the top site), marks
   "step i" and creates DIR/done.i. A second site, keep_buffer(), holds
   100 KiB from the start. After the last step it waits for DIR/go.end,
   frees the table and exits with status 3. The files are polled (every
   10 ms): the program never depends on how long anything takes. Stops by
   itself, status 1, if a file does not come within 600 s. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "memtime.h"

#define MIB (1024 * 1024)

static char* table[64];

static void* grow_table(size_t n)
{
   char* p = malloc(n);
   memset(p, 1, n);
   return p;
}

static void* keep_buffer(size_t n)
{
   char* p = malloc(n);
   memset(p, 2, n);
   return p;
}

static int wait_for(const char* dir, const char* name)
{
   char path[4096];
   int i;
   snprintf(path, sizeof path, "%s/%s", dir, name);
   for (i = 0; i < 60000; i++) {
      struct timespec ts = { 0, 10 * 1000 * 1000 };
      if (access(path, F_OK) == 0)
         return 0;
      nanosleep(&ts, NULL);
   }
   fprintf(stderr, "follow_steps: %s never came\n", path);
   return -1;
}

static void touch(const char* dir, const char* name)
{
   char path[4096];
   FILE* f;
   snprintf(path, sizeof path, "%s/%s", dir, name);
   f = fopen(path, "w");
   if (f)
      fclose(f);
}

int main(int argc, char** argv)
{
   const char* dir = argc > 1 ? argv[1] : ".";
   int steps = argc > 2 ? atoi(argv[2]) : 3, i;
   char name[64], label[64];
   void* keep = keep_buffer(100 * 1024);
   if (steps < 1 || steps > 64)
      return 2;
   for (i = 1; i <= steps; i++) {
      snprintf(name, sizeof name, "go.%d", i);
      if (wait_for(dir, name) != 0)
         return 1;
      table[i - 1] = grow_table(MIB);
      snprintf(label, sizeof label, "step %d", i);
      MEMTIME_MARK(label);
      snprintf(name, sizeof name, "done.%d", i);
      touch(dir, name);
   }
   if (wait_for(dir, "go.end") != 0)
      return 1;
   for (i = 0; i < steps; i++)
      free(table[i]);
   free(keep);
   return 3;
}
