/* stacks.c: reads one snapshot's tree into stacks and the flame tree (see
 * stacks.h), checking that the bytes add up, so that every exporter can
 * promise its numbers add up to the snapshot's heap. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "base/grow.h"
#include "model/label.h"
#include "model/sites.h"
#include "model/stacks.h"
#include "read/massif.h"

/* ------------------------------------------------------------ index map */

/* Open-addressing set of indices into a table the caller owns; the caller
 * hashes and compares, so one map serves labels, names and tree edges. */
typedef struct {
    size_t *slots;   /* index + 1; 0 = empty */
    size_t cap;      /* power of two */
    size_t used;
} imap;

static uint64_t fnv(const void *data, size_t len, uint64_t h)
{
    const unsigned char *s = data;
    for (size_t i = 0; i < len; i++) {
        h ^= s[i];
        h *= 1099511628211ULL;
    }
    return h;
}
#define FNV_START 1469598103934665603ULL

typedef uint64_t (*hash_fn)(const void *ctx, size_t idx);

/* Makes room for one more entry; rehashes with hash(). */
static int imap_reserve(imap *m, hash_fn hash, const void *ctx)
{
    if ((m->used + 1) * 2 <= m->cap)
        return 0;
    size_t cap = m->cap ? m->cap * 2 : 64;
    size_t *slots = calloc(cap, sizeof *slots);
    if (!slots)
        return -1;
    for (size_t i = 0; i < m->cap; i++) {
        if (!m->slots[i])
            continue;
        size_t j = hash(ctx, m->slots[i] - 1) & (cap - 1);
        while (slots[j])
            j = (j + 1) & (cap - 1);
        slots[j] = m->slots[i];
    }
    free(m->slots);
    m->slots = slots;
    m->cap = cap;
    return 0;
}

/* ------------------------------------------------------------ the reader */

typedef struct {
    uint64_t bytes, kids_bytes;
    size_t frame;
    size_t kids_left;        /* children announced (nK:) and not yet read */
} open_node;

typedef struct {
    vis_stacks *s;
    const vis_profile *p;
    size_t line;             /* of the node being read (massif.c sets it) */
    imap labels, names;
    open_node *open;         /* open[d]: the current node at depth d */
    size_t n_open;           /* depths 0..n_open-1 are open */
    uint64_t pending;        /* nodes announced by n<children> not yet read */
    char *err;
    size_t errsz;
} reader;

enum { STOP_NOMEM = 1, STOP_BAD = 2 };

static uint64_t hash_label(const void *ctx, size_t i)
{
    const vis_stacks *s = ctx;
    return fnv(s->frames[i].label, strlen(s->frames[i].label), FNV_START);
}

static uint64_t hash_name(const void *ctx, size_t i)
{
    const vis_stacks *s = ctx;
    return fnv(s->names[i], strlen(s->names[i]), FNV_START);
}

/* Splits "fn (file.c:12)", "fn (in /lib/x.so)", "std::f(int) (a.h:3)". */
static int parse_name(vis_frame *f)
{
    vis_label l = vis_label_parse(f->label);
    const char *name = l.fn, *fn_end = l.fn + l.fn_len, *file = "", *file_end = file;
    unsigned line = 0;
    if (l.obj) {
        file = l.obj;
        file_end = l.obj + l.obj_len;
    } else if (l.file) {
        file = l.file;
        file_end = l.file + l.file_len;
        line = l.line;
    }
    if (fn_end == name)   /* " (x.c:1)": keep the whole name */
        fn_end = name + strlen(name), file = file_end = "", line = 0;
    f->function = strndup(name, (size_t)(fn_end - name));
    f->file = strndup(file, (size_t)(file_end - file));
    f->line = line;
    return f->function && f->file ? 0 : -1;
}

