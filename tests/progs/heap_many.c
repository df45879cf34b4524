/* heap_many.c: many allocation sites and events, for the tree and schedule
   options (--depth, --threshold, --alloc-fn, --detailed-freq,
   --max-snapshots culling): a growing cache filled from several call
   chains, a burst, and a partial release. Deterministic. */
#include <stdlib.h>

#define N 1500
static void* live[N];

__attribute__((noinline)) static void* my_alloc(size_t n)   /* --alloc-fn */
{
   return malloc(n);
}
__attribute__((noinline)) static void* from_a(size_t n) { return my_alloc(n); }
__attribute__((noinline)) static void* from_b(size_t n) { return my_alloc(n * 3); }
__attribute__((noinline)) static void* from_c(size_t n) { return malloc(n / 2 + 1); }
__attribute__((noinline)) static void* tiny(size_t n)   { return malloc(n % 7 + 1); }
__attribute__((noinline)) static void* deep3(size_t n)  { return from_a(n); }
__attribute__((noinline)) static void* deep2(size_t n)  { return deep3(n); }
__attribute__((noinline)) static void* deep1(size_t n)  { return deep2(n); }

int main(void)
{
   size_t i;
   for (i = 0; i < N; i++) {
      switch (i % 5) {
      case 0: live[i] = from_a(64 + i % 100); break;
      case 1: live[i] = from_b(32 + i % 50); break;
      case 2: live[i] = from_c(200 + i % 300); break;
      case 3: live[i] = tiny(i); break;
      default: live[i] = deep1(16 + i % 40); break;
      }
      if (i % 4 == 3) {               /* churn */
         free(live[i - 2]);
         live[i - 2] = NULL;
      }
   }
   for (i = 0; i < 200; i++) {        /* a burst */
      void* p = malloc(4096);
      free(p);
   }
   for (i = 0; i < N; i += 2) {       /* a partial release */
      free(live[i]);
      live[i] = NULL;
   }
   return 0;
}
