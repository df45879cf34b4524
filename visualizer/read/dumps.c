/* dumps.c: a series of heap dumps as one Massif profile (dumps.h).
 *
 * Two passes. The first reads every dump's header and totals, checks the
 * series (one process, no sequence number twice) and picks the clock and
 * the peak, so that nothing is written for a series that would fail. The
 * second reads each dump again, resolves its stacks and writes its
 * snapshot, one dump in memory at a time; the companion follows with the
 * unpruned trees (kept in a temporary file meanwhile, since the
 * companion's frame table must precede them). Addresses are resolved once
 * per run (symbols.h), so the second read costs the parse only. */
#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "base/grow.h"
#include "base/outfile.h"
#include "base/strfmt.h"
#include "base/units.h"
#include "model/heap_tree.h"
#include "model/label.h"
#include "read/dumps.h"
#include "read/jeheap.h"
#include "read/maps.h"
#include "read/pprof_in.h"
#include "render/massif_out.h"

/* The deepest path kept, in frames: jemalloc keeps at most 128 addresses,
 * each a few frames with inlining; the Massif reader takes 4096 levels. */
#define MAX_PATH 2048

vis_dump_kind vis_dumps_sniff(const char *path)
{
    unsigned char b[16];
    FILE *f = fopen(path, "rb");
    if (!f)
        return VIS_DUMP_NONE;
    size_t n = fread(b, 1, sizeof b, f);
    fclose(f);
    if (vis_jeheap_sniff(b, n))
        return VIS_DUMP_JEMALLOC;
    if (vis_pprof_sniff(b, n))
        return VIS_DUMP_PPROF;
    return VIS_DUMP_NONE;
}

int vis_clock_parse(const char *s, vis_clock *c)
{
    static const char *const names[] = { "auto", "mtime", "seq", "alloc" };
    for (int i = 0; i < 4; i++)
        if (!strcmp(s, names[i])) {
            *c = (vis_clock)i;
            return 0;
        }
    return -1;
}

/* ------------------------------------------------------------ stripping */

/* The allocator's own frames, stripped from the top of every stack as
 * memtime strips them (memtime/mt_alloc_api.c) and jeprof drops them
 * (RemoveUninterestingFrames): the allocation functions, jemalloc's
 * internals under any prefix, Rust's allocator shims and plumbing. A
 * frame of an object named libjemalloc* is the allocator's whatever its
 * name. */
static const char *const alloc_patterns[] = {
    "malloc", "calloc", "realloc", "free", "cfree", "memalign", "posix_memalign",
    "aligned_alloc", "pvalloc", "valloc", "reallocarray",
    "mallocx", "rallocx", "xallocx", "sallocx", "dallocx", "sdallocx", "sdallocx_noflags",
    "nallocx", "operator new*", "operator delete*", "newImpl*", "void* newImpl*",
    "je_*", "_rjem_*", "rjem_*", "prof_backtrace*", "prof_alloc_prep*", "prof_tctx*",
    "imalloc*", "ialloc*", "iralloc*", "ipalloc*", "irealloc*", "ixalloc*", "malloc_default*",
    "do_rallocx*", "arena_malloc*", "arena_palloc*", "tcache_alloc*",
    "__libc_malloc", "__libc_calloc", "__libc_realloc", "__libc_memalign",
    "__rust_alloc", "__rust_alloc_zeroed", "__rust_realloc", "__rust_*alloc*", "__rdl_*",
    "__rg_*", "__rustc::*", "<* as core::alloc::global::GlobalAlloc>::*",
    "<* as core::alloc::Allocator>::*", "tikv_jemallocator::*", "<tikv_jemallocator::*",
    "jemallocator::*", "<jemallocator::*", "tikv_jemalloc_sys::*",
    "alloc::*", "<alloc::*", "core::alloc::*", "<core::alloc::*", "std::alloc::*",
    "<std::alloc::*", "hashbrown::*", "<hashbrown::*", "<* as alloc::*",
    "<* as hashbrown::*", "std::collections::*", "<std::collections::*",
    NULL
};

/* The function of a frame label "0x<HEX>: fn (file:line)", "0x<HEX>: fn
 * (in obj)" (model/label.h), into buf. */
static void label_function(const char *label, char *buf, size_t sz)
{
    vis_label l = vis_label_parse(label);
    size_t n = l.fn_len < sz ? l.fn_len : sz - 1;
    memcpy(buf, l.fn, n);
    buf[n] = '\0';
}

/* The frames without a name that the trees show, per object: "0x<HEX>:
 * ??? (in OBJ)" labels, each one address: the objects into out (at most
 * max), with their counts; returns how many. */
typedef struct {
    const char *obj;
    size_t len, n;
} gap;