/* The frame for label, made on first sight. */
static int intern_frame(reader *r, const char *label, size_t *out)
{
    vis_stacks *s = r->s;
    uint64_t h = fnv(label, strlen(label), FNV_START);
    if (imap_reserve(&r->labels, hash_label, s) != 0)
        return -1;
    size_t j = h & (r->labels.cap - 1);
    for (; r->labels.slots[j]; j = (j + 1) & (r->labels.cap - 1)) {
        size_t k = r->labels.slots[j] - 1;
        if (strcmp(s->frames[k].label, label) == 0) {
            *out = k;
            return 0;
        }
    }
    vis_frame *a = vis_grow(s->frames, s->n_frames, 64, sizeof *a);
    if (!a)
        return -1;
    s->frames = a;
    vis_frame *f = &s->frames[s->n_frames];
    memset(f, 0, sizeof *f);
    if (!(f->label = strdup(label)))
        return -1;
    s->n_frames++;   /* from here vis_stacks_free frees what f owns */
    f->name = vis_site_name(f->label);
    if (f->name != f->label)
        f->address = strtoull(f->label, NULL, 16);
    f->below_threshold = vis_label_parse(f->label).below;
    if (parse_name(f) != 0)
        return -1;
    r->labels.slots[j] = s->n_frames;
    r->labels.used++;

    /* Its name's id. */
    if (imap_reserve(&r->names, hash_name, s) != 0)
        return -1;
    h = fnv(f->name, strlen(f->name), FNV_START);
    j = h & (r->names.cap - 1);
    for (; r->names.slots[j]; j = (j + 1) & (r->names.cap - 1)) {
        size_t k = r->names.slots[j] - 1;
        if (strcmp(s->names[k], f->name) == 0) {
            f->name_id = k;
            *out = s->n_frames - 1;
            return 0;
        }
    }
    const char **names = vis_grow(s->names, s->n_names, 64, sizeof *names);
    if (!names)
        return -1;
    s->names = names;
    s->names[s->n_names] = f->name;
    f->name_id = s->n_names++;
    r->names.slots[j] = s->n_names;
    r->names.used++;
    *out = s->n_frames - 1;
    return 0;
}

static int bad(reader *r, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static int bad(reader *r, const char *fmt, ...)
{
    int n = snprintf(r->err, r->errsz, "%s:%zu: ", r->p->path, r->line);
    if (n >= 0 && (size_t)n < r->errsz) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(r->err + n, r->errsz - (size_t)n, fmt, ap);
        va_end(ap);
    }
    return STOP_BAD;
}

/* A stack for the open path 1..d (the root alone if d == 0), and below it
 * the frame extra unless that is SIZE_MAX. */
static int add_stack_to(reader *r, size_t d, uint64_t bytes, size_t extra)
{
    vis_stacks *s = r->s;
    vis_stack *a = vis_grow(s->stacks, s->n_stacks, 64, sizeof *a);
    if (!a)
        return STOP_NOMEM;
    s->stacks = a;
    size_t root_frame = 0;
    if (d == 0 && intern_frame(r, s->root_label, &root_frame) != 0)
        return STOP_NOMEM;
    vis_stack *st = &s->stacks[s->n_stacks];
    st->bytes = bytes;
    st->depth = d || extra != SIZE_MAX ? d + (extra != SIZE_MAX) : 1;
    if (!(st->frames = malloc(st->depth * sizeof *st->frames)))
        return STOP_NOMEM;
    s->n_stacks++;
    for (size_t k = 1; k <= d; k++)
        st->frames[k - 1] = r->open[k].frame;
    if (extra != SIZE_MAX)
        st->frames[d] = extra;
    else if (d == 0)
        st->frames[0] = root_frame;
    return 0;
}

static int add_stack(reader *r, size_t d, uint64_t bytes)
{
    return add_stack_to(r, d, bytes, SIZE_MAX);
}

/* Closes the open nodes at depth >= d: what their children do not account
 * for becomes their own stack. */
static int close_to(reader *r, size_t d)
{
    while (r->n_open > d) {
        size_t k = r->n_open - 1;
        open_node *o = &r->open[k];
        if (o->bytes > o->kids_bytes) {
            int rc = add_stack(r, k, o->bytes - o->kids_bytes);
            if (rc)
                return rc;
        }
        r->n_open--;
    }
    return 0;
}

