/* vis_inline.c: allocation sites inside functions the compiler inlines at -O2,
 * so Massif's trees hold inlined frames (extra "n1" lines sharing one
 * address). Built with -O2 -g by the tests that need it. */
#include <stdlib.h>
#include <string.h>

static inline void *inner_alloc(size_t n)
{
    void *p = malloc(n);
    if (p)
        memset(p, 7, n);
    return p;
}

static inline void *middle_alloc(size_t n) { return inner_alloc(n * 2); }

static void *volatile sink[256];

int main(void)
{
    for (int i = 0; i < 256; i++)
        sink[i] = middle_alloc(512 + (size_t)i * 16);
    for (int i = 0; i < 256; i += 2)
        free(sink[i]);
    for (int i = 1; i < 256; i += 2)
        free(sink[i]);
    return 0;
}
