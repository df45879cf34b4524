/* jemalloc_api.c: exercises every public jemalloc entry point, for the
   t40x tests. Built three ways: against libjemalloc.so (-ljemalloc),
   against the static libjemalloc_pic.a, and against a copy of it whose
   public symbols were renamed `_rjem_*` (compile with -DJE_PREFIX=_rjem_),
   the way tikv-jemallocator builds it for Rust programs.

   `jemalloc_api workload` only runs the workload: build_table() keeps
   200 x 5000 bytes from mallocx, grow_buffers() grows 8 buffers with
   rallocx to 50000 bytes each, page-aligned; that is 1,400,000 bytes live at
   the peak, then everything is freed with sdallocx/dallocx.
   `jemalloc_api` (no argument) runs the workload, then checks each entry
   point and prints one TAP-like line per check ("ok NAME" or
   "not ok NAME: detail"), plus "value NAME N" lines the test compares with
   what the allocator must return. It never mixes pointers between entry
   points of different families, so it also runs natively and under Massif. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#ifdef JE_PREFIX
#define JE_CAT_(a, b) a##b
#define JE_CAT(a, b)  JE_CAT_(a, b)
#define JE(f)         JE_CAT(JE_PREFIX, f)
#else
#define JE(f)         f
#endif

/* jemalloc's public API, declared here so one source serves every prefix. */
void*  JE(malloc)(size_t);
void*  JE(calloc)(size_t, size_t);
void*  JE(realloc)(void*, size_t);
void   JE(free)(void*);
int    JE(posix_memalign)(void**, size_t, size_t);
void*  JE(aligned_alloc)(size_t, size_t);
void*  JE(memalign)(size_t, size_t);
void*  JE(valloc)(size_t);
size_t JE(malloc_usable_size)(void*);
void*  JE(mallocx)(size_t, int);
void*  JE(rallocx)(void*, size_t, int);
size_t JE(xallocx)(void*, size_t, size_t, int);
size_t JE(sallocx)(const void*, int);
void   JE(dallocx)(void*, int);
void   JE(sdallocx)(void*, size_t, int);
size_t JE(nallocx)(size_t, int);

#define LG_ALIGN(la)  ((int)(la))
#define ZERO          0x40
#define TCACHE_NONE   ((-1 + 2) << 8)
#define ARENA(a)      (((a) + 1) << 20)

#define N_TABLE   200
#define TABLE_SZ  5000
#define N_BUF     8
#define BUF_SZ    50000

static void* table[N_TABLE];
static void* bufs[N_BUF];
static int n_fail;

static void check(int cond, const char* name, const char* detail)
{
   if (cond) printf("ok %s\n", name);
   else { printf("not ok %s: %s\n", name, detail); n_fail++; }
}

static int aligned(const void* p, size_t al) { return ((uintptr_t)p & (al - 1)) == 0; }

static int all_bytes(const void* p, size_t n, unsigned char v)
{
   const unsigned char* c = p;
   size_t i;
   for (i = 0; i < n; i++) if (c[i] != v) return 0;
   return 1;
}

/* 200 x 5000 bytes, live until the end of the workload. */
static void build_table(void)
{
   int i;
   for (i = 0; i < N_TABLE; i++) {
      table[i] = JE(mallocx)(TABLE_SZ, 0);
      memset(table[i], i, TABLE_SZ);
   }
}

/* 8 buffers grown by rallocx in steps to 50000 bytes, page-aligned. */
static void grow_buffers(void)
{
   int i;
   size_t sz;
   for (i = 0; i < N_BUF; i++) {
      bufs[i] = JE(mallocx)(1000, LG_ALIGN(12));
      for (sz = 10000; sz <= BUF_SZ; sz += 10000)
         bufs[i] = JE(rallocx)(bufs[i], sz, LG_ALIGN(12) | TCACHE_NONE);
   }
}

static void release_all(void)
{
   int i;
   for (i = 0; i < N_TABLE; i++) JE(sdallocx)(table[i], TABLE_SZ, 0);
   for (i = 0; i < N_BUF; i++) JE(dallocx)(bufs[i], ARENA(0));
}

