/* pprof_in.c: reads one gzipped pprof profile (pprof_in.h). zlib inflates
 * it (gzip, or zlib's raw stream, as pprof accepts both), protobuf-c
 * unpacks it, and every reference is checked once here so that the
 * converter can follow them blindly: string indices, location ids of the
 * samples, function ids of the lines, mapping ids of the locations, one
 * value per sample type. */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include "read/pprof_in.h"

/* A hostile file could inflate without end; heap profiles of big services
 * are megabytes. */
#define MAX_INFLATED ((size_t)1 << 30)

int vis_pprof_sniff(const unsigned char *buf, size_t n)
{
    return n >= 2 && buf[0] == 0x1f && buf[1] == 0x8b;
}

/* The whole file, inflated, into *out. */
static int inflate_file(const char *path, unsigned char **out, size_t *n, char *err,
                        size_t errsz)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errsz, "%s: cannot open: %s", path, strerror(errno));
        return -1;
    }
    z_stream z;
    memset(&z, 0, sizeof z);
    if (inflateInit2(&z, 15 + 32) != Z_OK) {   /* +32: gzip or zlib header */
        fclose(f);
        snprintf(err, errsz, "%s: out of memory", path);
        return -1;
    }
    unsigned char in[65536];
    size_t cap = 1 << 16, len = 0;
    unsigned char *buf = malloc(cap);
    int rc = buf ? Z_OK : Z_MEM_ERROR, eof = 0;
    while (rc == Z_OK && buf) {
        if (z.avail_in == 0 && !eof) {
            z.avail_in = (uInt)fread(in, 1, sizeof in, f);
            z.next_in = in;
            eof = z.avail_in == 0;
            if (eof)
                break;
        }
        if (cap - len < 65536) {
            if (cap >= MAX_INFLATED) {
                rc = Z_BUF_ERROR;
                break;
            }
            unsigned char *b = realloc(buf, cap * 2);
            if (!b) {
                rc = Z_MEM_ERROR;
                break;
            }
            buf = b;
            cap *= 2;
        }
        z.next_out = buf + len;
        z.avail_out = (uInt)(cap - len);
        rc = inflate(&z, Z_NO_FLUSH);
        len = cap - z.avail_out;
        if (rc == Z_STREAM_END && z.avail_in == 0 && !feof(f)) {
            /* concatenated gzip members */
            rc = inflateReset(&z);
        }
    }
    int read_err = ferror(f);
    fclose(f);
    inflateEnd(&z);
    if (rc != Z_STREAM_END || read_err) {
        free(buf);
        snprintf(err, errsz, "%s: expected a gzipped pprof profile, found %s", path,
                 read_err ? "a read error" : rc == Z_MEM_ERROR ? "no memory to inflate it"
                 : rc == Z_BUF_ERROR && len >= MAX_INFLATED ? "more than 1 GiB inflated"
                 : rc == Z_DATA_ERROR ? "corrupt compressed data"
                 : "its end missing (the file is cut short)");
        return -1;
    }
    *out = buf;
    *n = len;
    return 0;
}

static int by_id(const void *a, const void *b)
{
    const vis_pprof_id *x = a, *y = b;
    return x->id < y->id ? -1 : x->id > y->id;
}

/* A sorted id index of n items whose ids get() reads; -1 on a duplicate or
 * zero id (what, for the message). */
static int index_ids(vis_pprof_id **out, size_t n, void *const *items, size_t id_off,
                     const char *path, const char *what, char *err, size_t errsz)
{
    vis_pprof_id *a = malloc((n ? n : 1) * sizeof *a);
    if (!a) {
        snprintf(err, errsz, "%s: out of memory", path);
        return -1;
    }
    for (size_t i = 0; i < n; i++) {
        a[i].id = *(const uint64_t *)(const void *)((const char *)items[i] + id_off);
        a[i].index = i;
    }
    qsort(a, n, sizeof *a, by_id);
    for (size_t i = 0; i < n; i++)
        if (a[i].id == 0 || (i && a[i].id == a[i - 1].id)) {
            snprintf(err, errsz, "%s: expected %s ids that are unique and not 0, found %s id %llu"
                     "%s", path, what, what, (unsigned long long)a[i].id, a[i].id ? " twice" : "");
            free(a);
            return -1;
        }
    *out = a;
    return 0;
}

static const vis_pprof_id *find(const vis_pprof_id *a, size_t n, uint64_t id)
{
    vis_pprof_id key = { id, 0 };
    return n ? bsearch(&key, a, n, sizeof *a, by_id) : NULL;
}

const Perftools__Profiles__Location *vis_pprof_location(const vis_pprof *d, uint64_t id)
{
    const vis_pprof_id *k = find(d->locs, d->p->n_location, id);
    return k ? d->p->location[k->index] : NULL;
}

const Perftools__Profiles__Function *vis_pprof_function(const vis_pprof *d, uint64_t id)
{
    const vis_pprof_id *k = find(d->funcs, d->p->n_function, id);
    return k ? d->p->function[k->index] : NULL;
}

const Perftools__Profiles__Mapping *vis_pprof_mapping(const vis_pprof *d, uint64_t id)
{
    const vis_pprof_id *k = id ? find(d->maps, d->p->n_mapping, id) : NULL;
    return k ? d->p->mapping[k->index] : NULL;
}

const char *vis_pprof_str(const vis_pprof *d, int64_t i)
{
    return i >= 0 && (size_t)i < d->p->n_string_table ? d->p->string_table[i] : "";
}

