/* group_choice.c: the groupings a switching view offers (group_choice.h). */
#include "model/group_choice.h"
#include "model/groups.h"

/* Whether a site of any tree, with bytes, is a function of kind a or b
 * (in a scope, when scoped). */
static int has_kind(const vis_profile *p, vis_sym_kind a, vis_sym_kind b, int scoped)
{
    for (size_t i = 0; i < p->n_snaps; i++) {
        const vis_snapshot *s = &p->snaps[i];
        for (size_t k = 0; k < s->n_sites; k++) {
            if (s->sites[k].is_below_threshold || !s->sites[k].bytes)
                continue;
            vis_sym_kind kind = vis_symbol_kind(s->sites[k].label);
            if ((kind == a || kind == b) && (!scoped || vis_symbol_scoped(s->sites[k].label)))
                return 1;
        }
    }
    return 0;
}

int vis_group_offered(const vis_profile *site_grouped, vis_group_by by)
{
    switch (by) {
    case VIS_GROUP_CRATE: return has_kind(site_grouped, VIS_SYM_RUST, VIS_SYM_RUST, 0);
    case VIS_GROUP_NAMESPACE: return has_kind(site_grouped, VIS_SYM_CXX, VIS_SYM_RUST, 1);
    case VIS_GROUP_AUTO: return 0;
    default: return 1;
    }
}
