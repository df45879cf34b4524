/* chart_data.c: the chart's bands from the model's series (see
 * chart_data.h): names, colours, and zero bands dropped, O(snapshots x
 * bands); and the one drawing rule every chart follows, per pixel column:
 * the exact outline's range, the sampled bands cut where it contradicts
 * them, O(spans + columns x bands). */
#include "model/chart_data.h"
#include "model/outline.h"
#include "model/sites.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/units.h"

/* VIS_TOP_MAX distinct colours, so no two drawn sites share one: Tableau's
 * 10 and 20 tones (red and grey removed, so the red peak marker and the grey
 * bands stay unambiguous), then hues around the circle at several
 * lightnesses, each at least a clear step from the others and the greys. */
static const vis_rgb site_palette[VIS_TOP_MAX] = {
    0x4E79A7, 0xF28E2B, 0x59A14F, 0xB07AA1, 0x76B7B2, 0xEDC948, 0xFF9DA7,
    0x9C755F, 0xA0CBE8, 0xFFBE7D, 0x8CD17D, 0xD4A6C8, 0x499894, 0xB6992D,
    0x86BCB6, 0xF1CE63, 0xA34728, 0xDB7756, 0x6E3320, 0xB86246, 0xDBA456,
    0x6E6120, 0xC5DB56, 0xA5B846, 0x84A328, 0x406E20, 0x47A328, 0x77DB56,
    0xA7E29C, 0x28A347, 0x56DB77, 0x206E40, 0x56DBA4, 0x28A37A, 0x56DBD0,
    0x46B8B8, 0x20616E, 0x56A4DB, 0x2865A3, 0x5677DB, 0x20336E, 0x2832A3,
    0x464FB8, 0x9C9CE2, 0x7756DB, 0x5128A3, 0x47206E, 0xA456DB, 0x8946B8,
    0xD056DB,
};
#define COLOUR_OTHER   0xC9C9C9
#define COLOUR_UNATTR  0xA0A0A0   /* the hatch's lines; the gaps stay light */
#define COLOUR_EXTRA   0x8F8F8F
#define COLOUR_STACKS  0x5A6B7B

void vis_chart_data_free(vis_chart_data *d)
{
    if (!d)
        return;
    free(d->value_B);
    free(d);
}

const char *vis_chart_group_noun(const vis_profile *p, int plural)
{
    static const char *const noun[][2] = {
        [VIS_GROUP_SITE] = { "site", "sites" },
        [VIS_GROUP_FUNCTION] = { "function", "functions" },
        [VIS_GROUP_FILE] = { "file", "files" },
        [VIS_GROUP_OBJECT] = { "object", "objects" },
        [VIS_GROUP_CRATE] = { "crate", "crates" },
        [VIS_GROUP_NAMESPACE] = { "namespace", "namespaces" },
    };
    vis_group_by by = p->grouping.applied ? p->grouping.by : VIS_GROUP_SITE;
    if (by >= VIS_GROUP_AUTO)
        by = VIS_GROUP_SITE;
    if (p->grouping.applied && p->grouping.descend)   /* crates and one crate's functions */
        return plural ? "groups" : "group";
    return noun[by][plural != 0];
}

