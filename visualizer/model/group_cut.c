/* group_cut.c: the view's cut of a set of groups and the lines that stand
 * for what it cuts (group_cut.h). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/group_cut.h"

void vis_group_rest_label(char *buf, size_t cap, size_t count, vis_group_by by, double threshold)
{
    snprintf(buf, cap, "in %zu %s below the view's threshold (%.2f%%)", count,
             by == VIS_GROUP_SITE ? "sites" : "groups", threshold);
}

vis_group_by vis_group_fallback2(vis_group_by by, vis_group_by fallback)
{
    vis_group_by second = by == VIS_GROUP_FILE ? VIS_GROUP_OBJECT : VIS_GROUP_FILE;
    return fallback == VIS_GROUP_AUTO || second == fallback ? VIS_GROUP_AUTO : second;
}

void vis_group_fallback_label(char *buf, size_t cap, vis_group_by by, const char *coarse)
{
    const char *what = by == VIS_GROUP_FILE ? "files" : "functions";
    if (coarse[0] == '(')   /* a fallback key itself: "(in libc.so)" */
        snprintf(buf, cap, "other %s %s", what, coarse);
    else
        snprintf(buf, cap, "other %s in %s", what, coarse);
}

static int by_coarse(const void *a, const void *b)
{
    const vis_cut *const *x = a, *const *y = b;
    return strcmp((*x)->coarse[(*x)->fate], (*y)->coarse[(*y)->fate]);
}

int vis_group_cut(vis_cut *c, size_t n, double cut, size_t *n_rest)
{
    vis_cut **at = malloc((n + 1) * sizeof *at);
    size_t small = 0;
    if (!at)
        return -1;
    for (size_t i = 0; i < n; i++) {
        c[i].fate = VIS_CUT_KEPT;
        if (!c[i].below && (double)c[i].bytes < cut) {
            c[i].fate = VIS_CUT_REST;
            small++;
        }
    }
    /* The fallback's levels, while two or more groups are still below:
     * the groups of one coarser key that hold the cut together go to its
     * line (one group alone is below the cut by definition). */
    for (int level = 0; level < 2 && small >= 2; level++) {
        size_t m = 0;
        for (size_t i = 0; i < n; i++)
            if (c[i].fate == VIS_CUT_REST && c[i].coarse[level]) {
                c[i].fate = level;   /* read by by_coarse; taken back below */
                at[m++] = &c[i];
            }
        if (m > 1)
            qsort(at, m, sizeof *at, by_coarse);
        for (size_t i = 0; i < m;) {
            size_t j = i;
            uint64_t sum = 0;
            for (; j < m && !strcmp(at[j]->coarse[level], at[i]->coarse[level]); j++)
                sum += at[j]->bytes;
            for (size_t q = i; q < j; q++)
                if ((double)sum < cut)
                    at[q]->fate = VIS_CUT_REST;
                else
                    small--;
            i = j;
        }
    }
    if (small < 2)   /* one group left below the cut stays itself */
        for (size_t i = 0; i < n; i++)
            if (c[i].fate == VIS_CUT_REST)
                c[i].fate = VIS_CUT_KEPT;
    *n_rest = small >= 2 ? small : 0;
    free(at);
    return 0;
}
