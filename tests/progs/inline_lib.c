/* inline_lib.c: a shared library, built -O2 -g, whose exported lib_alloc
 * allocates through a helper the compiler must inline. Loaded with dlopen
 * by inline_dlopen.c, so it is mapped after the C library: for t589, its
 * inlined frame must still be named when memtime skipped libc's. */
#include <stdlib.h>

static inline __attribute__((always_inline)) void *lib_make(size_t n)
{
    void *p = malloc(n);
    if (p == NULL)
        abort();
    return p;
}

void *lib_alloc(size_t n);
void *lib_alloc(size_t n)
{
    return lib_make(n);
}