static size_t gaps(const vis_strtab *labels, gap *out, size_t max)
{
    size_t n = 0;
    for (size_t i = 0; i < labels->n; i++) {
        vis_label l = vis_label_parse(labels->s[i]);
        if (!l.addr || !l.unnamed || l.fn_len != 3 || !l.obj)
            continue;
        const char *obj = l.obj;
        size_t len = l.obj_len;
        size_t k = 0;
        while (k < n && (out[k].len != len || strncmp(out[k].obj, obj, len)))
            k++;
        if (k == n) {
            if (n == max)
                continue;
            out[n++] = (gap){ obj, len, 0 };
        }
        out[k].n++;
    }
    return n;
}

static int is_allocator(const char *label, const char *object)
{
    const char *b = strrchr(object, '/');
    b = b ? b + 1 : object;
    if (!strncmp(b, "libjemalloc", 11))
        return 1;
    char fn[1024];
    label_function(label, fn, sizeof fn);
    for (size_t i = 0; alloc_patterns[i]; i++)
        if (fnmatch(alloc_patterns[i], fn, FNM_NOESCAPE) == 0)
            return 1;
    return 0;
}

/* ------------------------------------------------------------ the series */

typedef struct {
    const char *path;
    size_t given;             /* its place on the command line */
    int64_t time_nanos;       /* pprof: when it was taken */
    vis_jh_name name;
    int named;
    long long mtime_ms;       /* the file's modification time */
    uint64_t total;           /* the heap: the sum of the stacks' estimates */
    uint64_t period;
    uint64_t time;            /* on the chosen clock */
} item;

typedef struct {
    const vis_dumps_opts *o;
    vis_dump_kind kind;       /* every dump's */
    item *items;
    size_t n;
    size_t peak;
    vis_unit unit;
    const char *clock_text;   /* the "source: clock ..." text */
    char *cmd;
    vis_symbolizer *sym;
    vis_strtab labels;
    FILE *dtrees;             /* the companion's "dtree:" lines, meanwhile */
    unsigned max_level;
    size_t n_addrs, n_unnamed;
    char *err;
    size_t errsz;
} series;

static int by_seq(const void *a, const void *b)
{
    const item *x = a, *y = b;
    return x->name.seq < y->name.seq ? -1 : x->name.seq > y->name.seq;
}

/* pprof profiles by the time each was taken, then as given. */
static int by_time(const void *a, const void *b)
{
    const item *x = a, *y = b;
    if (x->time_nanos != y->time_nanos)
        return x->time_nanos < y->time_nanos ? -1 : 1;
    return x->given < y->given ? -1 : x->given > y->given;
}

/* The heap a dump holds, as the converted tree will: each stack's estimate
 * rounded to bytes, summed. */
static uint64_t dump_total(const vis_jeheap *d)
{
    uint64_t t = 0;
    for (size_t i = 0; i < d->n_stacks; i++)
        t += (uint64_t)llround(d->stacks[i].bytes);
    return t;
}

/* The program: the first file in the map. */
static char *program_of(const vis_jeheap *d)
{
    vis_maps m;
    char e[256];
    if (!d->maps || vis_maps_parse(&m, d->maps, d->maps_len, d->path, d->maps_line, e,
                                   sizeof e) != 0)
        return NULL;
    char *p = NULL;
    for (size_t i = 0; i < m.n && !p; i++)
        if (m.m[i].path_len && m.m[i].path[0] == '/')
            p = strndup(m.m[i].path, m.m[i].path_len);
    vis_maps_free(&m);
    return p;
}

