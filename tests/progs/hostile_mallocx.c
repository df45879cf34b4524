/* hostile_mallocx.c: jemalloc's mallocx with the flags a program passes:
   MALLOCX_ARENA(0), MALLOCX_TCACHE_NONE, no flags at all, MALLOCX_ZERO with
   both, an impossible size (SIZE_MAX) and an impossible alignment
   (MALLOCX_LG_ALIGN(50)), each from hostile_site(). Linked against jemalloc
   (tests/progs/jemalloc_build.sh); prints what each call returned and
   whether the zeroed block is zero. Ends with the four good blocks live:
   by construction hostile_site() then holds 100 + 100 + 100 + 4096 = 4396
   bytes. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

void* mallocx(size_t, int);
void  dallocx(void*, int);

#define LG_ALIGN(la)  ((int)(la))
#define ZERO          0x40
#define TCACHE_NONE   ((-1 + 2) << 8)
#define ARENA(a)      (((a) + 1) << 20)

static void* __attribute__((noinline)) hostile_site(size_t n, int flags)
{
   return mallocx(n, flags);
}

static void say(const char* what, const void* p)
{
   printf("%s: %s\n", what, p ? "block" : "NULL");
}

int main(void)
{
   static void* keep[4];
   const unsigned char* z;
   void* p;
   size_t i;
   int zero = 1;

   keep[0] = hostile_site(100, ARENA(0));        say("MALLOCX_ARENA(0)", keep[0]);
   keep[1] = hostile_site(100, TCACHE_NONE);     say("MALLOCX_TCACHE_NONE", keep[1]);
   keep[2] = hostile_site(100, 0);               say("flags 0", keep[2]);
   keep[3] = hostile_site(4096, ZERO | TCACHE_NONE | ARENA(0));
   say("MALLOCX_ZERO|TCACHE_NONE|ARENA(0)", keep[3]);
   for (z = keep[3], i = 0; z != NULL && i < 4096; i++)
      zero &= z[i] == 0;
   printf("zeroed: %s\n", zero ? "yes" : "no");
   p = hostile_site(SIZE_MAX, 0);                say("mallocx(SIZE_MAX)", p);
   p = hostile_site(100, LG_ALIGN(50));          say("MALLOCX_LG_ALIGN(50)", p);
   if (p != NULL)
      dallocx(p, 0);
   return 0;
}
