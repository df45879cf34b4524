/* chart_data.c: the chart's bands from the model's series (see
 * chart_data.h): names, colours, and zero bands dropped. O(snapshots x
 * bands). */
#include "model/chart_data.h"
#include "model/sites.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
    d->bands[v->n_sites] = (vis_band){ VIS_BAND_OTHER, "other sites", COLOUR_OTHER, 0, 0 };
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
