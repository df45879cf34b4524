/* names.c: names no two of which read the same, for a set of sites
 * (names.h): each site's short and full names, then, where two collide,
 * the rounds that tell them apart. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "base/strbuf.h"
#include "model/label.h"
#include "model/names.h"

/* The "0x1091B7" of a label "0x1091B7: ...", newly allocated; NULL if it
 * has none (or out of memory). */
static char *address_of(const char *label)
{
    vis_label l = vis_label_parse(label);
    if (!l.addr)
        return NULL;
    char *a = malloc(l.addr_len + 1);
    if (a) {
        memcpy(a, l.addr, l.addr_len);
        a[l.addr_len] = '\0';
    }
    return a;
}

/* The full name with " @ADDR" after the function. */
static char *full_tagged(const char *label, const char *addr)
{
    char *f = vis_name_full(label);
    if (!f)
        return NULL;
    vis_strbuf b = VIS_STRBUF_INIT;
    vis_label l = vis_label_parse(f);
    size_t at = l.caller && l.fn == f ? 3 : l.loc ? (size_t)(l.loc - f) - 1 : strlen(f);
    vis_sb_put(&b, f, at);
    vis_sb_puts(&b, " @");
    vis_sb_puts(&b, addr);
    vis_sb_puts(&b, f + at);
    free(f);
    return vis_sb_done(&b);
}

typedef struct {
    vis_name_entry *e;
    int full;          /* which names: full or short */
} namer;

static char **slot(const namer *m, size_t i)
{
    return m->full ? &m->e[i].full : &m->e[i].name;
}

static const namer *sort_ctx;   /* qsort takes no context; one sort at a time */

static int by_name(const void *a, const void *b)
{
    size_t i = *(const size_t *)a, j = *(const size_t *)b;
    int c = strcmp(*slot(sort_ctx, i), *slot(sort_ctx, j));
    if (c)
        return c;
    c = strcmp(sort_ctx->e[i].label, sort_ctx->e[j].label);
    return c ? c : (i > j) - (i < j);
}

/* The entries sorted by name (then label) into idx. */
static void sort_names(const namer *m, size_t *idx, size_t n)
{
    for (size_t i = 0; i < n; i++)
        idx[i] = i;
    sort_ctx = m;
    qsort(idx, n, sizeof *idx, by_name);
    sort_ctx = NULL;
}

/* Whether the group idx[a..z) holds more than one label. */
static int group_differs(const namer *m, const size_t *idx, size_t a, size_t z)
{
    for (size_t k = a + 1; k < z; k++)
        if (strcmp(m->e[idx[k]].label, m->e[idx[a]].label))
            return 1;
    return 0;
}

/* Names a colliding group idx[a..z) anew, by the round: 0, a larger budget
 * (short names only); 1, the address; 2, an ordinal. */