vis_chart_data *vis_chart_data_new(const vis_profile *p, size_t top, char *err, size_t errsz)
{
    if (!p->n_snaps) {
        snprintf(err, errsz, "%s: no snapshots to draw", p->path ? p->path : "profile");
        return NULL;
    }
    if (top > VIS_TOP_MAX)
        top = VIS_TOP_MAX;
    vis_chart_data *d = calloc(1, sizeof *d);
    vis_series *v = vis_series_new(p, top);
    size_t n = p->n_snaps, nb = v ? v->n_sites + 4 : 0;
    if (d && v)
        d->value_B = malloc(n * nb * sizeof *d->value_B);
    if (!d || !v || !d->value_B) {
        snprintf(err, errsz, "out of memory");
        vis_series_free(v);
        vis_chart_data_free(d);
        return NULL;
    }
    d->n_snaps = n;
    d->n_detailed = p->n_detailed;
    for (size_t k = 0; k < v->n_sites; k++)
        d->bands[k] = (vis_band){ VIS_BAND_SITE, p->site_info[k].name, site_palette[k], 0,
                                  p->site_info[k].largest_B };
    /* "other sites", "other crates": what the grouping merged the rest of. */
    static const char *const other[] = { "other sites", "other functions", "other files",
                                         "other objects", "other crates", "other namespaces" };
    const char *noun = vis_chart_group_noun(p, 1);
    const char *other_label = other[0];
    for (size_t k = 0; k < sizeof other / sizeof *other; k++)
        if (!strcmp(other[k] + 6, noun))
            other_label = other[k];
    /* Where groups fall back to their code ("other functions in llvm"),
     * "other functions" would read as one of them: the band says what it
     * is, the groups the legend has no room for. */
    if (p->grouping.applied && (p->grouping.fallback != VIS_GROUP_AUTO || p->grouping.descend)) {
        size_t more = p->n_site_info > v->n_sites ? p->n_site_info - v->n_sites : 0;
        snprintf(d->other_label, sizeof d->other_label, "%zu more group%s (past --top)", more,
                 more == 1 ? "" : "s");
        other_label = d->other_label;
    }
    d->bands[v->n_sites] = (vis_band){ VIS_BAND_OTHER, other_label, COLOUR_OTHER, 0, 0 };
    d->bands[v->n_sites + 1] = (vis_band){ VIS_BAND_UNATTRIBUTED,
        p->n_detailed ? "unattributed (between trees)" : "heap (no tree: not broken down)",
        COLOUR_UNATTR, 0, 0 };
    d->bands[v->n_sites + 2] = (vis_band){ VIS_BAND_EXTRA, "extra heap (admin + slop)", COLOUR_EXTRA, 0, 0 };
    d->bands[v->n_sites + 3] = (vis_band){ VIS_BAND_STACKS, "stacks", COLOUR_STACKS, 0, 0 };
    for (size_t i = 0; i < n; i++) {
        uint64_t *row = d->value_B + i * nb;
        for (size_t k = 0; k < v->n_sites; k++)
            row[k] = vis_series_site(v, i, k);
        row[v->n_sites] = v->other_B[i];
        row[v->n_sites + 1] = v->unattributed_B[i];
        row[v->n_sites + 2] = p->snaps[i].heap_extra_B;
        row[v->n_sites + 3] = p->snaps[i].stacks_B;
        for (size_t b = v->n_sites; b < nb; b++)
            if (row[b] > d->bands[b].largest_B)
                d->bands[b].largest_B = row[b];
    }
    vis_series_free(v);

    /* Drop bands that are zero everywhere (compacting the rows); an empty
     * profile keeps its heap band, so the legend names something. */
    int keep[VIS_TOP_MAX + 4];
    size_t nkeep = 0;
    for (size_t b = 0; b < nb; b++) {
        keep[b] = d->bands[b].largest_B > 0 || (b == nb - 3 && p->n_detailed == 0);
        for (size_t i = 0; i < n && !keep[b]; i++)
            keep[b] = d->value_B[i * nb + b] > 0;
        nkeep += keep[b] != 0;
    }
    if (nkeep == 0)
        keep[nb - 4] = 1, nkeep = 1;         /* trees, all empty: "other sites" */
    for (size_t i = 0; i < n; i++) {
        size_t o = 0;
        for (size_t b = 0; b < nb; b++)
            if (keep[b])
                d->value_B[i * nkeep + o++] = d->value_B[i * nb + b];
    }
    size_t o = 0;
    for (size_t b = 0; b < nb; b++)
        if (keep[b])
            d->bands[o++] = d->bands[b];
    d->n_bands = nkeep;
    size_t pk = p->peak < n ? p->peak : 0;
    for (size_t b = 0; b < nkeep; b++)
        d->bands[b].peak_B = d->value_B[pk * nkeep + b];
    return d;
}

/* ---- columns ------------------------------------------------------------ */

long vis_column_of(double t0, double t1, size_t ncol, double off, double t)
{
    if (ncol < 2 || !(t1 > t0))
        return 0;
    /* The same expression as plot.h's, so both land on the same pixel. */
    double v = (t - t0) * (double)(ncol - 1) / (t1 - t0);
    if (v < -1e9)
        return -1000000000L;
    if (v > 1e9)
        return 1000000000L;
    return (long)floor(v + off);
}