static int first_pass(series *s, const char *const *paths)
{
    size_t named = 0;
    for (size_t i = 0; i < s->n; i++) {
        item *it = &s->items[i];
        it->path = paths[i];
        it->named = vis_jeheap_parse_name(paths[i], &it->name) == 0;
        named += (size_t)it->named;
        struct stat st;
        if (stat(paths[i], &st) != 0) {
            snprintf(s->err, s->errsz, "%s: cannot open: %s", paths[i], strerror(errno));
            return -1;
        }
        it->mtime_ms = (long long)st.st_mtim.tv_sec * 1000 + st.st_mtim.tv_nsec / 1000000;
        it->given = i;
        vis_dump_kind kind = vis_dumps_sniff(paths[i]);
        if (i == 0)
            s->kind = kind == VIS_DUMP_PPROF ? kind : VIS_DUMP_JEMALLOC;
        else if ((kind == VIS_DUMP_PPROF) != (s->kind == VIS_DUMP_PPROF)) {
            snprintf(s->err, s->errsz, "%s: a %s in a series of %s: a series is one kind", paths[i],
                     kind == VIS_DUMP_PPROF ? "pprof profile" : "jemalloc heap dump",
                     s->kind == VIS_DUMP_PPROF ? "pprof profiles" : "jemalloc heap dumps");
            return -1;
        }
        if (s->kind == VIS_DUMP_PPROF) {
            vis_pprof pp;
            if (vis_pprof_read(paths[i], &pp, s->err, s->errsz) != 0)
                return -1;
            it->named = 0;
            it->total = pp.total;
            it->period = pp.p->period > 0 ? (uint64_t)pp.p->period : 0;
            it->time_nanos = pp.p->time_nanos;
            if (!s->cmd && pp.p->n_mapping)
                s->cmd = strdup(vis_pprof_str(&pp, pp.p->mapping[0]->filename));
            vis_pprof_free(&pp);
            continue;
        }
        vis_jeheap d;
        if (vis_jeheap_read(paths[i], &d, s->err, s->errsz) != 0)
            return -1;
        it->total = dump_total(&d);
        it->period = d.period;
        if (!s->cmd)
            s->cmd = program_of(&d);
        vis_jeheap_free(&d);
    }
    /* jemalloc's names order the dumps of one process: its sequence number
     * counts every dump it wrote. Without them, the order given; pprof
     * profiles by the time each was taken. */
    if (s->kind == VIS_DUMP_PPROF) {
        qsort(s->items, s->n, sizeof *s->items, by_time);
    } else if (named == s->n) {
        qsort(s->items, s->n, sizeof *s->items, by_seq);
        for (size_t i = 1; i < s->n; i++) {
            if (s->items[i].name.pid != s->items[0].name.pid) {
                snprintf(s->err, s->errsz, "%s: a dump of process %" PRIu64 ", but %s is of "
                         "process %" PRIu64 ": a series is the dumps of one process",
                         s->items[i].path, s->items[i].name.pid, s->items[0].path,
                         s->items[0].name.pid);
                return -1;
            }
            if (s->items[i].name.seq == s->items[i - 1].name.seq) {
                snprintf(s->err, s->errsz, "%s: the same sequence number (%" PRIu64 ") as %s: "
                         "the same dump given twice, or dumps of two processes of one pid",
                         s->items[i].path, s->items[i].name.seq, s->items[i - 1].path);
                return -1;
            }
        }
    }
    return 0;
}

/* Picks the clock (dumps.h) and sets every item's time. */
static int pick_clock(series *s)
{
    vis_clock c = s->o->clock;
    int distinct = 1, stamped = s->kind == VIS_DUMP_PPROF && s->items[0].time_nanos > 0;
    for (size_t i = 1; i < s->n; i++) {
        if (s->items[i].mtime_ms <= s->items[i - 1].mtime_ms)
            distinct = 0;
        if (s->items[i].time_nanos / 1000000 <= s->items[i - 1].time_nanos / 1000000)
            stamped = 0;
    }
    /* A pprof profile says when it was taken: that is its clock. */
    if (s->kind == VIS_DUMP_PPROF && (c == VIS_CLOCK_AUTO || c == VIS_CLOCK_MTIME) && stamped) {
        for (size_t i = 0; i < s->n; i++)
            s->items[i].time = (uint64_t)((s->items[i].time_nanos - s->items[0].time_nanos) /
                                          1000000);
        s->unit = VIS_UNIT_MS;
        s->clock_text = "the profiles' own time_nanos, in ms since the first profile (time_unit ms)";
        goto peak;
    }
    if (s->kind == VIS_DUMP_PPROF && c == VIS_CLOCK_ALLOC) {
        snprintf(s->err, s->errsz, "--clock=alloc is for jemalloc's interval dumps, not pprof "
                 "profiles");
        return -1;
    }
    if (c == VIS_CLOCK_MTIME && !distinct) {
        snprintf(s->err, s->errsz, "--clock=mtime: the dumps' modification times do not rise "
                 "with their sequence numbers (%s is not later than the dump before it; copied "
                 "without keeping times?): use --clock=seq", s->n > 1 ? s->items[1].path : "");
        for (size_t i = 1; i < s->n; i++)
            if (s->items[i].mtime_ms <= s->items[i - 1].mtime_ms) {
                snprintf(s->err, s->errsz, "--clock=mtime: %s is not later than the dump before "
                         "it (%s), by their modification times: use --clock=seq",
                         s->items[i].path, s->items[i - 1].path);
                break;
            }
        return -1;
    }
    if (c == VIS_CLOCK_AUTO)
        c = distinct ? VIS_CLOCK_MTIME : VIS_CLOCK_SEQ;
    if (c == VIS_CLOCK_ALLOC) {
        if (s->o->lg_interval < 0) {
            snprintf(s->err, s->errsz, "--clock=alloc needs --lg-prof-interval=N, the "
                     "lg_prof_interval the process ran with (dumps do not record it)");
            return -1;
        }
        for (size_t i = 0; i < s->n; i++)
            if (!s->items[i].named || s->items[i].name.kind != 'i') {
                snprintf(s->err, s->errsz, "%s: --clock=alloc takes interval dumps only "
                         "(PREFIX.PID.SEQ.iN.heap)", s->items[i].path);
                return -1;
            }
    }
    for (size_t i = 0; i < s->n; i++) {
        item *it = &s->items[i];
        switch (c) {
        case VIS_CLOCK_MTIME:
            it->time = (uint64_t)(it->mtime_ms - s->items[0].mtime_ms);
            break;
        case VIS_CLOCK_ALLOC:
            /* Interval dump N comes after about N+1 intervals allocated. */
            it->time = (it->name.kseq + 1) << s->o->lg_interval;
            break;
        default:
            it->time = it->named ? it->name.seq : i;
            break;
        }
    }
    s->unit = c == VIS_CLOCK_MTIME ? VIS_UNIT_MS : c == VIS_CLOCK_ALLOC ? VIS_UNIT_B : VIS_UNIT_I;
    s->clock_text = c == VIS_CLOCK_MTIME
        ? "the dumps' file modification times, in ms since the first dump (time_unit ms)"
        : c == VIS_CLOCK_ALLOC
        ? "bytes allocated: each interval dump's number plus one, times 2^lg_prof_interval "
          "(time_unit B counts bytes allocated, not freed)"
        : s->kind == VIS_DUMP_PPROF
        ? "the profiles' order (time_unit i counts profiles here, not instructions; their "
          "time_nanos were not one per profile)"
        : "the dumps' sequence numbers (time_unit i counts dumps here, not instructions; the "
          "files' modification times were not one per dump)";
peak:
    s->peak = 0;
    for (size_t i = 1; i < s->n; i++)
        if (s->items[i].total > s->items[s->peak].total)
            s->peak = i;
    return 0;
}

