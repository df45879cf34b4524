/* peers_api.cc: every tcmalloc tc_* (-DUSE_TCMALLOC) or mimalloc mi_*
   (-DUSE_MIMALLOC) entry point memtime intercepts (memtime/mt_preload.c,
   MT_TC_API and MT_MI_API), for t405, with byte counts known by
   construction. Phase 1 allocates one block per call, each on its own
   line of main, and only grows the heap (reallocs grow, mi_expand grows
   in place), so its end is the peak; phase 2 frees every block, each through
   one of the frees. The program prints, at the end (through a static
   buffer and write(), so no stdio buffer joins the heap):
     site LINE BYTES CALL   a live block at the peak, charged to main:LINE
     free BYTES CALL        a free, in order
     ok NAME 0|1            a size query (usable size >= the request)
   pvalloc counts whole pages (4096), strdup the string and its NUL. */
#include <cstdarg>
#include <cstddef>
#include <cstdio>
#include <cstring>
#include <new>
#include <unistd.h>

#if defined(USE_MIMALLOC)
#include <mimalloc.h>
#elif defined(USE_TCMALLOC)
#include <gperftools/nallocx.h>
#include <gperftools/tcmalloc.h>
#else
#error "define USE_MIMALLOC or USE_TCMALLOC"
#endif

static char out[32768];
static size_t out_n;
static void say(const char* fmt, ...)
{
   va_list ap;
   va_start(ap, fmt);
   out_n += (size_t)vsnprintf(out + out_n, sizeof out - out_n, fmt, ap);
   va_end(ap);
}

struct Block { void* p; size_t n; int line; const char* call; };
static Block b[64];
static int nb;

/* keep(P, N, LINE, CALL): block P of N bytes allocated by CALL at LINE. */
static void keep(void* p, size_t n, int line, const char* call)
{
   if (p == NULL)
      say("error %s returned NULL\n", call);
   b[nb].p = p;
   b[nb].n = n;
   b[nb].line = line;
   b[nb].call = call;
   nb++;
}
/* The blocks live at the end of phase 1 (the peak). */
static void say_sites(void)
{
   for (int i = 0; i < nb; i++)
      say("site %d %zu %s\n", b[i].line, b[i].n, b[i].call);
}
#define KEEP(call, n) keep((void*)(call), (n), __LINE__, #call)
/* FREE(i, call): block i freed by CALL. */
#define FREE(i, call) do { call; say("free %zu %s\n", b[i].n, #call); } while (0)
#define OK(name, cond) say("ok %s %d\n", name, (cond) ? 1 : 0)

