/* je2pprof.c: turns a jemalloc heap dump into a pprof profile the way
 * jemalloc_pprof (rust-jemalloc-pprof's parse_jeheap and dump_pprof) does,
 * for t706: one sample type inuse_space/bytes, each stack's "t*" counts
 * unsampled with jeprof's formula, every address minus one, made relative
 * to its object's file (address - start + offset), one mapping per object
 * spanning the whole address space (memory_start 0, memory_limit all ones,
 * file_offset 0), no function names: unsymbolized. time_nanos is given.
 *   je2pprof DUMP TIME_NANOS OUT.pb.gz
 * Built against the protobuf-c code of memtime-vis's pprof_profile.proto. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include "pprof_profile.pb-c.h"

typedef struct { uint64_t start, end, offset; char path[512]; } map_t;
static map_t maps[512];
static size_t n_maps;
static char *strs[1024];
static size_t n_strs = 1;

static int64_t str(const char *s)
{
    for (size_t i = 0; i < n_strs; i++)
        if (strs[i] && !strcmp(strs[i], s))
            return (int64_t)i;
    strs[n_strs] = strdup(s);
    return (int64_t)n_strs++;
}

int main(int argc, char **argv)
{
    if (argc != 4)
        return 2;
    FILE *f = fopen(argv[1], "r");
    if (!f)
        return 1;
    strs[0] = "";
    char line[4096];
    uint64_t period = 0;
    static uint64_t pcs[4096][130];
    static size_t npcs[4096];
    static double bytes[4096];
    size_t n = 0;
    int in_maps = 0;
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = '\0';
        unsigned long long a, b, c, d;
        if (!period && sscanf(line, "heap_v2/%llu", &a) == 1) {
            period = a;
        } else if (line[0] == '@' && n < 4096) {
            char *p = line + 1;
            npcs[n] = 0;
            while (*p == ' ' && npcs[n] < 130) {
                pcs[n][npcs[n]++] = strtoull(p + 1, &p, 16);
            }
            n++;
        } else if (!in_maps && n && sscanf(line, "  t*: %llu: %llu [%llu: %llu]", &a, &b, &c, &d) == 4) {
            double ratio = ((double)b / (double)a) / (double)period;
            bytes[n - 1] = a ? (double)b / (1.0 - exp(-ratio)) : 0;
        } else if (!strcmp(line, "MAPPED_LIBRARIES:")) {
            in_maps = 1;
        } else if (in_maps && n_maps < 512) {
            char perms[8], path[512] = "";
            if (sscanf(line, "%llx-%llx %7s %llx %*s %*s %511s", &a, &b, perms, &c, path) >= 4 &&
                path[0] == '/' && perms[2] == 'x')
                maps[n_maps++] = (map_t){ a, b, c, "" }, strcpy(maps[n_maps - 1].path, path);
        }
    }
    fclose(f);
    Perftools__Profiles__Profile p = PERFTOOLS__PROFILES__PROFILE__INIT;
    Perftools__Profiles__ValueType st = PERFTOOLS__PROFILES__VALUE_TYPE__INIT, pt = PERFTOOLS__PROFILES__VALUE_TYPE__INIT;
    st.type = str("inuse_space");
    st.unit = str("bytes");
    pt.type = str("space");
    pt.unit = str("bytes");
    Perftools__Profiles__ValueType *stp = &st;
    p.n_sample_type = 1;
    p.sample_type = &stp;
    p.period_type = &pt;
    p.time_nanos = strtoll(argv[2], NULL, 10);
    /* One mapping per object. */
    static Perftools__Profiles__Mapping mp[512], *mpp[512];
    static char *objs[512];
    size_t n_obj = 0;
    for (size_t i = 0; i < n_maps; i++) {
        size_t k = 0;
        while (k < n_obj && strcmp(objs[k], maps[i].path))
            k++;
        if (k == n_obj) {
            objs[n_obj] = maps[i].path;
            perftools__profiles__mapping__init(&mp[n_obj]);
            mp[n_obj].id = n_obj + 1;
            mp[n_obj].memory_start = 0;
            mp[n_obj].memory_limit = UINT64_MAX;
            mp[n_obj].filename = str(maps[i].path);
            mpp[n_obj] = &mp[n_obj];
            n_obj++;
        }
    }
    p.n_mapping = n_obj;
    p.mapping = mpp;
    static Perftools__Profiles__Location loc[4096 * 8], *locp[4096 * 8];
    static Perftools__Profiles__Sample smp[4096], *smpp[4096];
    static uint64_t ids[4096][130];
    static int64_t vals[4096];
    size_t n_loc = 0;
    for (size_t s = 0; s < n; s++) {
        perftools__profiles__sample__init(&smp[s]);
        for (size_t k = 0; k < npcs[s]; k++) {
            uint64_t pc = pcs[s][k] - 1, addr = pc, map = 0;
            for (size_t i = 0; i < n_maps; i++)
                if (pc >= maps[i].start && pc < maps[i].end) {
                    addr = pc - maps[i].start + maps[i].offset;
                    for (size_t o = 0; o < n_obj; o++)
                        if (!strcmp(objs[o], maps[i].path))
                            map = o + 1;
                }
            size_t l = 0;
            while (l < n_loc && !(loc[l].address == addr && loc[l].mapping_id == map))
                l++;
            if (l == n_loc && n_loc < 4096 * 8) {
                perftools__profiles__location__init(&loc[l]);
                loc[l].id = l + 1;
                loc[l].mapping_id = map;
                loc[l].address = addr;
                locp[l] = &loc[l];
                n_loc++;
            }
            ids[s][k] = l + 1;
        }
        smp[s].n_location_id = npcs[s];
        smp[s].location_id = ids[s];
        vals[s] = (int64_t)llround(bytes[s]);
        smp[s].n_value = 1;
        smp[s].value = &vals[s];
        smpp[s] = &smp[s];
    }
    p.n_sample = n;
    p.sample = smpp;
    p.n_location = n_loc;
    p.location = locp;
    p.n_string_table = n_strs;
    p.string_table = strs;
    size_t len = perftools__profiles__profile__get_packed_size(&p);
    uint8_t *buf = malloc(len);
    perftools__profiles__profile__pack(&p, buf);
    gzFile g = gzopen(argv[3], "wb");
    if (!g || gzwrite(g, buf, (unsigned)len) != (int)len || gzclose(g) != Z_OK)
        return 1;
    return 0;
}