/* ------------------------------------------------------------ the trees */

/* One stack on its way into a tree: its frames, innermost first, each
 * with its call level; the allocator's frames at its top left out. */
typedef struct {
    uint32_t labels[MAX_PATH], levels[MAX_PATH];
    size_t n;
    int stripping, below_main;
    uint32_t level;
    const char *last;         /* the last allocator frame left out */
} path;

static int nomem_s(series *s)
{
    snprintf(s->err, s->errsz, "out of memory");
    return -1;
}

/* Adds one call level's frames (one code address; inlined calls are
 * several frames) of object obj to p. Returns 0, -1 when out of memory. */
static int path_level(series *s, path *p, const char *const *frames, int nf, const char *obj)
{
    int kept = 0;
    for (int f = 0; f < nf && p->n < MAX_PATH && !p->below_main; f++) {
        if (p->stripping && is_allocator(frames[f], obj)) {
            p->last = frames[f];
            continue;
        }
        p->stripping = 0;
        int64_t id = vis_strtab_id(&s->labels, frames[f], strlen(frames[f]));
        if (id < 0)
            return nomem_s(s);
        if (!kept++)
            p->level++;
        p->labels[p->n] = (uint32_t)id;
        p->levels[p->n++] = p->level;
        /* Massif's trees end at main: what calls it (the C library's
         * start-up) is the same in every stack. */
        char fn[16];
        label_function(frames[f], fn, sizeof fn);
        if (!strcmp(fn, "main"))
            p->below_main = 1;
    }
    return 0;
}

/* Adds the stack p holds with its bytes to tree t. */
static int path_add(series *s, path *p, vis_htree *t, uint64_t bytes)
{
    /* A stack of nothing but allocator frames keeps its last one. */
    const char *only = p->n == 0 ? (p->last ? p->last : "0x0: ??? (an empty stack)") : NULL;
    if (only) {
        int64_t id = vis_strtab_id(&s->labels, only, strlen(only));
        if (id < 0)
            return nomem_s(s);
        p->labels[0] = (uint32_t)id;
        p->levels[0] = 1;
        p->n = 1;
    }
    if (vis_htree_add(t, p->labels, p->levels, p->n, bytes) != 0)
        return nomem_s(s);
    if (t->max_level > s->max_level)
        s->max_level = t->max_level;
    return 0;
}

static int path_done(const path *p) { return p->below_main || p->n >= MAX_PATH; }