static int on_node(void *vctx, unsigned depth, uint64_t bytes, const char *label,
                   size_t n_children)
{
    reader *r = vctx;
    vis_stacks *s = r->s;
    if (depth == 0) {
        const vis_snapshot *sn = &r->p->snaps[s->snap];
        if (bytes != sn->heap_B)
            return bad(r, "expected the tree's root to hold the snapshot's mem_heap_B "
                       "(%" PRIu64 " bytes), found %" PRIu64, sn->heap_B, bytes);
        if (!(s->root_label = strdup(label)))
            return STOP_NOMEM;
        s->total = bytes;
        r->open[0] = (open_node){ bytes, 0, 0, n_children };
        r->n_open = 1;
        r->pending = n_children;
        return 0;
    }
    int rc = close_to(r, depth);
    if (rc)
        return rc;
    open_node *parent = &r->open[depth - 1];
    if (bytes > parent->bytes - parent->kids_bytes)
        return bad(r, "expected the children of a node to add up to at most its "
                   "%" PRIu64 " bytes, found %" PRIu64 " more than that",
                   parent->bytes, parent->kids_bytes + bytes - parent->bytes);
    parent->kids_bytes += bytes;
    parent->kids_left--;
    r->pending += n_children;
    r->pending--;
    size_t frame;
    if (intern_frame(r, label, &frame) != 0)
        return STOP_NOMEM;
    r->open[depth] = (open_node){ bytes, 0, frame, n_children };
    r->n_open = depth + 1;
    return 0;
}

/* The end of a tree that the end of the file cut (the profile is
 * truncated: load.h's rule, shown with what is there): under each open
 * node whose children were not all read, the bytes they do not account
 * for go to one frame, VIS_STACKS_CUT_LABEL, that says the tree ends
 * there, rather than to the node itself. A tree cut before its root is
 * that frame alone, holding the snapshot's heap. */
static int close_cut(reader *r)
{
    vis_stacks *s = r->s;
    if (!s->root_label) {
        const vis_snapshot *sn = &r->p->snaps[s->snap];
        if (!(s->root_label = strdup(VIS_STACKS_CUT_LABEL)))
            return STOP_NOMEM;
        s->total = sn->heap_B;
        r->open[0] = (open_node){ sn->heap_B, 0, 0, 1 };
        r->n_open = 1;
    }
    size_t cut;
    if (intern_frame(r, VIS_STACKS_CUT_LABEL, &cut) != 0)
        return STOP_NOMEM;
    while (r->n_open > 0) {
        size_t k = r->n_open - 1;
        open_node *o = &r->open[k];
        if (o->bytes > o->kids_bytes) {
            int rc = add_stack_to(r, k, o->bytes - o->kids_bytes, o->kids_left ? cut : SIZE_MAX);
            if (rc)
                return rc;
        }
        r->n_open--;
    }
    return 0;
}

/* ------------------------------------------------------------ flame tree */

typedef struct {
    size_t parent, name_id, node;
    const char *name;
} edge;

static int cmp_edge(const void *a, const void *b)
{
    const edge *x = a, *y = b;
    if (x->parent != y->parent)
        return x->parent < y->parent ? -1 : 1;
    return strcmp(x->name, y->name);
}

typedef struct {
    const vis_flame_node *nodes;
} edge_ctx;

static uint64_t hash_edge(const void *ctx, size_t i)
{
    const vis_flame_node *n = &((const edge_ctx *)ctx)->nodes[i];
    uint64_t key[2] = { n->parent, n->name_id };
    return fnv(key, sizeof key, FNV_START);
}

