/* pprof.c: the snapshot's tree as a gzipped profile.proto, which go tool
 * pprof, pprof's web UI, Pyroscope and speedscope read. Encoded with
 * protobuf-c (code generated from pprof_profile.proto) and gzipped with
 * zlib; nothing here knows the wire format.
 *
 * What goes where:
 *   sample type inuse_space/bytes (the default), one sample per stack;
 *   one Location per frame, except that consecutive frames at the same
 *     address (a call inlined there: Massif prints one frame per function)
 *     share a Location with one Line each, the innermost first, as pprof
 *     represents inlining; "in N places" lines are functions named so, with
 *     no file;
 *   Functions keyed by (name, file), the line on the Line;
 *   one Mapping for the program (the command's first word), marked as
 *     symbolised so that pprof never looks for the binary;
 *   under --group-by, each stack's group (stack_groups.h) is its outermost
 *     Location, a Function named by the group's key with no file, and the
 *     sample's label "BY" = key (BY: crate, function, ...), so that
 *     -tags, -tagfocus and -tagroot see the groups as well as -top and
 *     -traces;
 *   comments: the command and which snapshot this is; time_nanos: the
 *     snapshot's time since the program started (ms profiles; 0 for i and
 *     B, whose time is no clock), since memtime records no wall-clock start.
 * Strings are made valid UTF-8 (proto3 requires it): an invalid byte
 * becomes U+FFFD. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include "base/grow.h"
#include "base/utf8.h"
#include "model/export.h"
#include "model/groups.h"
#include "pprof_profile.pb-c.h"

typedef Perftools__Profiles__Profile Profile;
typedef Perftools__Profiles__ValueType ValueType;
typedef Perftools__Profiles__Sample Sample;
typedef Perftools__Profiles__Mapping Mapping;
typedef Perftools__Profiles__Location Location;
typedef Perftools__Profiles__Line Line;
typedef Perftools__Profiles__Function Function;
typedef Perftools__Profiles__Label Label;

/* ------------------------------------------------------------ tables */

/* Open addressing over entries 0..n-1 of a table; slots hold index + 1. */
typedef struct {
    size_t *slots;
    size_t cap;
} index_set;

static uint64_t fnv(const void *data, size_t len)
{
    const unsigned char *s = data;
    uint64_t h = 1469598103934665603ULL;
    for (size_t i = 0; i < len; i++) {
        h ^= s[i];
        h *= 1099511628211ULL;
    }
    return h;
}

typedef struct {
    /* strings */
    char **str;
    size_t n_str;
    index_set str_set;
    /* functions: (name, file) string indices */
    Function *fn;
    size_t n_fn;
    index_set fn_set;
    /* locations: a run of frames at one address, innermost first */
    Location *loc;
    const size_t **loc_run;   /* the run's frame indices (inside a stack) */
    size_t n_loc;
    index_set loc_set;
    const vis_stacks *s;
} tables;

/* Grows set to hold one more of n entries, rehashing with key(). */
static int set_reserve(index_set *set, size_t n, uint64_t (*key)(const tables *, size_t),
                       const tables *t)
{
    if ((n + 1) * 2 <= set->cap)
        return 0;
    size_t cap = set->cap ? set->cap * 2 : 256;
    size_t *slots = calloc(cap, sizeof *slots);
    if (!slots)
        return -1;
    for (size_t i = 0; i < n; i++) {
        size_t j = key(t, i) & (cap - 1);
        while (slots[j])
            j = (j + 1) & (cap - 1);
        slots[j] = i + 1;
    }
    free(set->slots);
    set->slots = slots;
    set->cap = cap;
    return 0;
}

