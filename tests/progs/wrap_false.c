// wrap_false.c (t660): functions that look like allocation wrappers to a
// rule counting return addresses, and are not: each is one site holding all
// its bytes. Built with -O2 (the unrolled loop, the inlined helper); every
// byte known by construction, held until the program exits.
//   lru_insert: a cache insert called from one line of main in a loop
//     unrolled 8 times (8 call sites): 24 blocks of 65536 B = 1572864 B.
//   make_widget: a factory called from 8 lines of build_ui, 1000 * k B
//     for the k-th line (36000 B).
//   rec_store: called through new_rec, a helper inlined at 8 places of
//     load_records, 5000 B each (40000 B).
//   parse: a recursive allocator, 8 recursive call sites: a tree of
//     1 + 8 + 64 = 73 nodes of 512 B (37376 B).
#include <stdlib.h>
#include <string.h>

#define NOINLINE __attribute__((noinline, noclone))
static void *held[512];
static int n_held;

static NOINLINE void *keep(void *p, size_t n)
{
    memset(p, 1, n);
    held[n_held++] = p;
    return p;
}

NOINLINE void lru_insert(int key)
{
    keep(malloc(65536), 64);
    (void)key;
}

NOINLINE void *make_widget(size_t n)
{
    return keep(malloc(n), n);
}

NOINLINE void build_ui(void)
{
    make_widget(1000);
    make_widget(2000);
    make_widget(3000);
    make_widget(4000);
    make_widget(5000);
    make_widget(6000);
    make_widget(7000);
    make_widget(8000);
}

NOINLINE void *rec_store(size_t n)
{
    return keep(malloc(n), n);
}

static inline __attribute__((always_inline)) void *new_rec(int k)
{
    return rec_store(5000 + (size_t)(k & 0));
}

NOINLINE void load_records(int k)
{
    new_rec(k);
    new_rec(k + 1);
    new_rec(k + 2);
    new_rec(k + 3);
    new_rec(k + 4);
    new_rec(k + 5);
    new_rec(k + 6);
    new_rec(k + 7);
}

NOINLINE void parse(int depth)
{
    keep(malloc(512), 512);
    if (depth == 0)
        return;
    parse(depth - 1);
    parse(depth - 1);
    parse(depth - 1);
    parse(depth - 1);
    parse(depth - 1);
    parse(depth - 1);
    parse(depth - 1);
    parse(depth - 1);
}

int main(int argc, char **argv)
{
    (void)argv;
    int n = argc * 24;   /* 24 (argc 1): not known to the compiler, so the loop stays a loop */
#pragma GCC unroll 8
    for (int i = 0; i < n; i++)
        lru_insert(i);
    build_ui();
    load_records(argc);
    parse(2);
    return n_held == 24 + 8 + 8 + 73 ? 0 : 1;   /* all held at exit */
}
