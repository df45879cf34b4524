/* anon_maps.c: anonymous memory that is not a hidden heap, and one that is,
   for t583. Each mode maps 320 MiB and touches every page it may touch,
   with almost no malloc:
     shared   MAP_SHARED | MAP_ANONYMOUS, read-write (PostgreSQL's
              shared_buffers): shared memory, not a heap;
     reserve  PROT_NONE reservations (ld.so's, rustc's, thread stacks'
              guards), never usable as they are;
     private  MAP_PRIVATE read-write, as an allocator nobody intercepts
              maps its heap;
     wait     as private, then sleeps until killed, waking every 0.2 s
              as servers do (the gap persists). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define TOTAL (320u << 20)

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "private";
    int prot = PROT_READ | PROT_WRITE, flags = MAP_PRIVATE | MAP_ANONYMOUS;
    if (!strcmp(mode, "shared"))
        flags = MAP_SHARED | MAP_ANONYMOUS;
    else if (!strcmp(mode, "reserve"))
        prot = PROT_NONE;
    char *small = malloc(1000);
    char *p = mmap(NULL, TOTAL, prot, flags, -1, 0);
    if (p == MAP_FAILED) {
        perror("mmap");
        return 1;
    }
    if (prot != PROT_NONE)
        for (size_t off = 0; off < TOTAL; off += 4096)
            p[off] = 1;
    free(small);
    if (!strcmp(mode, "wait")) {
        puts("mapped");
        fflush(stdout);
        for (;;)
            usleep(200000);
    }
    return 0;
}
