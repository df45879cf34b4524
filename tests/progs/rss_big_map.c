/* rss_big_map.c: a small heap beside a large resident mapping, for t306
 * (the RSS panel). rss_big_map N maps N MiB of private anonymous memory and
 * writes every page (so it is resident), then grows a small heap in three
 * sites (grow_index 4 x 256 KiB, grow_cache 4 x 128 KiB, grow_names 4 x
 * 64 KiB: 1.75 MiB at the end), asking memtime for a snapshot after each
 * step (MEMTIME_SNAPSHOT, which also reads the RSS there); then frees the
 * heap and unmaps. The RSS is then N MiB and more, the heap under 2 MiB. */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include "memtime.h"

static void *keep[12];

static void *grow_index(void) { return malloc(256 << 10); }
static void *grow_cache(void) { return malloc(128 << 10); }
static void *grow_names(void) { return malloc(64 << 10); }

int main(int argc, char **argv)
{
    size_t n = (size_t)(argc > 1 ? atoi(argv[1]) : 64) << 20;
    char *m = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED)
        return 1;
    for (size_t i = 0; i < n; i += 4096)
        m[i] = 1;
    MEMTIME_SNAPSHOT();
    for (int k = 0; k < 4; k++) {
        keep[3 * k] = grow_index();
        keep[3 * k + 1] = grow_cache();
        keep[3 * k + 2] = grow_names();
        for (int j = 0; j < 3; j++)
            memset(keep[3 * k + j], 1, 64 << 10);
        MEMTIME_SNAPSHOT();
    }
    for (int i = 0; i < 12; i++)
        free(keep[i]);
    MEMTIME_SNAPSHOT();
    munmap(m, n);
    return 0;
}