int vis_stacks_flame(vis_stacks *s)
{
    imap edges = { NULL, 0, 0 };
    free(s->flame);
    s->n_flame = s->flame_depth = 0;
    if (!(s->flame = vis_grow(NULL, 0, 64, sizeof *s->flame)))
        return -1;
    s->flame[0] = (vis_flame_node){ SIZE_MAX, SIZE_MAX, SIZE_MAX, SIZE_MAX, 0, 0, 0 };
    s->n_flame = 1;
    edge_ctx ec;
    for (size_t i = 0; i < s->n_stacks; i++) {
        const vis_stack *st = &s->stacks[i];
        size_t cur = 0;
        s->flame[0].total += st->bytes;
        for (size_t k = st->depth; k-- > 0;) {
            size_t name_id = s->frames[st->frames[k]].name_id;
            ec.nodes = s->flame;
            if (imap_reserve(&edges, hash_edge, &ec) != 0)
                goto nomem;
            uint64_t key[2] = { cur, name_id };
            size_t j = fnv(key, sizeof key, FNV_START) & (edges.cap - 1), child = SIZE_MAX;
            for (; edges.slots[j]; j = (j + 1) & (edges.cap - 1)) {
                const vis_flame_node *n = &s->flame[edges.slots[j] - 1];
                if (n->parent == cur && n->name_id == name_id) {
                    child = edges.slots[j] - 1;
                    break;
                }
            }
            if (child == SIZE_MAX) {
                vis_flame_node *a = vis_grow(s->flame, s->n_flame, 64, sizeof *a);
                if (!a)
                    goto nomem;
                s->flame = a;
                child = s->n_flame++;
                s->flame[child] = (vis_flame_node){ name_id, cur, SIZE_MAX, SIZE_MAX,
                                                    s->flame[cur].depth + 1, 0, 0 };
                edges.slots[j] = child + 1;
                edges.used++;
                if (s->flame[child].depth > s->flame_depth)
                    s->flame_depth = s->flame[child].depth;
            }
            s->flame[child].total += st->bytes;
            cur = child;
        }
        s->flame[cur].self += st->bytes;
    }
    free(edges.slots);

    /* Link each node's children in name order. */
    edge *e = malloc((s->n_flame ? s->n_flame : 1) * sizeof *e);
    if (!e)
        return -1;
    size_t n = 0;
    for (size_t i = 1; i < s->n_flame; i++)
        e[n++] = (edge){ s->flame[i].parent, s->flame[i].name_id, i, s->names[s->flame[i].name_id] };
    qsort(e, n, sizeof *e, cmp_edge);
    for (size_t i = n; i-- > 0;) {
        vis_flame_node *parent = &s->flame[e[i].parent];
        s->flame[e[i].node].next_sibling = parent->first_child;
        parent->first_child = e[i].node;
    }
    free(e);
    return 0;
nomem:
    free(edges.slots);
    return -1;
}

/* ------------------------------------------------------------ public */

size_t vis_flame_path(const vis_stacks *s, size_t node, size_t *path)
{
    size_t n = 0;
    for (size_t i = node; i != 0 && i != SIZE_MAX; i = s->flame[i].parent)
        n++;
    size_t k = n;
    for (size_t i = node; i != 0 && i != SIZE_MAX; i = s->flame[i].parent)
        path[--k] = i;
    return n;
}


vis_stacks *vis_stacks_read(FILE *f, const vis_profile *p, size_t snap,
                            char *err, size_t errsz)
{
    reader r;
    memset(&r, 0, sizeof r);
    r.p = p;
    r.err = err;
    r.errsz = errsz;
    vis_stacks *s = r.s = calloc(1, sizeof *s);
    r.open = malloc(VIS_MAX_TREE_DEPTH * sizeof *r.open);
    if (!s || !r.open)
        goto nomem;
    s->snap = snap;
    int rc = vis_massif_walk_tree_lines(f, p, snap, on_node, &r, &r.line, err, errsz);
    if (rc == STOP_NOMEM)
        goto nomem;
    if (rc != 0)
        goto fail;   /* err says why */
    int cut = !s->root_label || r.pending > 0;
    if (cut && !(p->truncated && snap + 1 == p->n_snaps)) {
        snprintf(err, errsz, "%s:%zu: expected the rest of snapshot %u's tree, found the end "
                 "of the file", p->path, p->truncated_line, p->snaps[snap].index);
        goto fail;
    }
    rc = cut ? close_cut(&r) : close_to(&r, 0);
    if (rc == STOP_NOMEM)
        goto nomem;
    if (vis_stacks_flame(s) != 0)
        goto nomem;
    free(r.open);
    free(r.labels.slots);
    free(r.names.slots);
    return s;
nomem:
    snprintf(err, errsz, "%s: out of memory", p->path);
fail:
    free(r.open);
    free(r.labels.slots);
    free(r.names.slots);
    vis_stacks_free(s);
    return NULL;
}

void vis_stacks_free(vis_stacks *s)
{
    if (!s)
        return;
    for (size_t i = 0; i < s->n_frames; i++) {
        free((char *)s->frames[i].label);
        free(s->frames[i].function);
        free(s->frames[i].file);
    }
    free(s->frames);
    free(s->names);
    for (size_t i = 0; i < s->n_stacks; i++)
        free(s->stacks[i].frames);
    free(s->stacks);
    free(s->flame);
    free(s->root_label);
    free(s);
}
