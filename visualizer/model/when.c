/* when.c: resolves a WHEN (see when.h) against a profile: which moment it
 * names and which snapshot stands for it. Parsing needs the profile because
 * a bare word is a phase mark's label and a unit only fits a ms profile. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "base/number.h"
#include "model/when.h"

size_t vis_when_snap_at(const vis_profile *p, uint64_t t)
{
    /* Times are non-decreasing: binary search for the last one <= t. */
    size_t lo = 0, hi = p->n_snaps;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (p->snaps[mid].time <= t)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo == 0 ? SIZE_MAX : lo - 1;
}

size_t vis_when_detailed_at_or_before(const vis_profile *p, size_t i)
{
    if (i == SIZE_MAX || p->n_snaps == 0)
        return SIZE_MAX;
    if (i >= p->n_snaps)
        i = p->n_snaps - 1;
    for (size_t k = i + 1; k-- > 0;)
        if (p->snaps[k].kind != VIS_TREE_EMPTY)
            return k;
    return SIZE_MAX;
}

/* "250ms", "1.5s", "2min", "3h" -> milliseconds. Returns 0, 1 if s does not
 * look like a time with a unit, -1 if it does but is out of range. */
static int parse_time_unit(const char *s, uint64_t *ms)
{
    static const struct { const char *name; double ms; } units[] = {
        { "ms", 1 }, { "s", 1000 }, { "min", 60000 }, { "h", 3600000 },
    };
    size_t n = strspn(s, "0123456789.");
    if (n == 0 || !s[n] || strchr(s, '.') != strrchr(s, '.') || s[0] == '.')
        return 1;
    for (size_t u = 0; u < sizeof units / sizeof *units; u++) {
        if (strcmp(s + n, units[u].name) != 0)
            continue;
        char *end;
        double v = strtod(s, &end);
        if (end != s + n)
            return 1;
        v = floor(v * units[u].ms + 1e-9);
        if (!(v >= 0 && v < 1.8e19))
            return -1;
        *ms = (uint64_t)v;
        return 0;
    }
    return 1;
}

static const char *unit_word(vis_unit u)
{
    return u == VIS_UNIT_MS ? "ms" : u == VIS_UNIT_I ? "i (instructions)" : "B (bytes)";
}

/* The expected forms, for messages. */
static int fail(const vis_profile *p, const char *spec, char *err, size_t errsz, const char *why)
{
    int n = snprintf(err, errsz, "'%s' %s; expected #N (0 to %zu), peak, end, %s, "
                     "or a phase mark's label", spec, why, p->n_snaps ? p->n_snaps - 1 : 0,
                     p->unit == VIS_UNIT_MS ? "a time (250ms, 1.5s, 2min, 3h)"
                                            : "a whole number in the file's unit");
    if (n < 0 || (size_t)n >= errsz)
        return -1;
    if (p->n_marks == 0) {
        snprintf(err + n, errsz - (size_t)n, " (this profile has none)");
        return -1;
    }
    size_t len = (size_t)n;
    const char *sep = " (";
    for (size_t i = 0; i < p->n_marks && len + 8 < errsz; i++) {
        int k = snprintf(err + len, errsz - len, "%s'%s'", sep, p->marks[i].label);
        if (k < 0 || len + (size_t)k >= errsz - 6) {
            snprintf(err + len, errsz - len, ", ...");
            len = strlen(err);
            break;
        }
        len += (size_t)k;
        sep = ", ";
    }
    if (len + 2 <= errsz)
        snprintf(err + len, errsz - len, ")");
    return -1;
}

static int find_mark(const vis_profile *p, const char *label, vis_when *w)
{
    for (size_t i = 0; i < p->n_marks; i++) {
        if (strcmp(p->marks[i].label, label) == 0) {
            w->kind = VIS_WHEN_MARK;
            w->mark = i;
            w->time = p->marks[i].time;
            w->snap = vis_when_snap_at(p, w->time);
            return 0;
        }
    }
    return -1;
}

int vis_when_parse(const vis_profile *p, const char *spec, vis_when *w,
                   char *err, size_t errsz)
{
    memset(w, 0, sizeof *w);
    w->mark = SIZE_MAX;
    if (p->n_snaps == 0)
        return snprintf(err, errsz, "'%s': the profile has no snapshot", spec), -1;
    if (strncmp(spec, "mark:", 5) == 0) {
        if (find_mark(p, spec + 5, w) == 0)
            return 0;
        return fail(p, spec + 5, err, errsz, "is no phase mark's label");
    }
    if (!strcmp(spec, "peak")) {
        w->kind = VIS_WHEN_PEAK;
        w->snap = p->peak;
        w->time = p->snaps[p->peak].time;
        return 0;
    }
    if (!strcmp(spec, "end")) {
        w->kind = VIS_WHEN_END;
        w->snap = p->n_snaps - 1;
        w->time = p->snaps[w->snap].time;
        return 0;
    }
    if (spec[0] == '#' && spec[1] && strspn(spec + 1, "0123456789") == strlen(spec + 1)) {
        const char *s = spec + 1;
        uint64_t n;
        if (vis_parse_u64(&s, &n) == 0) {
            for (size_t i = 0; i < p->n_snaps; i++) {
                if (p->snaps[i].index == n) {
                    w->kind = VIS_WHEN_SNAPSHOT;
                    w->snap = i;
                    w->time = p->snaps[i].time;
                    return 0;
                }
            }
        }
        return fail(p, spec, err, errsz, "is no snapshot of this profile");
    }
    /* A mark's label wins over a number that reads the same: the user wrote
     * the label into the program. */
    if (find_mark(p, spec, w) == 0)
        return 0;
    if (spec[0] && strspn(spec, "0123456789") == strlen(spec)) {
        const char *s = spec;
        if (vis_parse_u64(&s, &w->time) != 0)
            return fail(p, spec, err, errsz, "is too large");
        w->kind = VIS_WHEN_TIME;
        w->snap = vis_when_snap_at(p, w->time);
        return 0;
    }
    uint64_t ms;
    int rc = parse_time_unit(spec, &ms);
    if (rc == 0 && p->unit != VIS_UNIT_MS) {
        char why[96];
        snprintf(why, sizeof why, "has a unit, but this profile's time unit is %s",
                 unit_word(p->unit));
        return fail(p, spec, err, errsz, why);
    }
    if (rc == 0) {
        w->kind = VIS_WHEN_TIME;
        w->time = ms;
        w->snap = vis_when_snap_at(p, ms);
        return 0;
    }
    return fail(p, spec, err, errsz, rc < 0 ? "is too large" : "is not understood");
}
