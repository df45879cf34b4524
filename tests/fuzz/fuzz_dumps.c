/* fuzz_dumps.c: libFuzzer harness for memtime-vis's heap dump readers
 * (read/jeheap.c, read/maps.c, read/pprof_in.c) and the conversion of a
 * series into a Massif profile and companion (read/dumps.c: symbols
 * through libdwfl, the trees, the writer). The readers take paths, so each
 * input is written to a file of a scratch directory first, under a
 * jemalloc dump's name; an input that starts with "SPLIT\n" is two dumps
 * of one series, cut at the next "SPLIT\n". The output goes to the same
 * directory; the sanitizers report what matters. Built and run by
 * tests/fuzz/run-dumps.sh and t705; seeds are real dumps. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "read/dumps.h"
#include "read/jeheap.h"
#include "read/maps.h"
#include "read/pprof_in.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char dir[64];

static int put(const char *path, const uint8_t *d, size_t n)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return -1;
    size_t w = fwrite(d, 1, n, f);
    return fclose(f) == 0 && w == n ? 0 : -1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!dir[0]) {
        snprintf(dir, sizeof dir, "/tmp/fuzz-dumps.XXXXXX");
        if (!mkdtemp(dir))
            abort();
    }
    char p1[128], p2[128], out[128], comp[160], err[1024], warn[1024], shown[256];
    snprintf(p1, sizeof p1, "%s/jp.7.0.i0.heap", dir);
    snprintf(p2, sizeof p2, "%s/jp.7.1.i1.heap", dir);
    snprintf(out, sizeof out, "%s/out", dir);
    snprintf(comp, sizeof comp, "%s/out.memtime", dir);
    const char *paths[2] = { p1, p2 };
    size_t n = 1;
    if (size > 6 && !memcmp(data, "SPLIT\n", 6)) {
        const uint8_t *cut = memmem(data + 6, size - 6, "SPLIT\n", 6);
        size_t a = cut ? (size_t)(cut - data) - 6 : size - 6;
        if (put(p1, data + 6, a) != 0)
            return 0;
        if (cut && put(p2, cut + 6, size - (size_t)(cut - data) - 6) == 0)
            n = 2;
    } else if (put(p1, data, size) != 0) {
        return 0;
    }
    /* The readers on their own ... */
    vis_jeheap d;
    if (vis_jeheap_read(p1, &d, err, sizeof err) == 0) {
        vis_maps m;
        if (d.maps && vis_maps_parse(&m, d.maps, d.maps_len, p1, d.maps_line, err, sizeof err) == 0)
            vis_maps_free(&m);
        vis_jeheap_free(&d);
    }
    vis_pprof pp;
    if (vis_pprof_read(p1, &pp, err, sizeof err) == 0)
        vis_pprof_free(&pp);
    /* ... and the whole conversion. */
    vis_dumps_opts o = { { NULL, NULL }, VIS_CLOCK_SEQ, -1, 1.0 };
    vis_dumps_convert(paths, n, &o, out, shown, sizeof shown, warn, sizeof warn, err, sizeof err);
    unlink(p1);
    unlink(p2);
    unlink(out);
    unlink(comp);
    return 0;
}