int main()
{
#if defined(USE_TCMALLOC)
   const std::align_val_t al = std::align_val_t(64);
   void* pm = NULL;
   int rc;
   KEEP(tc_malloc(1000), 1000);                                   /* b0 */
   KEEP(tc_realloc(tc_malloc(1001), 5001), 5001);                 /* b1 */
   KEEP(tc_malloc_skip_new_handler(1002), 1002);                  /* b2 */
   KEEP(tc_calloc(3, 1001), 3003);                                /* b3 */
   KEEP(tc_memalign(64, 1004), 1004);                             /* b4 */
   KEEP((rc = tc_posix_memalign(&pm, 128, 1005), pm), 1005);      /* b5 */
   KEEP(tc_valloc(1006), 1006);                                   /* b6 */
   KEEP(tc_pvalloc(1007), 4096);                                  /* b7 */
   KEEP(tc_new(1008), 1008);                                      /* b8 */
   KEEP(tc_newarray(1009), 1009);                                 /* b9 */
   KEEP(tc_new_nothrow(1010, std::nothrow), 1010);                /* b10 */
   KEEP(tc_newarray_nothrow(1011, std::nothrow), 1011);           /* b11 */
   KEEP(tc_new(1012), 1012);                                      /* b12 */
   KEEP(tc_newarray(1013), 1013);                                 /* b13 */
   KEEP(tc_new_aligned(1014, al), 1014);                          /* b14 */
   KEEP(tc_newarray_aligned(1015, al), 1015);                     /* b15 */
   KEEP(tc_new_aligned(1016, al), 1016);                          /* b16 */
   KEEP(tc_newarray_aligned(1017, al), 1017);                     /* b17 */
   KEEP(tc_new_aligned_nothrow(1018, al, std::nothrow), 1018);    /* b18 */
   KEEP(tc_newarray_aligned_nothrow(1019, al, std::nothrow), 1019); /* b19 */
   say_sites();
   OK("posix_memalign_rc", rc == 0);
   OK("tc_malloc_size", tc_malloc_size(b[1].p) >= 5001);
   OK("tc_nallocx", tc_nallocx(1000, 0) >= 1000);

   FREE(0, tc_free(b[0].p));
   FREE(1, tc_free(b[1].p));
   FREE(2, tc_cfree(b[2].p));
   FREE(3, tc_free_sized(b[3].p, 3003));
   FREE(4, tc_free(b[4].p));
   FREE(5, tc_free(b[5].p));
   FREE(6, tc_free(b[6].p));
   FREE(7, tc_free(b[7].p));
   FREE(8, tc_delete(b[8].p));
   FREE(9, tc_deletearray(b[9].p));
   FREE(10, tc_delete_nothrow(b[10].p, std::nothrow));
   FREE(11, tc_deletearray_nothrow(b[11].p, std::nothrow));
   FREE(12, tc_delete_sized(b[12].p, 1012));
   FREE(13, tc_deletearray_sized(b[13].p, 1013));
   FREE(14, tc_delete_aligned(b[14].p, al));
   FREE(15, tc_deletearray_aligned(b[15].p, al));
   FREE(16, tc_delete_sized_aligned(b[16].p, 1016, al));
   FREE(17, tc_deletearray_sized_aligned(b[17].p, 1017, al));
   FREE(18, tc_delete_aligned_nothrow(b[18].p, al, std::nothrow));
   FREE(19, tc_deletearray_aligned_nothrow(b[19].p, al, std::nothrow));
#else
   mi_heap_t* h = mi_heap_get_default();
   void* pm = NULL;
   void *e, *pe;
   int rc;
   size_t en;
   KEEP(mi_malloc(2001), 2001);                                   /* b0 */
   KEEP(mi_malloc_small(202), 202);                               /* b1 */
   KEEP(mi_new(2003), 2003);                                      /* b2 */
   KEEP(mi_new_nothrow(2004), 2004);                              /* b3 */
   KEEP(mi_zalloc(2005), 2005);                                   /* b4 */
   KEEP(mi_zalloc_small(206), 206);                               /* b5 */
   KEEP(mi_calloc(3, 2007), 6021);                                /* b6 */
   KEEP(mi_mallocn(3, 2008), 6024);                               /* b7 */
   KEEP(mi_new_n(3, 2009), 6027);                                 /* b8 */
   KEEP(mi_malloc_aligned(2010, 64), 2010);                       /* b9 */
   KEEP(mi_new_aligned(2011, 64), 2011);                          /* b10 */
   KEEP(mi_new_aligned_nothrow(2012, 64), 2012);                  /* b11 */
   KEEP(mi_zalloc_aligned(2013, 64), 2013);                       /* b12 */
   KEEP(mi_calloc_aligned(3, 2014, 64), 6042);                    /* b13 */
   KEEP(mi_memalign(64, 2015), 2015);                             /* b14 */
   KEEP(mi_aligned_alloc(64, 2048), 2048);                        /* b15 */
   KEEP((rc = mi_posix_memalign(&pm, 64, 2017), pm), 2017);       /* b16 */
   KEEP(mi_valloc(2018), 2018);                                   /* b17 */
   KEEP(mi_pvalloc(2019), 4096);                                  /* b18 */
   KEEP(mi_strdup("peers_api strdup"), 17);                       /* b19 */
   KEEP(mi_strndup("peers_api strndup", 5), 6);                   /* b20 */
   KEEP(mi_heap_malloc(h, 2022), 2022);                           /* b21 */
   KEEP(mi_heap_malloc_small(h, 223), 223);                       /* b22 */
   KEEP(mi_heap_zalloc(h, 2024), 2024);                           /* b23 */
   KEEP(mi_heap_calloc(h, 3, 2025), 6075);                        /* b24 */
   KEEP(mi_heap_malloc_aligned(h, 2026, 64), 2026);               /* b25 */
   KEEP(mi_heap_zalloc_aligned(h, 2027, 64), 2027);               /* b26 */
   /* Reallocs: each grows a fresh 100-byte block on its own line (the
      block moves to the realloc's line, as in Massif). */
   KEEP(mi_realloc(mi_malloc(100), 3001), 3001);                  /* b27 */
   KEEP(mi_new_realloc(mi_malloc(100), 3002), 3002);              /* b28 */
   KEEP(mi_reallocf(mi_malloc(100), 3003), 3003);                 /* b29 */
   KEEP(mi_rezalloc(mi_zalloc(100), 3004), 3004);                 /* b30 */
   KEEP(mi_reallocn(mi_malloc(100), 3, 1005), 3015);              /* b31 */
   KEEP(mi_new_reallocn(mi_malloc(100), 3, 1006), 3018);          /* b32 */
   KEEP(mi_recalloc(mi_calloc(1, 100), 3, 1007), 3021);           /* b33 */
   KEEP(mi_realloc_aligned(mi_malloc_aligned(100, 64), 3008, 64), 3008); /* b34 */
   KEEP(mi_rezalloc_aligned(mi_zalloc_aligned(100, 64), 3009, 64), 3009); /* b35 */
   KEEP(mi_heap_realloc(h, mi_heap_malloc(h, 100), 3010), 3010);  /* b36 */
   /* mi_expand resizes in place or returns NULL: grown to the usable size
      memtime reports, it must stay in place. */
   KEEP((pe = mi_malloc(3000), en = mi_usable_size(pe), e = mi_expand(pe, en)), 3000); /* b37 */
   b[37].n = en;
   say_sites();
   OK("posix_memalign_rc", rc == 0);
   OK("mi_expand_in_place", e == pe && en >= 3000);
   OK("mi_usable_size", mi_usable_size(b[0].p) >= 2001);
   OK("mi_malloc_usable_size", mi_malloc_usable_size(b[2].p) >= 2003);
   OK("mi_malloc_size", mi_malloc_size(b[4].p) >= 2005);
   OK("mi_good_size", mi_good_size(1000) >= 1000);
   OK("mi_malloc_good_size", mi_malloc_good_size(1000) >= 1000);
   OK("zeroed", ((unsigned char*)b[4].p)[2004] == 0 && ((unsigned char*)b[6].p)[6020] == 0);
   OK("strdup", strcmp((char*)b[19].p, "peers_api strdup") == 0 && strcmp((char*)b[20].p, "peers") == 0);

   FREE(0, mi_free(b[0].p));
   FREE(1, mi_cfree(b[1].p));
   FREE(2, mi_free_size(b[2].p, 2003));
   FREE(3, mi_free(b[3].p));
   FREE(4, mi_free(b[4].p));
   FREE(5, mi_free(b[5].p));
   FREE(6, mi_free(b[6].p));
   FREE(7, mi_free(b[7].p));
   FREE(8, mi_free(b[8].p));
   FREE(9, mi_free_aligned(b[9].p, 64));
   FREE(10, mi_free_size_aligned(b[10].p, 2011, 64));
   for (int i = 11; i < nb; i++)
      FREE(i, mi_free(b[i].p));
#endif
   if (write(1, out, out_n) != (ssize_t)out_n)
      return 1;
   return 0;
}