static void check_api(void)
{
   void* p;
   void* q;
   size_t u, r, n, sz;
   int i, ok;

   /* malloc / malloc_usable_size / realloc / free */
   p = JE(malloc)(100);
   u = JE(malloc_usable_size)(p);
   check(p != NULL && u >= 100, "malloc", "NULL or usable size < 100");
   printf("value malloc_usable_size(100) %zu\n", u);
   memset(p, 7, 100);
   p = JE(realloc)(p, 100000);
   check(p != NULL && all_bytes(p, 100, 7), "realloc", "contents lost");
   JE(free)(p);
   check(1, "free", "");

   /* calloc zeroes */
   p = JE(calloc)(1000, 10);
   check(p != NULL && all_bytes(p, 10000, 0), "calloc", "not zeroed");
   JE(free)(p);

   /* the aligned family */
   p = NULL;
   i = JE(posix_memalign)(&p, 256, 1000);
   check(i == 0 && p != NULL && aligned(p, 256), "posix_memalign", "not 256-aligned");
   JE(free)(p);
   p = JE(aligned_alloc)(64, 640);
   check(p != NULL && aligned(p, 64), "aligned_alloc", "not 64-aligned");
   JE(free)(p);
   p = JE(memalign)(128, 300);
   check(p != NULL && aligned(p, 128), "memalign", "not 128-aligned");
   JE(free)(p);
   p = JE(valloc)(5000);
   check(p != NULL && aligned(p, 4096), "valloc", "not page-aligned");
   JE(free)(p);

   /* mallocx honours MALLOCX_LG_ALIGN and MALLOCX_ZERO, ignores tcache and
      arena bits. */
   p = JE(mallocx)(100, LG_ALIGN(10) | TCACHE_NONE | ARENA(0));
   check(p != NULL && aligned(p, 1024), "mallocx-align", "not 1024-aligned");
   JE(dallocx)(p, 0);
   q = JE(mallocx)(4096, 0);
   memset(q, 0xAA, 4096);
   JE(dallocx)(q, 0);
   p = JE(mallocx)(4096, ZERO);
   check(p != NULL && all_bytes(p, 4096, 0), "mallocx-zero", "not zeroed");
   JE(dallocx)(p, 0);

   /* rallocx: keeps contents, honours the new alignment and zeroes the tail. */
   p = JE(mallocx)(100, 0);
   memset(p, 3, 100);
   q = JE(rallocx)(p, 20000, LG_ALIGN(13));
   check(q != NULL && aligned(q, 8192) && all_bytes(q, 100, 3), "rallocx-align",
         "not 8192-aligned or contents lost");
   /* MALLOCX_ZERO zeroes what lies beyond the old block's usable size. */
   u = JE(sallocx)(q, 0);
   p = JE(rallocx)(q, 40000, ZERO);
   check(p != NULL && u < 40000 && all_bytes(p, 100, 3)
         && all_bytes((char*)p + u, 40000 - u, 0),
         "rallocx-zero", "contents lost or tail not zeroed");
   JE(sdallocx)(p, 40000, 0);

   /* xallocx never moves: growing past the block's usable size fails (the
      result is below the size asked), resizing within it succeeds. */
   p = JE(mallocx)(1000, 0);
   u = JE(sallocx)(p, 0);
   r = JE(xallocx)(p, 1000000, 0, 0);
   check(r < 1000000 && r >= 1000 && JE(sallocx)(p, 0) == r, "xallocx-no-grow",
         "claims to have grown a block in place");
   r = JE(xallocx)(p, 500, 0, 0);
   check(r >= 500 && r <= u, "xallocx-shrink", "shrink did not stay in the block");
   r = JE(xallocx)(p, 600, 1000000, 0);
   check(r >= 600, "xallocx-extra", "size without extra not honoured");
   printf("value xallocx(1000->500) %zu\n", JE(xallocx)(p, 500, 0, 0));
   JE(sdallocx)(p, 500, 0);

   /* sallocx agrees with malloc_usable_size and with nallocx, which must
      predict it exactly for every size and alignment. */
   p = JE(mallocx)(777, 0);
   u = JE(sallocx)(p, 0);
   check(u >= 777 && u == JE(malloc_usable_size)(p), "sallocx", "disagrees with malloc_usable_size");
   printf("value sallocx(777) %zu\n", u);
   JE(dallocx)(p, 0);
   ok = 1;
   for (sz = 1; sz < 70000; sz = sz * 3 / 2 + 1) {
      for (i = 0; i <= 12; i += 6) {
         n = JE(nallocx)(sz, LG_ALIGN(i));
         p = JE(mallocx)(sz, LG_ALIGN(i));
         u = JE(sallocx)(p, 0);
         if (n != u || n < sz) {
            ok = 0;
            printf("# nallocx(%zu, lg %d) = %zu, sallocx = %zu\n", sz, i, n, u);
         }
         JE(dallocx)(p, 0);
      }
   }
   check(ok, "nallocx", "disagrees with sallocx");
   printf("value nallocx(777) %zu\n", JE(nallocx)(777, 0));
   printf("value nallocx(100000) %zu\n", JE(nallocx)(100000, 0));
}

int main(int argc, char** argv)
{
   build_table();
   grow_buffers();
   release_all();
   if (argc > 1 && strcmp(argv[1], "workload") == 0)
      return 0;
   check_api();
   return n_fail != 0;
}