/* Adds one stack of jemalloc dump d (maps m) to tree t. */
static int add_je_stack(series *s, const vis_jeheap *d, const vis_maps *m,
                        const vis_jh_stack *st, vis_htree *t)
{
    path p;
    p.n = 0;
    p.stripping = 1;
    p.below_main = 0;
    p.level = 0;
    p.last = NULL;
    /* The first address is always in jemalloc's own backtrace code. */
    for (size_t k = 1; k < st->n_pcs && !path_done(&p); k++) {
        const char *const *frames;
        int nf = vis_sym_resolve(s->sym, m, d->path, st->pcs[k], 1, NULL, 0, &frames, s->err,
                                 s->errsz);
        if (nf < 0 || path_level(s, &p, frames, nf, vis_sym_object(m, st->pcs[k])) != 0)
            return -1;
    }
    return path_add(s, &p, t, (uint64_t)llround(st->bytes));
}

/* A tree from jemalloc dump it. */
static int je_tree(series *s, const item *it, vis_htree *t)
{
    vis_jeheap d;
    vis_maps m;
    if (vis_jeheap_read(it->path, &d, s->err, s->errsz) != 0)
        return -1;
    if (vis_maps_parse(&m, d.maps, d.maps_len, d.path, d.maps_line, s->err, s->errsz) != 0) {
        vis_jeheap_free(&d);
        return -1;
    }
    int rc = 0;
    for (size_t k = 0; k < d.n_stacks && rc == 0; k++)
        rc = add_je_stack(s, &d, &m, &d.stacks[k], t);
    vis_maps_free(&m);
    vis_jeheap_free(&d);
    return rc;
}

/* Each mapping of a pprof profile as a process map of its own (maps[i]
 * for mapping i), since a location names its mapping: jemalloc_pprof's
 * mappings all span the whole address space (its addresses are file
 * offsets already), so they cannot be told apart by address. */
static int pprof_maps(series *s, const vis_pprof *d, vis_maps **out)
{
    size_t n = d->p->n_mapping;
    vis_maps *m = calloc(n ? n : 1, sizeof *m);
    if (!m)
        return nomem_s(s);
    for (size_t i = 0; i < n; i++) {
        const Perftools__Profiles__Mapping *mp = d->p->mapping[i];
        if (mp->memory_limit <= mp->memory_start)
            continue;   /* no range: its locations name no address */
        char *line = vis_strfmt("%" PRIx64 "-%" PRIx64 " r-xp %" PRIx64 " 00:00 0 %s",
                                mp->memory_start, mp->memory_limit, mp->file_offset,
                                vis_pprof_str(d, mp->filename));
        if (!line) {
            for (size_t k = 0; k < i; k++)
                vis_maps_free(&m[k]);
            free(m);
            return nomem_s(s);
        }
        /* Control characters would end the line early. */
        for (char *c = line; *c; c++)
            if ((unsigned char)*c < 0x20)
                *c = '?';
        int rc = vis_maps_parse(&m[i], line, strlen(line), d->path, 1, s->err, s->errsz);
        free(line);
        if (rc != 0) {
            for (size_t k = 0; k < i; k++)
                vis_maps_free(&m[k]);
            free(m);
            return -1;
        }
    }
    *out = m;
    return 0;
}

/* The bytes of a hexadecimal build ID string. */
static size_t build_id(const char *hex, unsigned char *out, size_t max)
{
    size_t n = 0;
    for (; hex[0] && hex[1] && n < max; hex += 2) {
        unsigned v;
        if (sscanf(hex, "%2x", &v) != 1)
            return 0;
        out[n++] = (unsigned char)v;
    }
    return hex[0] ? 0 : n;
}

/* The frames of one pprof location: its lines (a symbolized profile:
 * innermost first), else its address named through the mappings. */
static int pprof_location(series *s, const vis_pprof *d, const vis_maps *maps,
                          const Perftools__Profiles__Location *l, path *p)
{
    const Perftools__Profiles__Mapping *mp = vis_pprof_mapping(d, l->mapping_id);
    const char *obj = mp ? vis_pprof_str(d, mp->filename) : "";
    static const vis_maps none = { NULL, 0, NULL };
    const vis_maps *m = &none;
    for (size_t i = 0; mp && i < d->p->n_mapping; i++)
        if (d->p->mapping[i] == mp)
            m = &maps[i];
    if (l->n_line == 0) {
        unsigned char id[64];
        size_t nid = mp ? build_id(vis_pprof_str(d, mp->build_id), id, sizeof id) : 0;
        const char *const *frames;
        int nf = vis_sym_resolve(s->sym, m, d->path, l->address, 0, nid ? id : NULL, nid,
                                 &frames, s->err, s->errsz);
        return nf < 0 ? -1 : path_level(s, p, frames, nf, obj);
    }
    char *frames[64];
    int nf = 0, rc = 0;
    for (size_t k = 0; k < l->n_line && nf < 64; k++) {
        const Perftools__Profiles__Function *f = vis_pprof_function(d, l->line[k]->function_id);
        const char *name = vis_pprof_str(d, f->name);
        if (!*name)
            name = vis_pprof_str(d, f->system_name);
        const char *file = vis_pprof_str(d, f->filename);
        int line = l->line[k]->line > 0 && l->line[k]->line < INT32_MAX ? (int)l->line[k]->line : 0;
        if (!(frames[nf++] = vis_sym_label(l->address, *name ? name : NULL, *file ? file : NULL,
                                           line, obj))) {
            rc = nomem_s(s);
            nf--;
            break;
        }
    }
    if (rc == 0)
        rc = path_level(s, p, (const char *const *)frames, nf, obj);
    for (int k = 0; k < nf; k++)
        free(frames[k]);
    return rc;
}