/* The last column a piece [s, e) overlaps: the one holding the moment
 * just before e (an instant: its own). */
static long last_column(double t0, double t1, size_t ncol, double off, const vis_piece *q)
{
    long first = vis_column_of(t0, t1, ncol, off, (double)q->start);
    if (q->end <= q->start || ncol < 2 || !(t1 > t0))
        return first;
    double v = ((double)q->end - t0) * (double)(ncol - 1) / (t1 - t0) + off;
    if (v > 1e9)
        return 1000000000L;
    long last = (long)ceil(v) - 1;
    return last < first ? first : last;
}

static void col_take(vis_col *c, uint64_t lo, uint64_t hi)
{
    if (!c->has) {
        c->has = 1;
        c->min_B = lo;
        c->max_B = hi;
        return;
    }
    if (lo < c->min_B)
        c->min_B = lo;
    if (hi > c->max_B)
        c->max_B = hi;
}

void vis_columns(const vis_piece *pc, size_t n, double t0, double t1, size_t ncol, double off,
                 int hold, long hold_to, vis_col *cols)
{
    memset(cols, 0, ncol * sizeof *cols);
    long lim = (long)ncol - 1, next = 0;
    int held = 0;
    uint64_t held_B = 0;
    for (size_t i = 0; i < n; i++) {
        const vis_piece *q = &pc[i];
        long a = vis_column_of(t0, t1, ncol, off, (double)q->start);
        long b = last_column(t0, t1, ncol, off, q);
        if (hold && held)                 /* the step before this piece */
            for (long k = next > 0 ? next : 0; k < a && k <= lim; k++) {
                col_take(&cols[k], held_B, held_B);
                cols[k].last_B = held_B;
            }
        if (b >= 0 && a <= lim) {
            long ka = a < 0 ? 0 : a, kb = b > lim ? lim : b;
            /* The value entering the piece's first column from the left. */
            if (held && a >= 0)
                col_take(&cols[ka], held_B, held_B);
            for (long k = ka; k <= kb; k++) {
                col_take(&cols[k], q->min_B, q->max_B);
                cols[k].last_B = q->last_B;
            }
        }
        if (b + 1 > next)
            next = b + 1;
        held = 1;
        held_B = q->last_B;
    }
    if (hold && held) {
        long to = hold_to < lim ? hold_to : lim;
        for (long k = next > 0 ? next : 0; k <= to; k++) {
            col_take(&cols[k], held_B, held_B);
            cols[k].last_B = held_B;
        }
    }
}

vis_piece *vis_outline_pieces(const vis_profile *p, int heap_only, size_t *n)
{
    const vis_outline *o = &p->outline;
    *n = 0;
    if (!o->present || !o->n)
        return NULL;
    vis_piece *pc = malloc(o->n * sizeof *pc);
    if (!pc) {
        *n = SIZE_MAX;
        return NULL;
    }
    for (size_t i = 0; i < o->n; i++) {
        const vis_outline_span *s = &o->spans[i];
        pc[i] = heap_only ? (vis_piece){ s->start, s->end, s->heap_min_B, s->heap_max_B, s->heap_last_B }
                          : (vis_piece){ s->start, s->end, s->min_B, s->max_B, s->last_B };
    }
    *n = o->n;
    return pc;
}

vis_piece *vis_snapshot_pieces(const vis_profile *p, size_t *n)
{
    *n = 0;
    if (!p->n_snaps)
        return NULL;
    vis_piece *pc = malloc(p->n_snaps * sizeof *pc);
    if (!pc) {
        *n = SIZE_MAX;
        return NULL;
    }
    for (size_t i = 0; i < p->n_snaps; i++) {
        uint64_t v = vis_snap_total(&p->snaps[i]);
        pc[i] = (vis_piece){ p->snaps[i].time, p->snaps[i].time, v, v, v };
    }
    *n = p->n_snaps;
    return pc;
}

