/* clock_events.c: stamps its own events with CLOCK_MONOTONIC, so a test
   can hold the profile's times against them (tests/t58x-clock-*.sh).

   Each event is one malloc of a size no other allocation has
   (EVENT_BASE + 4096 * k + k), never freed: in the profile it is the
   snapshot where mem_heap_B grows by exactly that size. Under memtime the
   event also sets a mark "event K" (memtime.h; other tools ignore it). The
   clock is read just before the malloc and just after the mark, so the
   event's true time lies in [before, after] however the machine is
   loaded. The stamps are kept in an
   array and printed only at exit, as "event K SIZE BEFORE_NS AFTER_NS",
   with "end END_NS" last: printing allocates (stdio's buffer), after the
   last event.

   The phases run in the order given on the command line:
     start    an event at once (the first allocation after start-up)
     newcode  runs library code never run before (regex, formatting,
              sorting, time zones): Valgrind translates it as it goes
     dlopen=LIB  dlopens LIB
     demangle  demangles C++ names with __cxa_demangle from the library
              dlopened last (libstdc++): new code again
     compute=MS  computes without allocating for MS ms (by its own clock)
     sleep=MS    sleeps MS ms
     thread   starts a thread whose first action is an event
     steady=MS   for MS ms, allocates and frees 64 bytes about every ms
     event    just an event
     exit=MS  computes MS ms, with no event (the time before exit)
   Each phase but exit ends with an event. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <locale.h>
#include <math.h>
#include <pthread.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "memtime.h"

#define EVENT_BASE 1000000
#define MAX_EVENTS 64

static struct { size_t size; long long before, after; } ev[MAX_EVENTS];
static int n_ev;
static void* volatile sink;
static volatile double dsink;

static long long now_ns(void)
{
   struct timespec ts;
   clock_gettime(CLOCK_MONOTONIC, &ts);
   return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void event(void)
{
   int k = n_ev++;
   ev[k].size = EVENT_BASE + 4096 * (size_t)k + (size_t)k;
   char label[32];
   snprintf(label, sizeof label, "event %d", k);
   ev[k].before = now_ns();
   sink = malloc(ev[k].size);
   MEMTIME_MARK(label);
   ev[k].after = now_ns();
}

static int cmp_double(const void* a, const void* b)
{
   double x = *(const double*)a, y = *(const double*)b;
   return (x > y) - (x < y);
}

/* Library code this program has not run yet: each call translates new
   blocks. Allocations here are small (none near EVENT_BASE) and few. */
static void new_code(void)
{
   /* Few and small: regcomp makes hundreds of allocations per pattern,
      and the profile must hold every event without culling. */
   static const char* const patterns[] = { "^[a-z]+@[a-z]+\\.(com|org)$" };
   char buf[256];
   double v[200];
   size_t i;
   regex_t re;
   time_t t = 1700000000;
   struct tm tm;

   for (i = 0; i < sizeof patterns / sizeof patterns[0]; i++) {
      if (regcomp(&re, patterns[i], REG_EXTENDED) == 0) {
         dsink += regexec(&re, "someone@example.org", 0, NULL, 0);
         regfree(&re);
      }
   }
   for (i = 0; i < 200; i++) {
      snprintf(buf, sizeof buf, "%.17g %Le %'d", sin((double)i) * 1e5,
               (long double)i / 7, (int)i * 1000);
      v[i] = strtod(buf, NULL);
   }
   qsort(v, 200, sizeof v[0], cmp_double);
   setlocale(LC_ALL, "C");
   gmtime_r(&t, &tm);
   strftime(buf, sizeof buf, "%A %d %B %Y %H:%M:%S %Z %j %U", &tm);
   dsink += v[0] + strlen(buf) + cbrt(v[199]) + lgamma(3.5) + erf(0.3);
}

static void compute(long long ms)
{
   long long end = now_ns() + ms * 1000000LL;
   double x = 1;
   while (now_ns() < end) {
      int i;
      for (i = 0; i < 10000; i++)
         x = x * 1.0000001 + 1e-9;
   }
   dsink += x;
}