static int check(vis_pprof *d, char *err, size_t errsz)
{
    const Perftools__Profiles__Profile *p = d->p;
    const char *path = d->path;
#define STR_OK(i) ((i) >= 0 && (size_t)(i) < p->n_string_table)
    if (p->n_string_table == 0 || p->string_table[0][0]) {
        snprintf(err, errsz, "%s: expected a string table whose first string is empty, found %s",
                 path, p->n_string_table ? "another" : "none");
        return -1;
    }
    size_t want = SIZE_MAX;
    for (size_t i = 0; i < p->n_sample_type; i++) {
        if (!STR_OK(p->sample_type[i]->type) || !STR_OK(p->sample_type[i]->unit))
            goto bad_string;
        const char *t = p->string_table[p->sample_type[i]->type];
        const char *u = p->string_table[p->sample_type[i]->unit];
        if (!strcmp(t, "inuse_space") && !strcmp(u, "bytes"))
            want = i;
    }
    if (want == SIZE_MAX) {
        char types[256] = "";
        size_t used = 0;
        for (size_t i = 0; i < p->n_sample_type && used < sizeof types; i++)
            used += (size_t)snprintf(types + used, sizeof types - used, "%s%s/%s", i ? ", " : "",
                                     p->string_table[p->sample_type[i]->type],
                                     p->string_table[p->sample_type[i]->unit]);
        snprintf(err, errsz, "%s: expected a heap profile (a sample type inuse_space/bytes), "
                 "found %s", path, p->n_sample_type ? types : "no sample type");
        return -1;
    }
    d->value = want;
    if (index_ids(&d->locs, p->n_location, (void *const *)p->location,
                  offsetof(Perftools__Profiles__Location, id), path, "location", err, errsz) ||
        index_ids(&d->funcs, p->n_function, (void *const *)p->function,
                  offsetof(Perftools__Profiles__Function, id), path, "function", err, errsz) ||
        index_ids(&d->maps, p->n_mapping, (void *const *)p->mapping,
                  offsetof(Perftools__Profiles__Mapping, id), path, "mapping", err, errsz))
        return -1;
    for (size_t i = 0; i < p->n_function; i++) {
        const Perftools__Profiles__Function *f = p->function[i];
        if (!STR_OK(f->name) || !STR_OK(f->system_name) || !STR_OK(f->filename))
            goto bad_string;
    }
    for (size_t i = 0; i < p->n_mapping; i++)
        if (!STR_OK(p->mapping[i]->filename) || !STR_OK(p->mapping[i]->build_id))
            goto bad_string;
    for (size_t i = 0; i < p->n_location; i++) {
        const Perftools__Profiles__Location *l = p->location[i];
        if (l->mapping_id && !vis_pprof_mapping(d, l->mapping_id)) {
            snprintf(err, errsz, "%s: location %llu: expected a mapping id of the profile, "
                     "found %llu", path, (unsigned long long)l->id,
                     (unsigned long long)l->mapping_id);
            return -1;
        }
        for (size_t k = 0; k < l->n_line; k++)
            if (!vis_pprof_function(d, l->line[k]->function_id)) {
                snprintf(err, errsz, "%s: location %llu: expected a function id of the profile, "
                         "found %llu", path, (unsigned long long)l->id,
                         (unsigned long long)l->line[k]->function_id);
                return -1;
            }
    }
    for (size_t i = 0; i < p->n_sample; i++) {
        const Perftools__Profiles__Sample *s = p->sample[i];
        if (s->n_value != p->n_sample_type) {
            snprintf(err, errsz, "%s: sample %zu: expected %zu values (one per sample type), "
                     "found %zu", path, i, p->n_sample_type, s->n_value);
            return -1;
        }
        for (size_t k = 0; k < s->n_location_id; k++)
            if (!vis_pprof_location(d, s->location_id[k])) {
                snprintf(err, errsz, "%s: sample %zu: expected a location id of the profile, "
                         "found %llu", path, i, (unsigned long long)s->location_id[k]);
                return -1;
            }
        if (s->value[want] > 0)
            d->total += (uint64_t)s->value[want];
    }
    return 0;
bad_string:
    snprintf(err, errsz, "%s: expected string indices below %zu (the string table's size), "
             "found one beyond", path, p->n_string_table);
    return -1;
#undef STR_OK
}

int vis_pprof_read(const char *path, vis_pprof *d, char *err, size_t errsz)
{
    memset(d, 0, sizeof *d);
    unsigned char *buf;
    size_t n;
    if (inflate_file(path, &buf, &n, err, errsz) != 0)
        return -1;
    d->p = perftools__profiles__profile__unpack(NULL, n, buf);
    free(buf);
    if (!d->p) {
        snprintf(err, errsz, "%s: expected a pprof profile (profile.proto) inside the gzip, found "
                 "data that does not unpack as one", path);
        return -1;
    }
    if (!(d->path = strdup(path))) {
        snprintf(err, errsz, "%s: out of memory", path);
        vis_pprof_free(d);
        return -1;
    }
    if (check(d, err, errsz) != 0) {
        vis_pprof_free(d);
        return -1;
    }
    return 0;
}

void vis_pprof_free(vis_pprof *d)
{
    if (d->p)
        perftools__profiles__profile__free_unpacked(d->p, NULL);
    free(d->locs);
    free(d->funcs);
    free(d->maps);
    free(d->path);
    memset(d, 0, sizeof *d);
}