/* A tree from pprof profile it: its in-use bytes per stack. */
static int pprof_tree(series *s, const item *it, vis_htree *t)
{
    vis_pprof d;
    vis_maps *m;
    if (vis_pprof_read(it->path, &d, s->err, s->errsz) != 0)
        return -1;
    if (pprof_maps(s, &d, &m) != 0) {
        vis_pprof_free(&d);
        return -1;
    }
    int rc = 0;
    for (size_t i = 0; i < d.p->n_sample && rc == 0; i++) {
        const Perftools__Profiles__Sample *smp = d.p->sample[i];
        if (smp->value[d.value] <= 0)
            continue;
        path p;
        p.n = 0;
        p.stripping = 1;
        p.below_main = 0;
        p.level = 0;
        p.last = NULL;
        for (size_t k = 0; k < smp->n_location_id && rc == 0 && !path_done(&p); k++)
            rc = pprof_location(s, &d, m, vis_pprof_location(&d, smp->location_id[k]), &p);
        if (rc == 0)
            rc = path_add(s, &p, t, (uint64_t)smp->value[d.value]);
    }
    for (size_t i = 0; i < d.p->n_mapping; i++)
        vis_maps_free(&m[i]);
    free(m);
    vis_pprof_free(&d);
    return rc;
}

/* Dump i's snapshot, and its tree for the companion. */
static int write_dump(FILE *out, series *s, size_t i)
{
    item *it = &s->items[i];
    vis_htree t;
    if (vis_htree_init(&t) != 0)
        return nomem_s(s);
    int rc = s->kind == VIS_DUMP_PPROF ? pprof_tree(s, it, &t) : je_tree(s, it, &t);
    if (rc == 0 && (vis_massif_out_snapshot(out, i, it->time, i == s->peak, &t, &s->labels,
                                            s->o->threshold) != 0 ||
                    vis_massif_out_dtree(s->dtrees, i, it->time, &t) != 0))
        rc = nomem_s(s);
    vis_htree_free(&t);
    return rc;
}

static int write_profile(FILE *out, void *ctx, char *err, size_t errsz)
{
    series *s = ctx;
    char desc[256];
    if (s->kind == VIS_DUMP_PPROF)
        snprintf(desc, sizeof desc, "pprof heap profiles (inuse_space), %zu, converted by "
                 "memtime-vis", s->n);
    else
        snprintf(desc, sizeof desc, "jemalloc heap dumps (heap_v2/%" PRIu64 "), %zu, converted "
                 "by memtime-vis", s->items[0].period, s->n);
    vis_massif_out_header(out, desc, s->cmd, s->unit);
    for (size_t i = 0; i < s->n; i++)
        if (write_dump(out, s, i) != 0) {
            snprintf(err, errsz, "%s", s->err);
            return -1;
        }
    return vis_sym_verify(s->sym, err, errsz);
}

/* "512 KiB" */
static const char *fmt_size(char *buf, size_t sz, double b)
{
    static const char *const u[] = { "B", "KiB", "MiB", "GiB", "TiB" };
    int k = 0;
    while (b >= 1024 && k < 4) {
        b /= 1024;
        k++;
    }
    snprintf(buf, sz, b == floor(b) ? "%.0f %s" : "%.1f %s", b, u[k]);
    return buf;
}