/* Long, varied names: the demangler's code paths for templates,
   function types, operators, substitutions and lambdas. */
static int demangle(void* lib)
{
   static const char* const names[] = {
      "_ZNSt6vectorISt4pairINSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEEiESaIS7_EE17_M_realloc_insertIJS7_EEEvN9__gnu_cxx17__normal_iteratorIPS7_S9_EEDpOT_",
      "_ZNKSt8functionIFvRKSt10shared_ptrIN4core5EventEEEEclES6_",
      "_ZN9__gnu_cxx13new_allocatorISt10_List_nodeIPFPKcvEEE9constructIS6_JRKS5_EEEvPT_DpOT0_",
      "_ZZN4core6detail8dispatchIiEEvRKT_ENKUlvE_clEv",
      "_ZNSt3mapIiN5boost7variantIJidSsEEESt4lessIiESaISt4pairIKiS3_EEEixEOi",
      "_ZplRK7ComplexS1_", "_ZN1AcviEv", "_ZdlPvm", "_ZTVN10__cxxabiv117__class_type_infoE",
   };
   char* (*dem)(const char*, char*, size_t*, int*);
   size_t i;
   if (!lib || !(*(void**)&dem = dlsym(lib, "__cxa_demangle")))
      return -1;
   for (i = 0; i < sizeof names / sizeof names[0]; i++) {
      int status;
      char* s = dem(names[i], NULL, NULL, &status);
      if (status != 0)
         return -1;
      dsink += strlen(s);
      free(s);
   }
   return 0;
}

/* Steady state: small allocations spread over MS ms (about 2 per ms, so
   a profile of 1000 snapshots holds 150 ms of it without culling). */
static void steady(long long ms)
{
   long long end = now_ns() + ms * 1000000LL;
   while (now_ns() < end) {
      void* p = malloc(64);
      long long next = now_ns() + 1000000;
      while (now_ns() < next)
         dsink += 1;
      free(p);
   }
}

static void* thread_main(void* arg)
{
   (void)arg;
   event();
   return NULL;
}

int main(int argc, char** argv)
{
   void* lib = NULL;
   int i;
   for (i = 1; i < argc; i++) {
      const char* a = argv[i];
      if (strcmp(a, "start") == 0 || strcmp(a, "event") == 0) {
         /* nothing but the event */
      } else if (strcmp(a, "newcode") == 0) {
         new_code();
      } else if (strncmp(a, "dlopen=", 7) == 0) {
         if (!(lib = dlopen(a + 7, RTLD_NOW | RTLD_LOCAL))) {
            fprintf(stderr, "clock_events: %s\n", dlerror());
            return 1;
         }
      } else if (strcmp(a, "demangle") == 0) {
         if (demangle(lib) != 0) {
            fprintf(stderr, "clock_events: __cxa_demangle missing or failed\n");
            return 1;
         }
      } else if (strncmp(a, "compute=", 8) == 0) {
         compute(atoll(a + 8));
      } else if (strncmp(a, "steady=", 7) == 0) {
         steady(atoll(a + 7));
      } else if (strncmp(a, "exit=", 5) == 0) {
         compute(atoll(a + 5));
         continue;
      } else if (strncmp(a, "sleep=", 6) == 0) {
         long long ms = atoll(a + 6);
         struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
         nanosleep(&ts, NULL);
      } else if (strcmp(a, "thread") == 0) {
         pthread_t th;
         if (pthread_create(&th, NULL, thread_main, NULL) != 0
             || pthread_join(th, NULL) != 0)
            return 1;
         continue;   /* the thread's event is this phase's event */
      } else {
         fprintf(stderr, "clock_events: unknown phase '%s'\n", a);
         return 2;
      }
      if (n_ev == MAX_EVENTS)
         return 2;
      event();
   }
   long long end = now_ns();
   for (i = 0; i < n_ev; i++)
      printf("event %d %zu %lld %lld\n", i, ev[i].size, ev[i].before,
             ev[i].after);
   printf("end %lld\n", end);
   return 0;
}