void vis_chart_time_range(const vis_profile *p, double *t0, double *t1)
{
    double first = p->n_snaps ? (double)p->snaps[0].time : 0;
    double last = p->n_snaps ? (double)p->snaps[p->n_snaps - 1].time : 0;
    if (p->outline.present && p->outline.n) {
        if ((double)p->outline.spans[p->outline.n - 1].end > last)
            last = (double)p->outline.spans[p->outline.n - 1].end;
        if ((double)p->outline.spans[0].start < first)
            first = (double)p->outline.spans[0].start;
    }
    /* Start where the profile starts: 0 for a process profiled from its
     * start (as Massif's times do), the fork for a forked child's (its
     * times are on its parent's clock). */
    *t0 = first > 0 ? first : 0;
    *t1 = last > *t0 ? last : *t0 + 1;
}

int vis_chart_rss_panel(uint64_t heap_top_B, uint64_t rss_top_B)
{
    return rss_top_B / VIS_RSS_PANEL_RATIO > heap_top_B
           || (rss_top_B / VIS_RSS_PANEL_RATIO == heap_top_B && rss_top_B % VIS_RSS_PANEL_RATIO);
}

void vis_chart_exactness(const vis_profile *p, char *buf, size_t n)
{
    const vis_outline *o = &p->outline;
    if (o->present && o->n && o->width) {
        uint64_t span = o->spans[o->n - 1].end - o->spans[0].start;
        uint64_t buckets = (span + o->width - 1) / o->width;
        char w[48];
        vis_fmt_time(w, sizeof w, p->unit, o->width);
        snprintf(buf, n, "outline: exact (every change, %llu bucket%s of %s); bands: %zu of %zu "
                 "snapshots with a tree, sampled", (unsigned long long)buckets,
                 buckets == 1 ? "" : "s", w, p->n_detailed, p->n_snaps);
    } else {
        snprintf(buf, n, "sampled: bursts between snapshots are not shown (%zu snapshots, %zu with "
                 "a tree; memtime's own files carry the exact outline)", p->n_snaps, p->n_detailed);
    }
}

void vis_chart_cols_free(vis_chart_cols *c)
{
    if (!c)
        return;
    free(c->band_B);
    free(c->outside_B);
    free(c->lo_B);
    free(c->hi_B);
    free(c->drawn);
    free(c);
}