static int write_companion(FILE *out, void *ctx, char *err, size_t errsz)
{
    series *s = ctx;
    const item *a = &s->items[0], *z = &s->items[s->n - 1];
    char r1[32], r10[32], r100[32];
    double R = (double)a->period;
    fputs("memtime-companion: 1\n", out);
    static const char *const units[] = { "i", "ms", "B" };
    fprintf(out, "time_unit: %s\n", units[s->unit]);
    if (s->kind == VIS_DUMP_PPROF) {
        fprintf(out, "source: %zu pprof heap profile%s (inuse_space), ordered by time_nanos\n",
                s->n, s->n == 1 ? "" : "s");
        if (a->period == 1)
            fprintf(out, "source: sampling: every allocation recorded (period 1): the values "
                    "are exact\n");
        else if (a->period > 1)
            fprintf(out, "source: sampling: one sample per %s allocated on average (the "
                    "profile's period); its values are already estimates (the writer unsampled "
                    "them); a site's bytes are within about 1/sqrt(bytes/%s): +-100%% for a %s "
                    "site, +-32%% at %s, +-10%% at %s\n", fmt_size(r1, sizeof r1, R), r1, r1,
                    fmt_size(r10, sizeof r10, 10 * R), fmt_size(r100, sizeof r100, 100 * R));
        else
            fprintf(out, "source: sampling: the profiles state no period; their values are "
                    "taken as written\n");
    } else {
        if (a->named)
            fprintf(out, "source: %zu jemalloc heap dump%s of process %" PRIu64 ", sequence "
                    "numbers %" PRIu64 " to %" PRIu64 "\n", s->n, s->n == 1 ? "" : "s",
                    a->name.pid, a->name.seq, z->name.seq);
        else
            fprintf(out, "source: %zu jemalloc heap dump%s, in the order given\n", s->n,
                    s->n == 1 ? "" : "s");
        int lg = 0;
        while (lg < 63 && (1ULL << lg) < a->period)
            lg++;
        fprintf(out, "source: sampling: one sample per %s allocated on average; counts "
                "unsampled as jeprof does; a site's bytes are an estimate within about "
                "1/sqrt(bytes/%s): +-100%% for a %s site, +-32%% at %s, +-10%% at %s\n",
                fmt_size(r1, sizeof r1, R), r1, r1, fmt_size(r10, sizeof r10, 10 * R),
                fmt_size(r100, sizeof r100, 100 * R));
        if ((1ULL << lg) == a->period)
            fprintf(out, "source: lg_prof_sample: %d\n", lg);
    }
    for (size_t i = 1; i < s->n; i++)
        if (s->items[i].period != a->period) {
            fprintf(out, "source: warning: %s was sampled every %" PRIu64 " bytes, not %" PRIu64
                    " (the sampling changed between dumps)\n", s->items[i].path,
                    s->items[i].period, a->period);
            break;
        }
    fprintf(out, "source: clock: %s\n", s->clock_text);
    gap gv[64];
    size_t ng = gaps(&s->labels, gv, 64);
    for (size_t g = 0; g < ng; g++) {
        char name[4096];
        snprintf(name, sizeof name, "%.*s", (int)gv[g].len, gv[g].obj);
        fprintf(out, "source: gap: %zu address%s in %s without a name (%s)\n", gv[g].n,
                gv[g].n == 1 ? "" : "es", name, vis_sym_why(s->sym, name));
    }
    unsigned depth = s->max_level < 1 ? 1 : s->max_level > 200 ? 200 : s->max_level;
    fprintf(out, "detail: depth=%u snapshots=%zu frames=%zu\n", depth, s->n, s->labels.n);
    for (size_t i = 0; i < s->labels.n; i++) {
        fprintf(out, "frame: %zu ", i);
        for (const char *c = s->labels.s[i]; *c && (unsigned char)*c >= 0x20; c++)
            fputc(*c, out);
        fputc('\n', out);
    }
    rewind(s->dtrees);
    char buf[65536];
    size_t k;
    while ((k = fread(buf, 1, sizeof buf, s->dtrees)) > 0)
        fwrite(buf, 1, k, out);
    if (ferror(s->dtrees)) {
        snprintf(err, errsz, "temporary file: read error");
        return -1;
    }
    /* jemalloc's exit dump (prof_final) means the process ended; without
     * it, it may still run. */
    if (s->kind == VIS_DUMP_JEMALLOC)
        fputs(a->named && z->name.kind == 'f' ? "end: exit\n" : "end: none\n", out);
    return 0;
}

