/* inline_wrapper.c: a custom allocation wrapper the compiler must inline
 * (always_inline), called from two functions that are never inlined, so at
 * -O2 each allocation's stack is one IP holding two frames: the inlined
 * wrapper and its caller. For t406: Massif prints the wrapper's line even
 * with --alloc-fn=xmalloc_inline (it compares names of real functions only);
 * memtime strips it. Everything is freed at the end, so there is a peak. */
#include <stdlib.h>
#include <string.h>

static inline __attribute__((always_inline)) void *xmalloc_inline(size_t n)
{
    void *p = malloc(n);
    if (p == NULL)
        abort();
    memset(p, 1, n);
    return p;
}

static void *volatile small[200];
static void *volatile big[100];

__attribute__((noinline)) static void make_small(void)
{
    for (int i = 0; i < 200; i++)
        small[i] = xmalloc_inline(1000);
}

__attribute__((noinline)) static void make_big(void)
{
    for (int i = 0; i < 100; i++)
        big[i] = xmalloc_inline(4000);
}

int main(void)
{
    make_small();
    make_big();
    for (int i = 0; i < 200; i++)
        free(small[i]);
    for (int i = 0; i < 100; i++)
        free(big[i]);
    return 0;
}