/* A copy of s with each byte that is not part of valid UTF-8 as U+FFFD. */
static char *utf8_copy(const char *s)
{
    size_t len = strlen(s);
    char *out = malloc(len * 3 + 1), *o = out;
    if (!out)
        return NULL;
    const unsigned char *u = (const unsigned char *)s;
    for (size_t i = 0; i < len;) {
        size_t n = vis_utf8_len(u + i, len - i);
        int ok = n > 0;
        if (ok) {
            memcpy(o, u + i, n);
            o += n;
            i += n;
        } else {
            memcpy(o, "\xEF\xBF\xBD", 3);
            o += 3;
            i++;
        }
    }
    *o = '\0';
    return out;
}

static uint64_t str_key(const tables *t, size_t i)
{
    return fnv(t->str[i], strlen(t->str[i]));
}

/* The string table index of s (made valid UTF-8), or -1 when out of memory. */
static int64_t str_id(tables *t, const char *s)
{
    char *u = utf8_copy(s);
    if (!u || set_reserve(&t->str_set, t->n_str, str_key, t) != 0) {
        free(u);
        return -1;
    }
    size_t j = fnv(u, strlen(u)) & (t->str_set.cap - 1);
    for (; t->str_set.slots[j]; j = (j + 1) & (t->str_set.cap - 1)) {
        size_t k = t->str_set.slots[j] - 1;
        if (strcmp(t->str[k], u) == 0) {
            free(u);
            return (int64_t)k;
        }
    }
    char **a = vis_grow(t->str, t->n_str, 64, sizeof *a);
    if (!a) {
        free(u);
        return -1;
    }
    t->str = a;
    t->str[t->n_str] = u;
    t->str_set.slots[j] = ++t->n_str;
    return (int64_t)(t->n_str - 1);
}

static uint64_t fn_key(const tables *t, size_t i)
{
    int64_t k[2] = { t->fn[i].name, t->fn[i].filename };
    return fnv(k, sizeof k);
}

/* The Function id for a frame, or 0 when out of memory. */
static uint64_t fn_id(tables *t, const vis_frame *f)
{
    int64_t name = str_id(t, f->function), file = str_id(t, f->file);
    if (name < 0 || file < 0 || set_reserve(&t->fn_set, t->n_fn, fn_key, t) != 0)
        return 0;
    int64_t k[2] = { name, file };
    size_t j = fnv(k, sizeof k) & (t->fn_set.cap - 1);
    for (; t->fn_set.slots[j]; j = (j + 1) & (t->fn_set.cap - 1)) {
        const Function *g = &t->fn[t->fn_set.slots[j] - 1];
        if (g->name == name && g->filename == file)
            return g->id;
    }
    Function *a = vis_grow(t->fn, t->n_fn, 64, sizeof *a);
    if (!a)
        return 0;
    t->fn = a;
    Function *g = &t->fn[t->n_fn];
    perftools__profiles__function__init(g);
    g->id = t->n_fn + 1;
    g->name = g->system_name = name;
    g->filename = file;
    t->fn_set.slots[j] = ++t->n_fn;
    return g->id;
}

static uint64_t loc_key_of(const size_t *frames, size_t len)
{
    return fnv(frames, len * sizeof *frames);
}

static uint64_t loc_key(const tables *t, size_t i)
{
    return loc_key_of(t->loc_run[i], t->loc[i].n_line);
}

/* The Location id for the run frames[0..len) of one stack (frame indices,
 * innermost first), or 0 when out of memory. */
