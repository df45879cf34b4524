/* jemalloc_peers.c: jemalloc's peers with their own API, for t405: built
   with -DUSE_MIMALLOC (mi_* from libmimalloc.so) or -DUSE_TCMALLOC (tc_*
   from libtcmalloc_minimal.so). keep_blocks() keeps 300 x 4000 bytes from
   the allocator's own entry points (plain, zeroed, aligned, grown by its
   realloc) live at the peak, then frees them with its own free. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#if defined(USE_MIMALLOC)
#include <mimalloc.h>
#define A_MALLOC(n)      mi_malloc(n)
#define A_ZALLOC(n)      mi_zalloc(n)
#define A_ALIGNED(n, al) mi_malloc_aligned(n, al)
#define A_REALLOC(p, n)  mi_realloc(p, n)
#define A_USABLE(p)      mi_usable_size(p)
#define A_FREE(p)        mi_free(p)
#elif defined(USE_TCMALLOC)
#include <gperftools/tcmalloc.h>
#define A_MALLOC(n)      tc_malloc(n)
#define A_ZALLOC(n)      tc_calloc(1, n)
#define A_ALIGNED(n, al) tc_memalign(al, n)
#define A_REALLOC(p, n)  tc_realloc(p, n)
#define A_USABLE(p)      tc_malloc_size(p)
#define A_FREE(p)        tc_free(p)
#else
#error "define USE_MIMALLOC or USE_TCMALLOC"
#endif

#define N 300
static void* blocks[N];

static void keep_blocks(void)
{
   int i;
   for (i = 0; i < N; i++) {
      switch (i % 3) {
      case 0: blocks[i] = A_MALLOC(4000); break;
      case 1: blocks[i] = A_ZALLOC(4000); break;
      default: blocks[i] = A_REALLOC(A_ALIGNED(1000, 256), 4000); break;
      }
      memset(blocks[i], 1, 4000);
   }
}

int main(void)
{
   int i, bad = 0;
   keep_blocks();
   for (i = 0; i < N; i++) {
      if (A_USABLE(blocks[i]) < 4000) bad++;
      A_FREE(blocks[i]);
   }
   printf("usable_ok %d\n", bad == 0);
   return 0;
}
