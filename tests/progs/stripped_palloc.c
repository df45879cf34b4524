/* stripped_palloc.c: a program shaped like Debian's postgres, meant to be
   built with -rdynamic and stripped to its exported symbols: malloc's
   direct caller is a static function (set_alloc, like AllocSetAlloc) that
   loses its name, under an exported palloc; the program's own exported
   functions call palloc. Known answers: build_index holds 3 x 400000
   bytes, load_cache 2 x 250000, at the end. */
#include <stdlib.h>
#include <string.h>

static __attribute__((noinline)) void *set_alloc(size_t n)
{
    void *p = malloc(n);
    memset(p, 1, n);
    return p;
}

__attribute__((noinline)) void *palloc(size_t n)
{
    return set_alloc(n);
}

__attribute__((noinline)) void *build_index(void)
{
    return palloc(400000);
}

__attribute__((noinline)) void *load_cache(void)
{
    return palloc(250000);
}

int main(void)
{
    void *keep[5];
    for (int i = 0; i < 3; i++)
        keep[i] = build_index();
    for (int i = 0; i < 2; i++)
        keep[3 + i] = load_cache();
    return keep[0] == keep[4];
}