static uint64_t loc_id(tables *t, const size_t *frames, size_t len)
{
    if (set_reserve(&t->loc_set, t->n_loc, loc_key, t) != 0)
        return 0;
    size_t j = loc_key_of(frames, len) & (t->loc_set.cap - 1);
    for (; t->loc_set.slots[j]; j = (j + 1) & (t->loc_set.cap - 1)) {
        size_t k = t->loc_set.slots[j] - 1;
        if (t->loc[k].n_line == len && !memcmp(t->loc_run[k], frames, len * sizeof *frames))
            return t->loc[k].id;
    }
    Location *a = vis_grow(t->loc, t->n_loc, 64, sizeof *a);
    if (a)
        t->loc = a;
    const size_t **r = a ? vis_grow(t->loc_run, t->n_loc, 64, sizeof *r) : NULL;
    if (!r)
        return 0;
    t->loc_run = r;
    Location *l = &t->loc[t->n_loc];
    perftools__profiles__location__init(l);
    t->loc_run[t->n_loc] = frames;
    t->n_loc++;   /* from here tables_free frees its lines */
    l->id = t->n_loc;
    l->mapping_id = 1;
    l->address = t->s->frames[frames[0]].address;
    Line *lines = calloc(len, sizeof *lines);
    if (!(l->line = calloc(len, sizeof *l->line)) || !lines) {
        free(lines);
        return 0;
    }
    for (size_t q = 0; q < len; q++) {
        const vis_frame *f = &t->s->frames[frames[q]];
        perftools__profiles__line__init(&lines[q]);
        l->line[q] = &lines[q];
        l->n_line = q + 1;
        if (!(lines[q].function_id = fn_id(t, f)))
            return 0;
        lines[q].line = f->line;
    }
    t->loc_set.slots[j] = t->n_loc;
    return l->id;
}

static void tables_free(tables *t)
{
    for (size_t i = 0; i < t->n_str; i++)
        free(t->str[i]);
    free(t->str);
    free(t->str_set.slots);
    free(t->fn);
    free(t->fn_set.slots);
    for (size_t i = 0; i < t->n_loc; i++) {
        if (t->loc[i].line)
            free(t->loc[i].line[0]);
        free(t->loc[i].line);
    }
    free(t->loc);
    free(t->loc_run);
    free(t->loc_set.slots);
}

/* ------------------------------------------------------------ writer */

/* Where each stack's run starts: a new Location where the address changes
 * or has none (0). */
static size_t run_len(const vis_stacks *s, const vis_stack *st, size_t k)
{
    uint64_t a = s->frames[st->frames[k]].address;
    size_t n = 1;
    while (a != 0 && k + n < st->depth && s->frames[st->frames[k + n]].address == a)
        n++;
    return n;
}

