// stripped_layers.cc: t618's program, a C++ library stripped to its exported
// symbols (built with -DLIB, -fvisibility=hidden, strip --strip-all) under a
// main program. Inside the library, malloc's caller is three static
// functions deep below the exported functions, so the first frames of every
// path have no name and the first named one is at call level 4:
//   malloc <- layer3 <- layer2 <- layer1 <- store::fill (300000 B)
//                                        <- net::frame  (200000 B)
// store::fill and net::frame reach the same unnamed frames: only the
// callers above them tell their bytes apart. The main program (not
// stripped) also allocates through a function of its own, keep_local
// (12000 B), whose caller has a name at level 2.
#include <cstdio>
#include <cstdlib>
#include <cstring>

#ifdef LIB
#define EXPORT __attribute__((visibility("default"), noinline))
#define HIDDEN __attribute__((noinline))

static HIDDEN void *layer3(size_t n)
{
    void *p = malloc(n);
    memset(p, 1, n);
    return p;
}
static HIDDEN void *layer2(size_t n) { void *p = layer3(n); __asm__ volatile("" ::: "memory"); return p; }
static HIDDEN void *layer1(size_t n) { void *p = layer2(n); __asm__ volatile("" ::: "memory"); return p; }

namespace store {
EXPORT void *fill(size_t n) { void *p = layer1(n); __asm__ volatile("" ::: "memory"); return p; }
}
namespace net {
EXPORT void *frame(size_t n) { void *p = layer1(n); __asm__ volatile("" ::: "memory"); return p; }
}
#else
namespace store { void *fill(size_t n); }
namespace net { void *frame(size_t n); }

__attribute__((noinline)) static void *keep_local(size_t n)
{
    void *p = malloc(n);
    memset(p, 2, n);
    return p;
}

int main()
{
    void *held[64];
    int k = 0;
    for (int i = 0; i < 30; i++)
        held[k++] = store::fill(10000);
    for (int i = 0; i < 20; i++)
        held[k++] = net::frame(10000);
    held[k++] = keep_local(12000);
    printf("%d\n", k);
    for (int i = 0; i < k; i++)
        free(held[i]);
    return 0;
}
#endif
