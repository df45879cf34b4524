/* maps.c: parses /proc/PID/maps text (maps.h). A line is
 * "start-end perms offset dev inode [path]", numbers in hexadecimal but
 * the inode; the path runs to the end of the line and may hold blanks
 * (" (deleted)" after a replaced file is kept: the object is then gone). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "base/grow.h"
#include "read/maps.h"
#include "read/massif.h"

static int mfail(char *err, size_t errsz, const char *file, size_t lineno, const char *line,
                 size_t len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vis_expected(err, errsz, file, lineno, line, len, 0, fmt, ap);
    va_end(ap);
    return -1;
}

static int hex(const char **s, uint64_t *out)
{
    const char *p = *s;
    uint64_t v = 0;
    int n = 0;
    for (;; p++, n++) {
        int d = *p >= '0' && *p <= '9' ? *p - '0' : *p >= 'a' && *p <= 'f' ? *p - 'a' + 10
              : *p >= 'A' && *p <= 'F' ? *p - 'A' + 10 : -1;
        if (d < 0)
            break;
        if (n == 16)
            return -1;
        v = v << 4 | (uint64_t)d;
    }
    if (n == 0)
        return -1;
    *s = p;
    *out = v;
    return 0;
}

static int by_start(const void *a, const void *b)
{
    const vis_mapping *x = a, *y = b;
    return x->start < y->start ? -1 : x->start > y->start;
}

/* One line; 0, or -1 when it is not a maps line. */
static int parse_line(char *line, vis_mapping *m)
{
    const char *p = line;
    uint64_t dev1, dev2;
    if (hex(&p, &m->start) || *p++ != '-' || hex(&p, &m->end) || *p++ != ' ' ||
        m->end <= m->start)
        return -1;
    if (strspn(p, "rwxsp-") < 4 || p[4] != ' ')
        return -1;
    m->exec = p[2] == 'x';
    p += 5;
    if (hex(&p, &m->offset) || *p++ != ' ' || hex(&p, &dev1) || *p++ != ':' ||
        hex(&p, &dev2) || *p++ != ' ')
        return -1;
    char *end;
    if (*p < '0' || *p > '9')
        return -1;
    m->inode = strtoull(p, &end, 10);
    p = end;
    if (*p && *p != ' ')
        return -1;
    p += strspn(p, " ");
    m->path = p;
    m->path_len = strlen(p);
    return 0;
}

int vis_maps_parse(vis_maps *maps, const char *text, size_t len, const char *file,
                   size_t first_line, char *err, size_t errsz)
{
    memset(maps, 0, sizeof *maps);
    if (!(maps->text = malloc(len + 1))) {
        snprintf(err, errsz, "%s: out of memory", file);
        return -1;
    }
    memcpy(maps->text, text, len);
    maps->text[len] = '\0';
    char *line = maps->text;
    size_t lineno = first_line;
    while (*line) {
        char *nl = strchr(line, '\n');
        if (nl)
            *nl = '\0';
        vis_mapping m;
        if (parse_line(line, &m) != 0) {
            mfail(err, errsz, file, lineno, line, strlen(line),
                  "a maps line 'start-end perms offset dev inode [path]'");
            vis_maps_free(maps);
            return -1;
        }
        vis_mapping *a = vis_grow(maps->m, maps->n, 64, sizeof *a);
        if (!a) {
            snprintf(err, errsz, "%s: out of memory", file);
            vis_maps_free(maps);
            return -1;
        }
        maps->m = a;
        a[maps->n++] = m;
        lineno++;
        if (!nl)
            break;
        line = nl + 1;
    }
    qsort(maps->m, maps->n, sizeof *maps->m, by_start);
    for (size_t i = 1; i < maps->n; i++)
        if (maps->m[i].start < maps->m[i - 1].end) {
            snprintf(err, errsz, "%s:%zu: expected mappings that do not overlap, found "
                     "%#llx-%#llx and %#llx-%#llx", file, first_line,
                     (unsigned long long)maps->m[i - 1].start,
                     (unsigned long long)maps->m[i - 1].end, (unsigned long long)maps->m[i].start,
                     (unsigned long long)maps->m[i].end);
            vis_maps_free(maps);
            return -1;
        }
    return 0;
}

void vis_maps_free(vis_maps *maps)
{
    free(maps->m);
    free(maps->text);
    memset(maps, 0, sizeof *maps);
}

const vis_mapping *vis_maps_find(const vis_maps *maps, uint64_t addr)
{
    size_t lo = 0, hi = maps->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (maps->m[mid].end <= addr)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < maps->n && maps->m[lo].start <= addr ? &maps->m[lo] : NULL;
}