static int gzip_write(FILE *out, const uint8_t *data, size_t len, char *err, size_t errsz)
{
    z_stream z;
    memset(&z, 0, sizeof z);
    if (deflateInit2(&z, Z_BEST_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
        snprintf(err, errsz, "zlib: cannot start compressing");
        return -1;
    }
    uLong cap = deflateBound(&z, (uLong)len);
    uint8_t *buf = malloc(cap ? cap : 1);
    if (!buf) {
        deflateEnd(&z);
        snprintf(err, errsz, "out of memory");
        return -1;
    }
    z.next_in = (Bytef *)data;
    z.avail_in = (uInt)len;
    z.next_out = buf;
    z.avail_out = (uInt)cap;
    int rc = deflate(&z, Z_FINISH);
    size_t n = cap - z.avail_out;
    deflateEnd(&z);
    if (rc != Z_STREAM_END) {
        free(buf);
        snprintf(err, errsz, "zlib: compression failed");
        return -1;
    }
    fwrite(buf, 1, n, out);
    free(buf);
    return 0;
}

/* One sample per stack, in the arrays protobuf-c reads them from. */
typedef struct {
    Sample *samples;
    Sample **ptrs;
    uint64_t *loc_ids;       /* every stack's locations, one after another */
    int64_t *values;
    Label *labels;
    Label **label_ptrs;
} sample_set;

static void samples_free(sample_set *ss)
{
    free(ss->samples);
    free(ss->ptrs);
    free(ss->loc_ids);
    free(ss->values);
    free(ss->labels);
    free(ss->label_ptrs);
}

static int samples_alloc(sample_set *ss, const vis_stacks *s)
{
    size_t n = s->n_stacks ? s->n_stacks : 1, total_frames = 0;
    for (size_t i = 0; i < s->n_stacks; i++)
        total_frames += s->stacks[i].depth;
    ss->samples = calloc(n, sizeof *ss->samples);
    ss->ptrs = calloc(n, sizeof *ss->ptrs);
    ss->values = calloc(n, sizeof *ss->values);
    ss->labels = calloc(n, sizeof *ss->labels);
    ss->label_ptrs = calloc(n, sizeof *ss->label_ptrs);
    ss->loc_ids = malloc((total_frames ? total_frames : 1) * sizeof *ss->loc_ids);
    return ss->samples && ss->ptrs && ss->values && ss->labels && ss->label_ptrs && ss->loc_ids ? 0 : -1;
}

/* The profile's comments into comments (3): its command, the moment and
 * file it was taken from, what its time means. Returns how many, 0 when
 * out of memory. */
static size_t header_comments(tables *t, const vis_export *e, int64_t comments[3])
{
    const vis_profile *p = e->p;
    char comment[1024];
    snprintf(comment, sizeof comment, "memtime-vis: %s of %s", e->moment, p->path);
    comments[0] = str_id(t, p->cmd ? p->cmd : "");
    comments[1] = str_id(t, comment);
    if (p->unit != VIS_UNIT_MS)
        comments[2] = str_id(t, p->unit == VIS_UNIT_I
            ? "time: in instructions executed, not a clock; the profile's time is left 0"
            : "time: in bytes allocated and freed, not a clock; the profile's time is left 0");
    else
        comments[2] = str_id(t, "time: the snapshot's time since the program "
                                "started (memtime records no wall-clock start)");
    return comments[0] < 0 || comments[1] < 0 || comments[2] < 0 ? 0 : 3;
}

/* One sample per stack: its locations (a run of inlined frames is one),
 * its bytes, and its group (the outermost frame, when grouped) as a label
 * keyed by the grouping (-tagfocus=crate=alpha, -tags). Returns 0, or -1
 * when out of memory. */
static int fill_samples(tables *t, const vis_export *e, sample_set *ss)
{
    const vis_stacks *s = e->s;
    size_t used = 0;
    for (size_t i = 0; i < s->n_stacks; i++) {
        const vis_stack *st = &s->stacks[i];
        Sample *sm = &ss->samples[i];
        perftools__profiles__sample__init(sm);
        sm->location_id = &ss->loc_ids[used];
        for (size_t k = 0; k < st->depth;) {
            size_t n = run_len(s, st, k);
            uint64_t id = loc_id(t, &st->frames[k], n);
            if (!id)
                return -1;
            ss->loc_ids[used + sm->n_location_id++] = id;
            k += n;
        }
        used += sm->n_location_id;
        ss->values[i] = (int64_t)st->bytes;
        const vis_frame *outer = &s->frames[st->frames[st->depth - 1]];
        if (outer->is_group) {
            Label *lb = &ss->labels[i];
            perftools__profiles__label__init(lb);
            int64_t key = str_id(t, vis_group_by_name(e->p->grouping.by)), str = str_id(t, outer->name);
            if (key < 0 || str < 0)
                return -1;
            lb->key = key;
            lb->str = str;
            ss->label_ptrs[i] = lb;
            sm->n_label = 1;
            sm->label = &ss->label_ptrs[i];
        }
        sm->n_value = 1;
        sm->value = &ss->values[i];
        ss->ptrs[i] = sm;
    }
    return 0;
}

/* The strings the profile's header names, by their ids. */
typedef struct {
    int64_t inuse_space, bytes, space, program;
    int64_t comments[3];
    size_t n_comments;
} header_ids;

/* The whole profile packed (*len bytes, the caller frees), from the tables
 * and samples filled. NULL when out of memory. */
static uint8_t *pack_profile(tables *t, const vis_export *e, const sample_set *ss, header_ids *h,
                             size_t *len)
{
    const vis_profile *p = e->p;
    const vis_stacks *s = e->s;
    uint8_t *packed = NULL;
    /* The pointer arrays protobuf-c wants. */
    Location **loc_ptrs = calloc(t->n_loc ? t->n_loc : 1, sizeof *loc_ptrs);
    Function **fn_ptrs = calloc(t->n_fn ? t->n_fn : 1, sizeof *fn_ptrs);
    if (!loc_ptrs || !fn_ptrs)
        goto done;
    for (size_t i = 0; i < t->n_loc; i++)
        loc_ptrs[i] = &t->loc[i];
    for (size_t i = 0; i < t->n_fn; i++)
        fn_ptrs[i] = &t->fn[i];

    ValueType st_space = PERFTOOLS__PROFILES__VALUE_TYPE__INIT;
    st_space.type = h->inuse_space;
    st_space.unit = h->bytes;
    ValueType *sample_types[1] = { &st_space };
    ValueType period = PERFTOOLS__PROFILES__VALUE_TYPE__INIT;
    period.type = h->space;
    period.unit = h->bytes;
    Mapping map = PERFTOOLS__PROFILES__MAPPING__INIT;
    map.id = 1;
    map.memory_start = 0;
    map.memory_limit = UINT64_MAX;
    map.filename = h->program;
    map.has_functions = map.has_filenames = map.has_line_numbers = map.has_inline_frames = 1;
    Mapping *maps[1] = { &map };

    Profile prof = PERFTOOLS__PROFILES__PROFILE__INIT;
    prof.n_sample_type = 1;
    prof.sample_type = sample_types;
    prof.n_sample = s->n_stacks;
    prof.sample = ss->ptrs;
    prof.n_mapping = 1;
    prof.mapping = maps;
    prof.n_location = t->n_loc;
    prof.location = loc_ptrs;
    prof.n_function = t->n_fn;
    prof.function = fn_ptrs;
    prof.n_string_table = t->n_str;
    prof.string_table = t->str;
    const vis_snapshot *sn = &p->snaps[s->snap];
    if (p->unit == VIS_UNIT_MS && sn->time <= (uint64_t)INT64_MAX / 1000000)
        prof.time_nanos = (int64_t)sn->time * 1000000;
    prof.period_type = &period;
    prof.period = 1;
    prof.n_comment = h->n_comments;
    prof.comment = h->comments;
    prof.default_sample_type = h->inuse_space;

    *len = perftools__profiles__profile__get_packed_size(&prof);
    if ((packed = malloc(*len ? *len : 1)))
        perftools__profiles__profile__pack(&prof, packed);
done:
    free(fn_ptrs);
    free(loc_ptrs);
    return packed;
}

int vis_pprof_write(FILE *out, const vis_export *e, char *err, size_t errsz)
{
    const vis_profile *p = e->p;
    tables t;
    memset(&t, 0, sizeof t);
    t.s = e->s;
    sample_set ss = { 0 };
    uint8_t *packed = NULL;
    size_t len = 0;
    int ok = 0;
    if (samples_alloc(&ss, e->s) != 0 || str_id(&t, "") != 0)
        goto done;

    /* Header strings, then one sample per stack. */
    header_ids h;
    h.inuse_space = str_id(&t, "inuse_space");
    h.bytes = str_id(&t, "bytes");
    h.space = str_id(&t, "space");
    char program[4096];
    snprintf(program, sizeof program, "%s", p->cmd ? p->cmd : "");
    program[strcspn(program, " ")] = '\0';
    h.program = str_id(&t, program);
    h.n_comments = header_comments(&t, e, h.comments);
    if (h.inuse_space < 0 || h.bytes < 0 || h.space < 0 || h.program < 0 || !h.n_comments ||
        fill_samples(&t, e, &ss) != 0 || !(packed = pack_profile(&t, e, &ss, &h, &len)))
        goto done;
    ok = 1;
    if (gzip_write(out, packed, len, err, errsz) != 0)
        ok = -1;
done:
    if (!ok)
        snprintf(err, errsz, "%s: out of memory", p->path);
    free(packed);
    samples_free(&ss);
    tables_free(&t);
    return ok == 1 ? 0 : -1;
}
