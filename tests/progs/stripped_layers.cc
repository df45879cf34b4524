// stripped_layers.cc: t628's program, a C++ library stripped to its exported
// symbols (built with -DLIB, -fvisibility=hidden, strip --strip-all) under a
// main program. Inside the library, malloc's caller is three static
// functions deep below the exported functions, so the first frames of every
// path have no name and the first named one is at call level 4:
//   malloc <- layer3 <- layer2 <- layer1 <- store::fill (300000 B)
//                                        <- net::frame  (200000 B)
// store::fill and net::frame reach the same unnamed frames: only the
// callers above them tell their bytes apart. The main program (not
// stripped) also allocates through a function of its own, keep_local
// (12000 B), whose caller has a name at level 2. With an argument N, it
// first maps and reads a file of N MiB, so that, as in rustc (its libraries
// mapped), the resident memory is many times the heap.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

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

int main(int argc, char **argv)
{
    void *held[64];
    int k = 0;
    if (argc > 1) {
        size_t len = (size_t)atoi(argv[1]) << 20;
        int fd = open("layers.blob", O_RDWR | O_CREAT | O_TRUNC, 0600);
        if (fd < 0 || ftruncate(fd, (off_t)len) != 0)
            return 1;
        volatile const char *m = (const char *)mmap(NULL, len, PROT_READ, MAP_SHARED, fd, 0);
        if (m == MAP_FAILED)
            return 1;
        unsigned sum = 0;
        for (size_t i = 0; i < len; i += 4096)
            sum += m[i];
        if (sum != 0)
            return 1;
    }
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