vis_chart_cols *vis_chart_cols_new(const vis_profile *p, const vis_chart_data *d, double t0,
                                   double t1, size_t ncol)
{
    size_t nb = d->n_bands, n_env = 0, n_smp = 0;
    vis_chart_cols *c = calloc(1, sizeof *c);
    vis_piece *env = vis_outline_pieces(p, 0, &n_env);
    vis_piece *smp = vis_snapshot_pieces(p, &n_smp);
    vis_col *ec = calloc(ncol, sizeof *ec), *sc = calloc(ncol, sizeof *sc);
    size_t *best = malloc(ncol * sizeof *best), *held = malloc(ncol * sizeof *held);
    if (c) {
        c->ncol = ncol;
        c->n_bands = nb;
        c->band_B = calloc(ncol * (nb ? nb : 1), sizeof *c->band_B);
        c->outside_B = calloc(ncol, sizeof *c->outside_B);
        c->lo_B = calloc(ncol, sizeof *c->lo_B);
        c->hi_B = calloc(ncol, sizeof *c->hi_B);
        c->drawn = calloc(ncol, sizeof *c->drawn);
    }
    if (!c || !c->band_B || !c->outside_B || !c->lo_B || !c->hi_B || !c->drawn || !ec || !sc
        || !best || !held || n_env == SIZE_MAX || n_smp == SIZE_MAX || !ncol) {
        vis_chart_cols_free(c);
        c = NULL;
        goto out;
    }
    c->exact = n_env > 0;
    vis_columns(env, n_env, t0, t1, ncol, 0.5, 0, 0, ec);
    vis_columns(smp, n_smp, t0, t1, ncol, 0.5, 1, (long)ncol - 1, sc);

    /* The snapshot in effect per column: the largest total among those in
     * it, so no sampled peak disappears at any width. */
    for (size_t k = 0; k < ncol; k++)
        best[k] = SIZE_MAX;
    for (size_t i = 0; i < p->n_snaps; i++) {
        long k = vis_column_of(t0, t1, ncol, 0.5, (double)p->snaps[i].time);
        k = k < 0 ? 0 : k >= (long)ncol ? (long)ncol - 1 : k;
        if (best[k] == SIZE_MAX || vis_snap_total(&p->snaps[i]) > vis_snap_total(&p->snaps[best[k]]))
            best[k] = i;
    }
    size_t last = SIZE_MAX, si = 0;
    for (size_t k = 0; k < ncol; k++) {
        /* The last snapshot at or before column k. */
        while (si < p->n_snaps) {
            long kk = vis_column_of(t0, t1, ncol, 0.5, (double)p->snaps[si].time);
            if (kk > (long)k)
                break;
            last = si++;
        }
        held[k] = last;
    }
    for (size_t k = 0; k < ncol; k++) {
        size_t show = best[k] != SIZE_MAX ? best[k] : held[k];
        uint64_t *row = c->band_B + k * nb;
        uint64_t stack = 0;
        if (show != SIZE_MAX) {
            const uint64_t *v = d->value_B + show * nb;
            uint64_t total = 0;
            for (size_t b = 0; b < nb; b++)
                total += v[b];
            if (ec[k].has && best[k] == SIZE_MAX && total > ec[k].max_B && show + 1 < d->n_snaps) {
                /* A held step the outline contradicts: what both samples
                 * around the column agree on. */
                const uint64_t *w = d->value_B + (show + 1) * nb;
                for (size_t b = 0; b < nb; b++)
                    row[b] = v[b] < w[b] ? v[b] : w[b];
            } else {
                memcpy(row, v, nb * sizeof *row);
            }
            if (ec[k].has)                /* cut at the outline's top */
                for (size_t b = 0; b < nb; b++) {
                    uint64_t room = ec[k].max_B > stack ? ec[k].max_B - stack : 0;
                    if (row[b] > room)
                        row[b] = room;
                    stack += row[b];
                }
            else
                for (size_t b = 0; b < nb; b++)
                    stack += row[b];
        }
        if (ec[k].has) {
            c->drawn[k] = 1;
            c->outside_B[k] = ec[k].max_B > stack ? ec[k].max_B - stack : 0;
            c->lo_B[k] = ec[k].min_B;
            c->hi_B[k] = ec[k].max_B;
        } else if (sc[k].has) {
            c->drawn[k] = 1;
            c->lo_B[k] = sc[k].min_B;
            c->hi_B[k] = sc[k].max_B;
            /* The samples' top is the snapshot drawn. */
            if (stack > c->hi_B[k])
                c->hi_B[k] = stack;
        }
        if (c->drawn[k] && c->hi_B[k] > c->max_B)
            c->max_B = c->hi_B[k];
    }
out:
    free(env);
    free(smp);
    free(ec);
    free(sc);
    free(best);
    free(held);
    return c;
}

vis_col *vis_total_columns(const vis_profile *p, double t0, double t1, size_t ncol, double off)
{
    size_t n = 0;
    int exact = vis_outline_has(p);
    vis_piece *pc = exact ? vis_outline_pieces(p, 0, &n) : vis_snapshot_pieces(p, &n);
    vis_col *col = calloc(ncol, sizeof *col);
    if (n == SIZE_MAX || !col) {
        free(pc);
        free(col);
        return NULL;
    }
    long last = vis_column_of(t0, t1, ncol, off, (double)p->snaps[p->n_snaps - 1].time);
    vis_columns(pc, n, t0, t1, ncol, off, !exact, last, col);
    free(pc);
    return col;
}

void vis_chart_peak_caption(const vis_profile *p, char *buf, size_t n)
{
    const vis_snapshot *pk = &p->snaps[p->peak < p->n_snaps ? p->peak : 0];
    char bytes[32], when[48];
    snprintf(buf, n, "peak %s at %s", vis_fmt_bytes(bytes, sizeof bytes, vis_snap_total(pk)),
             vis_fmt_time(when, sizeof when, p->unit, pk->time));
}

void vis_chart_panel_top_caption(uint64_t top_B, char *buf, size_t n)
{
    char top[32];
    snprintf(buf, n, "top of the heap plot above: %s", vis_fmt_bytes(top, sizeof top, top_B));
}
