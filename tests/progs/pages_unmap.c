/* pages_unmap.c: whole-process memory that comes and goes through mmap,
   mremap, munmap and brk, for --pages-as-heap=yes.
     1. maps 64 pages and touches them, then unmaps them all;
     2. maps 32 pages, grows them to 96 with mremap (may move), unmaps them;
     3. maps 16 pages, maps 16 pages over them (MAP_FIXED), unmaps them;
     4. raises the break by 40 pages with sbrk, then lowers it back.
   After each step the process holds what it held before the step, so a
   profile whose value stays up after a munmap is wrong. The program then
   idles briefly (sleep) so a clock-driven profiler can sample the end.
   Usage: pages_unmap [STEPS]   e.g. "13" runs steps 1 and 3; default all;
   "0" runs none (the baseline). */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define PAGE 4096

static char *map(size_t pages)
{
    char *p = mmap(NULL, pages * PAGE, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) { perror("mmap"); _exit(1); }
    memset(p, 1, pages * PAGE);
    return p;
}

int main(int argc, char **argv)
{
    const char *steps = argc > 1 ? argv[1] : "1234";
    char *a, *b, *c, *brk0;

    puts("start");                      /* stdio's buffer before any step */
    if (strchr(steps, '1')) {
        a = map(64);
        munmap(a, 64 * PAGE);
    }

    if (strchr(steps, '2')) {
        b = map(32);
        b = mremap(b, 32 * PAGE, 96 * PAGE, MREMAP_MAYMOVE);
        if (b == MAP_FAILED) { perror("mremap"); return 1; }
        memset(b, 2, 96 * PAGE);
        munmap(b, 96 * PAGE);
    }

    if (strchr(steps, '3')) {
        c = map(16);
        if (mmap(c, 16 * PAGE, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) == MAP_FAILED) {
            perror("mmap fixed");
            return 1;
        }
        munmap(c, 16 * PAGE);
    }

    if (strchr(steps, '4')) {
        brk0 = sbrk(0);
        if (sbrk(40 * PAGE) == (void *)-1) { perror("sbrk"); return 1; }
        memset(brk0, 3, 40 * PAGE);
        sbrk(-40 * PAGE);
    }

    usleep(200 * 1000);
    puts("done");
    return 0;
}
