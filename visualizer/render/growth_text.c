/* growth_text.c: the growth ranking as text (growth_text.h). Sites are
 * named as in every section (sites.h: vis_site_label_name). */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "model/groups.h"
#include "model/sites.h"
#include "base/units.h"
#include "render/growth_text.h"

void vis_growth_window_line(FILE *out, const vis_profile *p, const vis_growth *g, const char *what)
{
    char a[48], b[48];
    if (g->n_detailed == 0) {
        fprintf(out, "%s: no detailed snapshot between snapshots %zu and %zu%s\n", what, g->from,
                g->to, g->n_on_bursts ? " outside the exact outline's bursts" : "");
        return;
    }
    fprintf(out, "%s, from %s (snapshot %zu) to %s (snapshot %zu), %zu detailed snapshot%s:\n",
            what, vis_fmt_time(a, sizeof a, p->unit, p->snaps[g->first_detailed].time),
            g->first_detailed, vis_fmt_time(b, sizeof b, p->unit, p->snaps[g->last_detailed].time),
            g->last_detailed, g->n_detailed, g->n_detailed == 1 ? "" : "s");
    if (g->n_on_bursts)
        fprintf(out, "  (%zu detailed snapshot%s taken during bursts of the exact outline left "
                "out at the window's ends: they show the burst, not the level)\n", g->n_on_bursts,
                g->n_on_bursts == 1 ? "" : "s");
}

void vis_growth_row_line(FILE *out, const vis_profile *p, const vis_growth_row *r)
{
    char a[48], b[48], c[48], d[48];
    fprintf(out, "  %-9s %10s %10s %11s %17s  %s%s\n", vis_kind_name(r->kind),
            vis_fmt_bytes(a, sizeof a, r->start_bytes), vis_fmt_bytes(b, sizeof b, r->end_bytes),
            vis_fmt_delta(c, sizeof c, r->growth_bytes), vis_fmt_rate(d, sizeof d, p->unit, r->rate),
            vis_site_label_name(p, r->label), r->maybe_below_threshold ? " [*]" : "");
}

/* What a row is: a site, or the group --group-by made of sites ("group"
 * where the default view descended into one crate's functions). */
static const char *row_noun(const vis_profile *p)
{
    if (p->grouping.applied && p->grouping.descend)
        return "group";
    return p->grouping.applied ? vis_group_by_name(p->grouping.by) : "site";
}

void vis_growth_header_line(FILE *out, const vis_profile *p)
{
    fprintf(out, "  %-9s %10s %10s %11s %17s  %s\n", "kind", "start", "end", "growth", "rate",
            row_noun(p));
}

void vis_growth_text(FILE *out, const vis_profile *p, const vis_growth *g, size_t max_rows)
{
    char what[64];
    snprintf(what, sizeof what, "Growth by %s", row_noun(p));
    vis_growth_window_line(out, p, g, what);
    if (g->n_detailed == 0)
        return;
    if (g->n_rows == 0) {
        fprintf(out, "  (no allocation site in these snapshots)\n");
        return;
    }
    vis_growth_header_line(out, p);
    int star = 0;
    for (size_t i = 0; i < g->n_rows && (!max_rows || i < max_rows); i++) {
        vis_growth_row_line(out, p, &g->rows[i]);
        star |= g->rows[i].maybe_below_threshold;
    }
    if (max_rows && g->n_rows > max_rows)
        fprintf(out, "  ... %zu more %s%s\n", g->n_rows - max_rows, row_noun(p),
                g->n_rows - max_rows == 1 ? "" : "s");
    if (star)
        fprintf(out, "  [*] missing from some trees that merged small sites: counted as 0 there\n");
    fprintf(out, "  kinds: steady = grows through most of the window (a leak's shape); plateau = "
                 "grew, then levelled (a\n  bounded cache); burst = rose and fell back; shrinking; "
                 "flat = moves by 5%% of its maximum or less\n");
}