static int rename_group(const namer *m, const size_t *idx, size_t a, size_t z, int round, size_t max)
{
    size_t n = z - a;
    char **next = calloc(n, sizeof *next);
    int rc = next ? 0 : -1;
    if (round == 0 && !m->full && rc == 0) {
        /* The smallest larger budget at which the group's different full
         * names all read differently (up to the longest). */
        size_t longest = 0, want = 0;
        char **full = calloc(n, sizeof *full);
        if (!full)
            rc = -1;
        for (size_t k = 0; k < n && rc == 0; k++) {
            if (!(full[k] = vis_name_full(m->e[idx[a + k]].label)))
                rc = -1;
            else if (strlen(full[k]) > longest)
                longest = strlen(full[k]);
        }
        for (size_t k = 0; k < n && rc == 0; k++) {
            size_t j = 0;
            while (j < k && strcmp(full[j], full[k]))
                j++;
            want += j == k;
        }
        /* Tried in turn: short template arguments kept ("<int>" and
         * "<double>" tell instantiations apart), every argument kept with
         * its paths cut to their last segments, then a larger budget each
         * way, ... */
        static const size_t keep[3] = { 0, 12, SIZE_MAX };
        /* (names longer than the largest budget tried go to the address
         * at once: each try costs a pass over millions of characters) */
        for (size_t t = 1; rc == 0 && longest <= 64 * max; t++) {
            /* max, then 8 more, 16, 32, ...: a few tries even for names
             * of millions of characters */
            size_t budget = t < 3 ? max : max + ((size_t)8 << (t / 3 - 1)), got = 0;
            for (size_t k = 0; k < n && rc == 0; k++) {
                free(next[k]);
                if (!(next[k] = vis_name_shorten(m->e[idx[a + k]].label, NULL, budget, keep[t % 3])))
                    rc = -1;
            }
            for (size_t k = 0; k < n && rc == 0; k++) {
                size_t j = 0;
                while (j < k && strcmp(next[j], next[k]))
                    j++;
                got += j == k;
            }
            /* every argument kept is no help when that makes the names
             * far longer than the budget */
            for (size_t k = 0; k < n && rc == 0 && t % 3 == 2; k++)
                if (vis_name_width(next[k]) > 2 * budget)
                    got = 0;
            if (got >= want || budget > longest + 16 || budget > 64 * max) {
                if (got < want) {       /* nothing readable tells them apart */
                    for (size_t k = 0; k < n; k++) {
                        free(next[k]);
                        next[k] = NULL;
                    }
                }
                break;
            }
        }
        for (size_t k = 0; full && k < n; k++)
            free(full[k]);
        free(full);
    } else if (round <= 1 && rc == 0) {
        for (size_t k = 0; k < n && rc == 0; k++) {
            const char *label = m->e[idx[a + k]].label;
            char *addr = address_of(label);
            if (!addr)
                continue;
            next[k] = m->full ? full_tagged(label, addr) : vis_name_short(label, addr, max);
            free(addr);
            if (!next[k])
                rc = -1;
        }
    } else if (rc == 0) {
        /* Equal labels share an ordinal: the first label in the group's
         * order keeps its name. */
        size_t ord = 1;
        for (size_t k = 0; k < n && rc == 0; k++) {
            if (k > 0 && strcmp(m->e[idx[a + k]].label, m->e[idx[a + k - 1]].label))
                ord++;
            if (ord == 1)
                continue;
            const char *old = *slot(m, idx[a + k]);
            size_t cap = strlen(old) + 24;
            if (!(next[k] = malloc(cap)))
                rc = -1;
            else
                snprintf(next[k], cap, "%s [%zu]", old, ord);
        }
    }
    for (size_t k = 0; k < n; k++) {
        if (next && next[k] && rc == 0) {
            free(*slot(m, idx[a + k]));
            *slot(m, idx[a + k]) = next[k];
        } else if (next) {
            free(next[k]);
        }
    }
    free(next);
    return rc;
}

/* Makes one kind of names distinct, round by round, until none collide. */
static int make_distinct(const namer *m, size_t n, size_t max)
{
    size_t *idx = malloc((n ? n : 1) * sizeof *idx);
    if (!idx)
        return -1;
    int rc = 0;
    for (int round = m->full ? 1 : 0; rc == 0; round++) {
        sort_names(m, idx, n);
        int any = 0;
        for (size_t a = 0; a < n && rc == 0;) {
            size_t z = a + 1;
            while (z < n && !strcmp(*slot(m, idx[z]), *slot(m, idx[a])))
                z++;
            if (z - a > 1 && group_differs(m, idx, a, z)) {
                any = 1;
                rc = rename_group(m, idx, a, z, round < 2 ? round : 2, max);
            }
            a = z;
        }
        if (!any)
            break;
        if (round > 8)               /* only labels that read "x [2]" themselves */
            break;
    }
    free(idx);
    return rc;
}

int vis_names_assign(vis_name_entry *e, size_t n, size_t max_chars)
{
    for (size_t i = 0; i < n; i++) {
        e[i].name = vis_name_short(e[i].label, NULL, max_chars);
        e[i].full = vis_name_full(e[i].label);
        if (!e[i].name || !e[i].full)
            return -1;
    }
    namer s = { e, 0 }, f = { e, 1 };
    if (make_distinct(&s, n, max_chars) || make_distinct(&f, n, max_chars))
        return -1;
    return 0;
}

void vis_names_clear(vis_name_entry *e, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(e[i].name);
        free(e[i].full);
        e[i].name = e[i].full = NULL;
    }
}
