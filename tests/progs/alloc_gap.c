/* alloc_gap.c: programs whose resident memory parts from their live heap by
 * construction, inside the allocator, for --allocator=program (t411).
 *
 *   alloc_gap batch   30 MiB live in 4 KiB blocks, then a 160 MiB batch of
 *                     4 KiB blocks, every page written, then the batch
 *                     freed: the allocator keeps the batch's pages (jemalloc:
 *                     dirty until its decay purges them; how long depends on
 *                     MALLOC_CONF's dirty_decay_ms). Built against jemalloc
 *                     (-ljemalloc, or -DJE_PREFIX=_rjem_ with a renamed copy
 *                     linked in) it runs there; built with -DUSE_MIMALLOC
 *                     (-lmimalloc) on mimalloc's mi_malloc and mi_free;
 *                     linked with -ltcmalloc_minimal on tcmalloc, which
 *                     replaces malloc and free (-DUSE_TCMALLOC checks that
 *                     the program runs on it); else on glibc.
 *   alloc_gap batch hold
 *                     the same, then the program runs on after the free:
 *                     160 MiB more in 4 KiB blocks, each freed at once (the
 *                     allocator reuses its freed pages), marked "held", so
 *                     the gap lasts half the run in allocated bytes (t414's
 *                     chart, drawn with --time-unit=B).
 *   alloc_gap holes   glibc: 160 MiB of 8 KiB blocks with 30 MiB of live ones
 *                     among them (3 live after every 16), the 160 MiB freed:
 *                     holes between live blocks that the arena cannot trim
 *                     from its top; then malloc_trim(0), which returns their
 *                     whole pages.
 *   alloc_gap arenas  glibc: 4 threads, each in its own arena, allocate
 *                     40 MiB of 8 KiB blocks then 7.5 MiB kept above them,
 *                     and free the 40 MiB: 160 MiB of holes in 4 arenas,
 *                     30 MiB live; then malloc_trim(0).
 *
 * At each phase it prints "phase NAME VmRSS=<kB> heap=<B>": VmRSS from
 * /proc/self/status (natively: the oracle; under memtime it is Valgrind's
 * whole process and ignored) and the bytes the program holds, by its own
 * count. Then it marks the phase (MEMTIME_MARK), asks for a snapshot
 * (MEMTIME_SNAPSHOT: a resident-memory reading) and makes one allocator
 * call, at which memtime reads the allocator's statistics. */
#include <malloc.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "memtime.h"

#if defined(USE_MIMALLOC)
#include <mimalloc.h>
#define MALLOC mi_malloc
#define FREE mi_free
#elif defined(JE_PREFIX)
#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)
void* CAT(JE_PREFIX, malloc)(size_t);
void CAT(JE_PREFIX, free)(void*);
#define MALLOC CAT(JE_PREFIX, malloc)
#define FREE CAT(JE_PREFIX, free)
#else
#define MALLOC malloc
#define FREE free
#endif

#define MiB (1024 * 1024)

static size_t held;   /* bytes the program holds, by its own count */

static long vmrss_kb(void)
{
   char line[256];
   long kb = -1;
   FILE* f = fopen("/proc/self/status", "r");
   if (!f) return -1;
   while (fgets(line, sizeof line, f))
      if (sscanf(line, "VmRSS: %ld kB", &kb) == 1)
         break;
   fclose(f);
   return kb;
}

/* No allocation for about a hundred million instructions: with
   --time-unit=i the outline's bucket that holds a phase's mark then has that
   phase's figures alone, whatever snapshots memtime culled (t411 reads them
   there). */
static void hold_still(void)
{
   for (volatile long i = 0; i < 30000000; i++)
      ;
}

static void phase(const char* name)
{
   void* p;
   printf("phase %s VmRSS=%ld heap=%zu\n", name, vmrss_kb(), held);
   fflush(stdout);
   MEMTIME_MARK(name);
   MEMTIME_SNAPSHOT();
   p = MALLOC(32);                   /* the allocator's statistics: now */
   *(volatile char*)p = 1;
   FREE(p);
   hold_still();
}

static void* take(size_t n)
{
   void* p = MALLOC(n);
   if (!p) { perror("malloc"); exit(1); }
   memset(p, 0x5a, n);
   return p;
}

