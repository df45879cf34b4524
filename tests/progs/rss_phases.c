/* rss_phases.c: resident memory with known answers, for t595-rss.sh.
 *
 *   rss_phases map N DIR   maps and touches N MiB of private anonymous memory,
 *                          then N MiB of a file made in DIR (mapped shared,
 *                          every page read), then N/2 MiB of shared anonymous
 *                          memory; then unmaps all three.
 *   rss_phases frag N      allocates N MiB in 256-byte blocks, then frees every
 *                          other block: the heap halves, the pages stay.
 *   rss_phases untouched N maps N MiB and reads every page without writing it,
 *                          then callocs N MiB and leaves it alone: under
 *                          memtime both are resident (the zero page shows in
 *                          the page map; memtime's calloc clears the block);
 *                          natively glibc's calloc leaves fresh pages alone,
 *                          and the pages read count or not as the kernel
 *                          decides (most map the shared zero page there),
 *                          as docs/guide.md says.
 *   rss_phases retain N    allocates N MiB in 1 KiB blocks, then frees them all.
 *                          Built with -DJE_PREFIX=<p> and a jemalloc whose API
 *                          is renamed <p>malloc, ..., the blocks come from that
 *                          jemalloc (memtime intercepts jemalloc's usual names,
 *                          so this one runs for real) and are reported to
 *                          memtime as a custom allocator's
 *                          (VALGRIND_MALLOCLIKE_BLOCK); its purging is off, so
 *                          the freed pages stay resident, retained by jemalloc.
 *
 * At each phase it prints its own figures from /proc/self/status, the same
 * the kernel reports to ps and the OOM killer ("phase NAME VmRSS=<kB>
 * RssAnon=<kB> RssFile=<kB> RssShmem=<kB>"), then marks the phase
 * (MEMTIME_MARK) and asks memtime for a snapshot (MEMTIME_SNAPSHOT), which
 * reads the resident memory there. Run natively, the marks are no-ops and the
 * printed figures are the oracle; under memtime the figures printed are
 * Valgrind's whole process and are ignored. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "memtime.h"

#ifdef JE_PREFIX
#include <valgrind/valgrind.h>
#define JE_CAT2(a, b) a##b
#define JE_CAT(a, b) JE_CAT2(a, b)
void *JE_CAT(JE_PREFIX, malloc)(size_t);
void JE_CAT(JE_PREFIX, free)(void *);
/* jemalloc reads this at start-up: never give freed pages back. */
const char *JE_CAT(JE_PREFIX, malloc_conf) = "dirty_decay_ms:-1,muzzy_decay_ms:-1";
static void *retain_alloc(size_t n)
{
    void *p = JE_CAT(JE_PREFIX, malloc)(n);
    VALGRIND_MALLOCLIKE_BLOCK(p, n, 0, 0);
    return p;
}
static void retain_free(void *p)
{
    VALGRIND_FREELIKE_BLOCK(p, 0);
    JE_CAT(JE_PREFIX, free)(p);
}
#else
#define retain_alloc malloc
#define retain_free free
#endif

static void phase(const char *name)
{
    char line[256];
    long vmrss = -1, anon = -1, file = -1, shmem = -1;
    FILE *f = fopen("/proc/self/status", "r");
    if (!f) {
        perror("/proc/self/status");
        exit(1);
    }
    while (fgets(line, sizeof line, f)) {
        sscanf(line, "VmRSS: %ld", &vmrss);
        sscanf(line, "RssAnon: %ld", &anon);
        sscanf(line, "RssFile: %ld", &file);
        sscanf(line, "RssShmem: %ld", &shmem);
    }
    fclose(f);
    printf("phase %s VmRSS=%ld RssAnon=%ld RssFile=%ld RssShmem=%ld\n", name, vmrss,
           anon, file, shmem);
    fflush(stdout);
    MEMTIME_MARK(name);
    MEMTIME_SNAPSHOT();
}

static void touch(volatile char *p, size_t n, int write)
{
    size_t sum = 0;
    for (size_t i = 0; i < n; i += 4096) {
        if (write)
            p[i] = 1;
        else
            sum += p[i];
    }
    if (sum == 12345)
        puts("");
}

static void *map(size_t n, int flags, int fd)
{
    void *p = mmap(NULL, n, PROT_READ | PROT_WRITE, flags, fd, 0);
    if (p == MAP_FAILED) {
        perror("mmap");
        exit(1);
    }
    return p;
}

static int do_map(size_t mib, const char *dir)
{
    size_t n = mib << 20;
    phase("start");

    char *anon = map(n, MAP_PRIVATE | MAP_ANONYMOUS, -1);
    touch(anon, n, 1);
    phase("anon");

    char path[4096];
    snprintf(path, sizeof path, "%s/rss_phases.data", dir);
    int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
    if (fd < 0 || ftruncate(fd, (off_t)n) != 0) {
        perror(path);
        return 1;
    }
    char *file = map(n, MAP_SHARED, fd);
    touch(file, n, 0);
    phase("file");

    char *shared = map(n / 2, MAP_SHARED | MAP_ANONYMOUS, -1);
    touch(shared, n / 2, 1);
    phase("shared");

    munmap(anon, n);
    munmap(file, n);
    munmap(shared, n / 2);
    close(fd);
    unlink(path);
    phase("unmapped");
    return 0;
}

static int do_frag(size_t mib)
{
    size_t n = (mib << 20) / 256;
    char **blocks = malloc(n * sizeof *blocks);
    if (!blocks)
        return 1;
    phase("start");
    for (size_t i = 0; i < n; i++) {
        blocks[i] = malloc(256 - 16);
        if (!blocks[i])
            return 1;
        memset(blocks[i], 1, 256 - 16);
    }
    phase("allocated");
    for (size_t i = 0; i < n; i += 2)
        free(blocks[i]);
    phase("half-freed");
    return 0;
}

static int do_retain(size_t mib)
{
    size_t n = (mib << 20) / 1024;
    char **blocks = malloc(n * sizeof *blocks);
    if (!blocks)
        return 1;
    phase("start");
    for (size_t i = 0; i < n; i++) {
        if (!(blocks[i] = retain_alloc(1024)))
            return 1;
        memset(blocks[i], 1, 1024);
    }
    phase("allocated");
    for (size_t i = 0; i < n; i++)
        retain_free(blocks[i]);
    phase("freed");
    free(blocks);
    return 0;
}

static int do_untouched(size_t mib)
{
    size_t n = mib << 20;
    phase("start");
    char *p = map(n, MAP_PRIVATE | MAP_ANONYMOUS, -1);
    touch(p, n, 0);
    phase("read");
    char *q = calloc(1, n);
    if (!q)
        return 1;
    phase("calloc");
    return q[n / 2] + p[n / 2];
}

int main(int argc, char **argv)
{
    if (argc == 4 && !strcmp(argv[1], "map"))
        return do_map(strtoul(argv[2], NULL, 10), argv[3]);
    if (argc == 3 && !strcmp(argv[1], "frag"))
        return do_frag(strtoul(argv[2], NULL, 10));
    if (argc == 3 && !strcmp(argv[1], "untouched"))
        return do_untouched(strtoul(argv[2], NULL, 10));
    if (argc == 3 && !strcmp(argv[1], "retain"))
        return do_retain(strtoul(argv[2], NULL, 10));
    fprintf(stderr, "usage: rss_phases map MIB DIR | frag MIB | untouched MIB | retain MIB\n");
    return 2;
}
