/* detail_sites.c: a heap whose detail is known by construction, for t106.
 * At the peak (everything is freed at the end, so there is one):
 *   - site_0 .. site_299: 300 allocation sites of their own, each holding
 *     1000 bytes (0.1% of the heap: every one is below the default 1%
 *     threshold, so the profile merges them all into "in N places");
 *   - take_bytes, an allocation wrapper, called by caller_0 .. caller_49:
 *     caller_i holds 3000 + 40 * i bytes through it (0.30% .. 0.50% each:
 *     at depth 2 the profile merges them too), 199,000 bytes in all;
 *   - big_site: 500,000 bytes, the one site the profile names on its own.
 * Total 999,000 bytes. Each function is its own code (the test builds it
 * -O0 -fno-inline), so each site and caller is one frame with its own
 * name. */
#include <stdlib.h>
#include <string.h>

#define N_SITES   300
#define N_CALLERS 50

static void *volatile site_blocks[N_SITES];
static void *volatile caller_blocks[N_CALLERS];
static void *volatile big_block;

static void *take_bytes(size_t n)
{
    void *p = malloc(n);
    if (p == NULL)
        abort();
    memset(p, 0, n);
    return p;
}

#define SITE(i) static void site_##i(void) { site_blocks[i] = malloc(1000); }
#define CALLER(i) static void caller_##i(void) { caller_blocks[i] = take_bytes(3000 + 40 * i); }
#define TEN(M, d) M(d##0) M(d##1) M(d##2) M(d##3) M(d##4) M(d##5) M(d##6) M(d##7) M(d##8) M(d##9)
#define HUNDRED(M, h) TEN(M, h##0) TEN(M, h##1) TEN(M, h##2) TEN(M, h##3) TEN(M, h##4) \
                      TEN(M, h##5) TEN(M, h##6) TEN(M, h##7) TEN(M, h##8) TEN(M, h##9)

/* site_0 .. site_9 are written out: the macros above make 10 .. 299. */
SITE(0) SITE(1) SITE(2) SITE(3) SITE(4) SITE(5) SITE(6) SITE(7) SITE(8) SITE(9)
TEN(SITE, 1) TEN(SITE, 2) TEN(SITE, 3) TEN(SITE, 4) TEN(SITE, 5)
TEN(SITE, 6) TEN(SITE, 7) TEN(SITE, 8) TEN(SITE, 9)
HUNDRED(SITE, 1) HUNDRED(SITE, 2)
CALLER(0) CALLER(1) CALLER(2) CALLER(3) CALLER(4)
CALLER(5) CALLER(6) CALLER(7) CALLER(8) CALLER(9)
TEN(CALLER, 1) TEN(CALLER, 2) TEN(CALLER, 3) TEN(CALLER, 4)

#define REF(i) site_##i,
#define CREF(i) caller_##i,
static void (*const sites[N_SITES])(void) = {
    REF(0) REF(1) REF(2) REF(3) REF(4) REF(5) REF(6) REF(7) REF(8) REF(9)
    TEN(REF, 1) TEN(REF, 2) TEN(REF, 3) TEN(REF, 4) TEN(REF, 5)
    TEN(REF, 6) TEN(REF, 7) TEN(REF, 8) TEN(REF, 9)
    HUNDRED(REF, 1) HUNDRED(REF, 2)
};
static void (*const callers[N_CALLERS])(void) = {
    CREF(0) CREF(1) CREF(2) CREF(3) CREF(4) CREF(5) CREF(6) CREF(7) CREF(8) CREF(9)
    TEN(CREF, 1) TEN(CREF, 2) TEN(CREF, 3) TEN(CREF, 4)
};

static void big_site(void)
{
    big_block = malloc(500000);
}

int main(void)
{
    int i;
    big_site();
    for (i = 0; i < N_SITES; i++)
        sites[i]();
    for (i = 0; i < N_CALLERS; i++)
        callers[i]();
    free(big_block);
    for (i = 0; i < N_SITES; i++)
        free(site_blocks[i]);
    for (i = 0; i < N_CALLERS; i++)
        free(caller_blocks[i]);
    return 0;
}