static void batch(int hold)
{
   enum { B = 4096, LIVE = 30 * MiB / B, BATCH = 160 * MiB / B };
   static void* live[LIVE];
   static void* tmp[BATCH];
   size_t i;
   for (i = 0; i < LIVE; i++) live[i] = take(B);
   held = (size_t)LIVE * B;
   phase("live");
   for (i = 0; i < BATCH; i++) tmp[i] = take(B);
   held += (size_t)BATCH * B;
   phase("batch");
   for (i = 0; i < BATCH; i++) FREE(tmp[i]);
   held -= (size_t)BATCH * B;
   phase("freed");
   if (hold) {
      for (i = 0; i < BATCH; i++) FREE(take(B));
      phase("held");
   }
   for (i = 0; i < LIVE; i++) FREE(live[i]);
}

/* 16 blocks to free, then 3 to keep, over and over: 160 + 30 MiB. */
enum { HB = 8192, GROUPS = 160 * MiB / HB / 16 };
static void* hole_tmp[GROUPS * 16];
static void* hole_live[GROUPS * 3];

static void holes(void)
{
   size_t g, i;
   for (g = 0; g < GROUPS; g++) {
      for (i = 0; i < 16; i++) hole_tmp[g * 16 + i] = take(HB);
      for (i = 0; i < 3; i++) hole_live[g * 3 + i] = take(HB);
   }
   held = (size_t)GROUPS * 19 * HB;
   phase("allocated");
   for (i = 0; i < GROUPS * 16; i++) free(hole_tmp[i]);
   held = (size_t)GROUPS * 3 * HB;
   phase("freed");
   malloc_trim(0);
   phase("trimmed");
}

enum { THREADS = 4, AB = 8192, ATMP = 40 * MiB / AB, AKEEP = 30 * MiB / 4 / AB };
static void* arena_keep[THREADS][AKEEP];
/* No thread ends before every thread has allocated: a thread that ended
 * would hand its arena, holes and all, to the next one (glibc reuses the
 * arenas of threads gone), and whether it did would depend on scheduling. */
static pthread_barrier_t arena_done;

static void* arena_thread(void* arg)
{
   long t = (long)arg;
   static void* tmp[THREADS][ATMP];
   size_t i;
   for (i = 0; i < ATMP; i++) tmp[t][i] = take(AB);
   for (i = 0; i < AKEEP; i++) arena_keep[t][i] = take(AB);
   for (i = 0; i < ATMP; i++) free(tmp[t][i]);
   pthread_barrier_wait(&arena_done);
   return NULL;
}

static void arenas(void)
{
   pthread_t th[THREADS];
   long t;
   pthread_barrier_init(&arena_done, NULL, THREADS);
   for (t = 0; t < THREADS; t++)
      if (pthread_create(&th[t], NULL, arena_thread, (void*)t) != 0) exit(1);
   for (t = 0; t < THREADS; t++)
      pthread_join(th[t], NULL);
   held = (size_t)THREADS * AKEEP * AB;
   phase("freed");
   malloc_trim(0);
   phase("trimmed");
}

#ifdef USE_TCMALLOC
/* tcmalloc's own C API: the program fails unless malloc is tcmalloc's. */
int MallocExtension_GetNumericProperty(const char* name, size_t* value);
#endif

int main(int argc, char** argv)
{
   const char* mode = argc > 1 ? argv[1] : "";
#ifdef USE_TCMALLOC
   {
      size_t before = 0, after = 0;
      void* p;
      MallocExtension_GetNumericProperty("generic.current_allocated_bytes", &before);
      p = malloc(1 << 20);
      MallocExtension_GetNumericProperty("generic.current_allocated_bytes", &after);
      free(p);
      if (after < before + (1 << 20)) {
         fprintf(stderr, "alloc_gap: malloc is not tcmalloc's\n");
         return 1;
      }
   }
#endif
   if (strcmp(mode, "batch") == 0) batch(argc > 2 && strcmp(argv[2], "hold") == 0);
   else if (strcmp(mode, "holes") == 0) holes();
   else if (strcmp(mode, "arenas") == 0) arenas();
   else { fprintf(stderr, "usage: alloc_gap batch [hold]|holes|arenas\n"); return 2; }
   return 0;
}