int vis_dumps_convert(const char *const *paths, size_t n, const vis_dumps_opts *o,
                      const char *out, char *shown, size_t shownsz, char *warn, size_t warnsz,
                      char *err, size_t errsz)
{
    series s;
    memset(&s, 0, sizeof s);
    s.o = o;
    s.n = n;
    s.err = err;
    s.errsz = errsz;
    if (warnsz)
        warn[0] = '\0';
    int rc = -1;
    char *cpath = NULL;
    if (!(s.items = calloc(n ? n : 1, sizeof *s.items)) || !(s.sym = vis_sym_new(&o->sym)) ||
        !(cpath = vis_strfmt("%s.memtime", out))) {
        snprintf(err, errsz, "out of memory");
        goto done;
    }
    if (first_pass(&s, paths) != 0 || pick_clock(&s) != 0)
        goto done;
    if (shownsz)
        snprintf(shown, shownsz, n > 1 ? "%s .. %s" : "%s", s.items[0].path,
                 s.items[n - 1].path);
    if (!(s.dtrees = tmpfile())) {
        snprintf(err, errsz, "temporary file: %s", strerror(errno));
        goto done;
    }
    if (vis_out_write(out, "w", write_profile, &s, err, errsz) != 0)
        goto done;
    if (vis_out_write(cpath, "w", write_companion, &s, err, errsz) != 0) {
        remove(out);
        goto done;
    }
    gap gv[64];
    size_t ng = gaps(&s.labels, gv, 64), used = 0;
    for (size_t g = 0; g < ng && used < warnsz; g++) {
        char name[4096];
        snprintf(name, sizeof name, "%.*s", (int)gv[g].len, gv[g].obj);
        const char *why = vis_sym_why(s.sym, name);
        int k = snprintf(warn + used, warnsz - used, "%s: %zu address%s left without a name "
                         "(%s%s)\n", name, gv[g].n, gv[g].n == 1 ? "" : "es", why,
                         !strcmp(why, "not found") ? "; --binary or --search-path find moved "
                         "objects" : "");
        if (k < 0)
            break;
        used += (size_t)k;
    }
    rc = 0;
done:
    if (s.dtrees)
        fclose(s.dtrees);
    free(cpath);
    vis_strtab_free(&s.labels);
    vis_sym_free(s.sym);
    free(s.cmd);
    free(s.items);
    return rc;
}

/* ------------------------------------------------------------ a directory */

typedef struct {
    char *path;
    vis_jh_name name;
    int named;
    vis_dump_kind kind;
    long long mtime_ns;
    long long size;
} entry_t;

int vis_dumps_scan_dir(const char *dir, char ***paths, size_t *n, char **sig, char *err,
                       size_t errsz)
{
    *paths = NULL;
    *n = 0;
    *sig = NULL;
    DIR *d = opendir(dir);
    if (!d) {
        snprintf(err, errsz, "%s: cannot open: %s", dir, strerror(errno));
        return -1;
    }
    entry_t *e = NULL;
    size_t ne = 0;
    struct dirent *de;
    int rc = 0;
    while (rc == 0 && (de = readdir(d))) {
        if (de->d_name[0] == '.')
            continue;
        char *p = vis_strfmt("%s/%s", dir, de->d_name);
        struct stat st;
        if (!p) {
            rc = -1;
            break;
        }
        vis_dump_kind k = stat(p, &st) == 0 && S_ISREG(st.st_mode) ? vis_dumps_sniff(p)
                                                                   : VIS_DUMP_NONE;
        if (k == VIS_DUMP_NONE) {
            free(p);
            continue;
        }
        entry_t *a = vis_grow(e, ne, 64, sizeof *a);
        if (!a) {
            free(p);
            rc = -1;
            break;
        }
        e = a;
        e[ne] = (entry_t){ p, { 0, 0, 0, 0 }, 0, k,
                           (long long)st.st_mtim.tv_sec * 1000000000LL + st.st_mtim.tv_nsec,
                           (long long)st.st_size };
        e[ne].named = k == VIS_DUMP_JEMALLOC && vis_jeheap_parse_name(p, &e[ne].name) == 0;
        ne++;
    }
    closedir(d);
    /* The newest jemalloc dump names the process followed. */
    size_t newest = SIZE_MAX;
    for (size_t i = 0; i < ne; i++)
        if (e[i].named && (newest == SIZE_MAX || e[i].mtime_ns > e[newest].mtime_ns))
            newest = i;
    size_t len = 0;
    FILE *m = rc == 0 ? open_memstream(sig, &len) : NULL;
    char **out = rc == 0 ? malloc((ne ? ne : 1) * sizeof *out) : NULL;
    if (!m || !out)
        rc = -1;
    for (size_t i = 0; rc == 0 && i < ne; i++) {
        int take = newest != SIZE_MAX ? e[i].named && e[i].name.pid == e[newest].name.pid
                                      : e[i].kind == VIS_DUMP_PPROF;
        if (!take)
            continue;
        fprintf(m, "%s %lld %lld\n", e[i].path, e[i].mtime_ns, e[i].size);
        out[(*n)++] = e[i].path;
        e[i].path = NULL;
    }
    if (m && fclose(m) != 0)
        rc = -1;
    for (size_t i = 0; i < ne; i++)
        free(e[i].path);
    free(e);
    if (rc != 0) {
        for (size_t i = 0; out && i < *n; i++)
            free(out[i]);
        free(out);
        free(*sig);
        *sig = NULL;
        *n = 0;
        snprintf(err, errsz, "out of memory");
        return -1;
    }
    *paths = out;
    return 0;
}
