/* exe_families.c: one allocating entry point of each allocator family
 * memtime intercepts in the main executable (tikv-jemallocator's _rjem_,
 * redis-style je_, unprefixed jemalloc's mallocx, tcmalloc's tc_, mimalloc's
 * mi_), each handing out blocks from a private arena that no interception
 * of malloc can see. So a family's bytes reach the profile only if memtime
 * switched that family's interceptions on for this executable
 * (memtime/mt_redirect.c). For t589: sizes 1000..5000, one per family, on
 * lines of their own, none freed. */
#include <stddef.h>

static _Alignas(16) char arena[1 << 16];
static size_t used;

static void *bump(size_t n)
{
    void *p = arena + used;
    used += (n + 15) & ~(size_t)15;
    return p;
}

__attribute__((noinline, used)) void *_rjem_malloc(size_t n) { return bump(n); }
__attribute__((noinline, used)) void _rjem_free(void *p) { (void)p; }
__attribute__((noinline, used)) void *je_malloc(size_t n) { return bump(n); }
__attribute__((noinline, used)) void je_free(void *p) { (void)p; }
__attribute__((noinline, used)) void *mallocx(size_t n, int flags) { (void)flags; return bump(n); }
__attribute__((noinline, used)) void dallocx(void *p, int flags) { (void)p; (void)flags; }
__attribute__((noinline, used)) void *tc_malloc(size_t n) { return bump(n); }
__attribute__((noinline, used)) void tc_free(void *p) { (void)p; }
__attribute__((noinline, used)) void *mi_malloc(size_t n) { return bump(n); }
__attribute__((noinline, used)) void mi_free(void *p) { (void)p; }

void *volatile keep[5];

int main(void)
{
    keep[0] = _rjem_malloc(1000);
    keep[1] = je_malloc(2000);
    keep[2] = mallocx(3000, 0);
    keep[3] = tc_malloc(4000);
    keep[4] = mi_malloc(5000);
    return 0;
}
