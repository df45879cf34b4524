/* demangle.c: a label's mangled function demangled by libiberty
 * (demangle.h). Only a whole function is looked at: a mangled name has no
 * blank, so it runs from after the address to the first blank (the
 * location, if any, follows it). */
#include <stdlib.h>
#include <string.h>
#include <libiberty/demangle.h>
#include "model/demangle.h"
#include "model/sites.h"

int vis_demangle_label(const char *label, char **out)
{
    *out = NULL;
    const char *fn = vis_site_name(label);
    /* "_Z" (C++, Rust legacy) and "_R" (Rust v0); "__Z" as macOS writes it
     * is not Valgrind's on Linux. */
    if (fn[0] != '_' || (fn[1] != 'Z' && fn[1] != 'R'))
        return 0;
    size_t n = strcspn(fn, " ");
    char *sym = malloc(n + 1);
    if (!sym)
        return -1;
    memcpy(sym, fn, n);
    sym[n] = '\0';
    /* The same options as Valgrind's demangler: argument lists, const. */
    char *d = cplus_demangle(sym, DMGL_PARAMS | DMGL_ANSI);
    free(sym);
    if (!d)
        return 0;
    size_t head = (size_t)(fn - label), dl = strlen(d), tail = strlen(fn + n);
    char *r = malloc(head + dl + tail + 1);
    if (r) {
        memcpy(r, label, head);
        memcpy(r + head, d, dl);
        memcpy(r + head + dl, fn + n, tail + 1);
    }
    free(d);   /* cplus_demangle's result is malloc'ed */
    *out = r;
    return r ? 1 : -1;
}
