/* csv.c: the CSV writer (see csv.h). The columns are a table: each has a
 * header and a function giving its value at a snapshot, so a later column
 * (resident memory, say) is one more entry in columns_of(), not a new
 * writer. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "base/outfile.h"
#include "model/sites.h"
#include "render/csv.h"

typedef struct {
    const char *name;
    /* The value at snapshot i; arg tells columns of one kind apart (the
     * site's rank, the snapshot's number, the part of the RSS). */
    uint64_t (*get)(const vis_series *v, size_t i, size_t arg);
    size_t arg;
    /* NULL, or whether snapshot i has a value (else the field is empty). */
    int (*has)(const vis_series *v, size_t i);
} column;

/* The numbers of the snapshot itself and of its split into the series;
 * what picks one. */
enum { SNAP_INDEX, SNAP_TIME, SNAP_TOTAL, SNAP_OTHER, SNAP_UNATTRIBUTED, SNAP_EXTRA, SNAP_STACKS };

static uint64_t col_snap(const vis_series *v, size_t i, size_t what)
{
    const vis_snapshot *s = &v->p->snaps[i];
    switch (what) {
    case SNAP_INDEX: return s->index;
    case SNAP_TIME: return s->time;
    case SNAP_TOTAL: return vis_snap_total(s);
    case SNAP_OTHER: return v->other_B[i];
    case SNAP_UNATTRIBUTED: return v->unattributed_B[i];
    case SNAP_EXTRA: return s->heap_extra_B;
    default: return s->stacks_B;
    }
}

static uint64_t col_site(const vis_series *v, size_t i, size_t k)
{
    return vis_series_site(v, i, k);
}

/* Resident memory (memtime --rss=yes): only at snapshots with a reading;
 * between readings it is not known, so those fields are empty. */
static int has_rss(const vis_series *v, size_t i)
{
    return v->p->rss && v->p->rss[i].valid;
}

static uint64_t col_rss(const vis_series *v, size_t i, size_t part)
{
    const vis_rss *r = &v->p->rss[i];
    return part == 0 ? vis_rss_total(r) : part == 1 ? r->anon_B : part == 2 ? r->file_B : r->shmem_B;
}

/* The columns in order; *n gets their number. NULL when out of memory. */
static column *columns_of(const vis_series *v, size_t *n)
{
    static const column head[] = {
        { "snapshot", col_snap, SNAP_INDEX, NULL }, { "time", col_snap, SNAP_TIME, NULL },
        { "total", col_snap, SNAP_TOTAL, NULL },
    };
    static const column tail[] = {
        { "other", col_snap, SNAP_OTHER, NULL }, { "unattributed", col_snap, SNAP_UNATTRIBUTED, NULL },
        { "extra_heap", col_snap, SNAP_EXTRA, NULL }, { "stacks", col_snap, SNAP_STACKS, NULL },
    };
    static const column rss[] = {
        { "rss", col_rss, 0, has_rss }, { "rss_anon", col_rss, 1, has_rss },
        { "rss_file", col_rss, 2, has_rss }, { "rss_shmem", col_rss, 3, has_rss },
    };
    size_t nh = sizeof head / sizeof *head, nt = sizeof tail / sizeof *tail;
    size_t nr = v->p->n_rss ? sizeof rss / sizeof *rss : 0;
    column *c = malloc((nh + v->n_sites + nt + nr) * sizeof *c);
    if (!c)
        return NULL;
    memcpy(c, head, sizeof head);
    for (size_t k = 0; k < v->n_sites; k++)
        c[nh + k] = (column){ v->p->site_info[k].full_name, col_site, k, NULL };
    memcpy(c + nh + v->n_sites, tail, sizeof tail);
    if (nr)
        memcpy(c + nh + v->n_sites + nt, rss, sizeof rss);
    *n = nh + v->n_sites + nt + nr;
    return c;
}

/* RFC 4180: a field with a comma, a quote, CR or LF is quoted, quotes
 * doubled. Other control characters cannot occur in a name (the parser
 * reads lines) but are kept as they are, inside quotes. */
static void put_field(FILE *f, const char *s)
{
    int quote = 0;
    for (const char *c = s; *c; c++)
        quote |= *c == ',' || *c == '"' || *c == '\r' || *c == '\n' ||
                 ((unsigned char)*c < 0x20) || *c == 0x7F;
    if (!quote && s[0] != ' ' && (!s[0] || s[strlen(s) - 1] != ' ')) {
        fputs(s, f);
        return;
    }
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

int vis_csv_write(FILE *f, const vis_series *v)
{
    size_t n = 0;
    column *c = columns_of(v, &n);
    if (!c)
        return -1;
    for (size_t j = 0; j < n; j++) {
        if (j)
            fputc(',', f);
        put_field(f, c[j].name);
    }
    fputc('\n', f);
    for (size_t i = 0; i < v->n_snaps; i++) {
        for (size_t j = 0; j < n; j++) {
            if (j)
                fputc(',', f);
            if (!c[j].has || c[j].has(v, i))
                fprintf(f, "%" PRIu64, c[j].get(v, i, c[j].arg));
        }
        fputc('\n', f);
    }
    free(c);
    return 0;
}

static int write_series(FILE *out, void *ctx, char *err, size_t errsz)
{
    if (vis_csv_write(out, ctx) == 0)
        return 0;
    snprintf(err, errsz, "out of memory");
    return -1;
}

int vis_csv_write_file(const vis_profile *p, size_t top, const char *path,
                       char *err, size_t errsz)
{
    vis_series *v = vis_series_new(p, top);
    if (!v) {
        snprintf(err, errsz, "out of memory");
        return -1;
    }
    int rc = vis_out_write(path, "w", write_series, v, err, errsz);
    vis_series_free(v);
    return rc;
}

static int write_outline(FILE *out, void *ctx, char *err, size_t errsz)
{
    const vis_outline *o = ctx;
    (void)err, (void)errsz;
    fputs("start,end,min_bytes,max_bytes,last_bytes,heap_min_bytes,heap_max_bytes,"
          "heap_last_bytes\n", out);
    for (size_t i = 0; i < o->n; i++) {
        const vis_outline_span *s = &o->spans[i];
        fprintf(out, "%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64
                     ",%" PRIu64 ",%" PRIu64 "\n",
                s->start, s->end, s->min_B, s->max_B, s->last_B, s->heap_min_B, s->heap_max_B,
                s->heap_last_B);
    }
    return 0;
}

int vis_csv_outline_write_file(const vis_profile *p, const char *path, char *err, size_t errsz)
{
    if (!p->outline.present) {
        snprintf(err, errsz, "%s: no exact outline in this profile (memtime's companion writes "
                 "it as 'outline:' lines; Massif's files have none): %s not written",
                 p->path, path);
        return -1;
    }
    return vis_out_write(path, "w", write_outline, (void *)&p->outline, err, errsz);
}
