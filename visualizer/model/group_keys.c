/* group_keys.c: the keys read from a site's label (group_keys.h): its
 * function, file, object, crate, namespace, and the kind of code it names.
 * The keys are read from the label's text alone; nothing here looks at a
 * binary. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/demangle.h"
#include "model/group_keys.h"
#include "model/label.h"
#include "model/sites.h"

static const char *const GROUP_NAMES[] = {
    "site", "function", "file", "object", "crate", "namespace", "auto"
};

int vis_group_by_parse(const char *s, vis_group_by *out)
{
    for (int i = 0; i <= VIS_GROUP_AUTO; i++)
        if (!strcmp(s, GROUP_NAMES[i])) {
            *out = (vis_group_by)i;
            return 0;
        }
    return -1;
}

const char *vis_group_by_name(vis_group_by by)
{
    return by <= VIS_GROUP_AUTO ? GROUP_NAMES[by] : "?";
}

/* ---- reading a label ------------------------------------------------------ */

static int is_digit(char c)
{
    return c >= '0' && c <= '9';
}

static int is_hex(char c)
{
    return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

/* An unnamed function told by its caller ("??? called by f", sites.h) is
 * grouped as the caller is for the keys read from the function's name
 * (crate, namespace): the caller's code is what a person acts on. Moves
 * p->fn to the caller; returns whether there was one. */
static int to_caller(vis_label *p)
{
    if (!p->caller)
        return 0;
    p->fn = p->caller;
    p->fn_len = p->caller_len;
    p->unnamed = vis_label_fn_unnamed(p->fn, p->fn_len);
    return 1;
}

static char *dup_n(const char *s, size_t n)
{
    char *o = malloc(n + 1);
    if (o) {
        memcpy(o, s, n);
        o[n] = '\0';
    }
    return o;
}

/* The length of fn[0..n) without a Rust legacy hash "::h<16 hex>". */
size_t vis_name_without_hash(const char *fn, size_t n)
{
    if (n < 19 || strncmp(fn + n - 19, "::h", 3) != 0)
        return n;
    for (size_t i = n - 16; i < n; i++)
        if (!is_hex(fn[i]) || (fn[i] >= 'A' && fn[i] <= 'F'))
            return n;
    return n - 19;
}

/* Whether s[0..n) ends with suffix. */
static int ends_with(const char *s, size_t n, const char *suffix)
{
    size_t k = strlen(suffix);
    return n >= k && !memcmp(s + n - k, suffix, k);
}

size_t vis_name_without_clones(const char *fn, size_t n)
{
    static const char *const kinds[] = {
        ".constprop", ".isra", ".part", ".cold", ".lto_priv", ".localalias", ".clone", ".llvm",
    };
    for (;;) {
        /* The C++ demangler's " [clone .constprop.0]". */
        if (n > 0 && fn[n - 1] == ']') {
            size_t k = n;
            while (k > 0 && fn[k - 1] != '[')
                k--;
            if (k >= 2 && fn[k - 2] == ' ' && !strncmp(fn + k, "clone .", 7)) {
                n = k - 2;
                continue;
            }
        }
        /* ".kind" or ".kind.123" (".llvm.1234567890"). */
        size_t d = n;
        while (d > 0 && is_digit(fn[d - 1]))
            d--;
        size_t end = d < n && d > 0 && fn[d - 1] == '.' ? d - 1 : n;
        size_t i;
        for (i = 0; i < sizeof kinds / sizeof *kinds; i++)
            if (ends_with(fn, end, kinds[i]) && end > strlen(kinds[i]))
                break;
        if (i == sizeof kinds / sizeof *kinds)
            return n;
        n = end - strlen(kinds[i]);
    }
}

/* The function's name as a person reads it: the label's function without
 * a Rust hash and the compiler's clone suffixes. */
static size_t bare_name(const vis_label *p)
{
    size_t n = vis_name_without_clones(p->fn, p->fn_len);
    return vis_name_without_clones(p->fn, vis_name_without_hash(p->fn, n));
}

static char *key_function(const char *label)
{
    vis_label p = vis_label_parse(label);
    if (p.unnamed)
        return strdup(label);
    return dup_n(p.fn, bare_name(&p));
}

/* The base name of path[0..n). */
static const char *base_name(const char *path, size_t *n)
{
    const char *b = path;
    for (size_t i = 0; i < *n; i++)
        if (path[i] == '/')
            b = path + i + 1;
    *n -= (size_t)(b - path);
    return b;
}

/* Drops "-<hex>" of 8 or more digits ending s[0..*n) (a Rust build hash). */
static void drop_build_hash(const char *s, size_t *n)
{
    size_t i = *n, h = 0;
    while (i > 0 && is_hex(s[i - 1])) {
        i--;
        h++;
    }
    if (h >= 8 && i > 1 && s[i - 1] == '-')
        *n = i - 1;
}

/* The object's name without its directory, ".so" version numbers and build
 * hashes, into a new string; NULL when out of memory. */
static char *object_name(const char *obj, size_t n)
{
    const char *b = base_name(obj, &n);
    const char *so = NULL;
    for (size_t i = 0; i + 3 <= n; i++)
        if (!strncmp(b + i, ".so", 3) && (i + 3 == n || b[i + 3] == '.'))
            so = b + i;
    size_t stem = so ? (size_t)(so - b) : n;
    drop_build_hash(b, &stem);
    size_t cap = stem + 4;
    char *o = malloc(cap);
    if (o)
        snprintf(o, cap, "%.*s%s", (int)stem, b, so ? ".so" : "");
    return o;
}

/* "(in OBJECT)" for a label's fallback group, or "(in FILE)", the source
 * file's base name, when Valgrind gave a source line instead (it names the
 * object only when it has no line): the code a person can find, a file of
 * the program's own; "(???)" when it gave neither. */
static char *object_fallback(const vis_label *p)
{
    if (!p->obj && !p->file)
        return strdup("(?\?\?)");
    char *o;
    if (!p->obj) {
        size_t n = p->file_len;
        const char *b = base_name(p->file, &n);
        o = dup_n(b, n);
    } else
        o = object_name(p->obj, p->obj_len);
    if (!o)
        return NULL;
    size_t cap = strlen(o) + 6;
    char *f = malloc(cap);
    if (f)
        snprintf(f, cap, "(in %s)", o);
    free(o);
    return f;
}

/* The group of code no symbol names, by its object: "libLLVM-14.so (no
 * symbols)" (no crate or namespace key has a space), or "(???)" when
 * Valgrind named no object either. Stripped code of one library is one
 * group a person can act on (install its debug symbols), not many
 * addresses too small to show. */
static char *unnamed_fallback(const vis_label *p)
{
    if (!p->obj)
        return object_fallback(p);
    char *o = object_name(p->obj, p->obj_len);
    if (!o)
        return NULL;
    size_t cap = strlen(o) + sizeof " (no symbols)";
    char *f = malloc(cap);
    if (f)
        snprintf(f, cap, "%s (no symbols)", o);
    free(o);
    return f;
}

char *vis_key_object(const char *label)
{
    vis_label p = vis_label_parse(label);
    if (!p.obj)
        return object_fallback(&p);
    return object_name(p.obj, p.obj_len);
}

char *vis_key_file(const char *label)
{
    vis_label p = vis_label_parse(label);
    if (!p.file)
        return object_fallback(&p);
    size_t n = p.file_len;
    const char *b = base_name(p.file, &n);
    return dup_n(b, n);
}

/* ---- symbols --------------------------------------------------------------- */

static int opens(char c)
{
    return c == '<' || c == '(' || c == '[' || c == '{';
}

static int closes(char c)
{
    return c == '>' || c == ')' || c == ']' || c == '}';
}

/* The qualified name of a demangled function fn[0..n): a C++ argument list
 * (and what follows it: " const", " &&") and a return type before the
 * name dropped. Sets *name, returns its length; *had_args says whether an
 * argument list was there (C++; Rust names have none). */
size_t vis_name_qualified(const char *fn, size_t n, const char **name, int *had_args)
{
    *had_args = 0;
    /* The argument list: the last top-level "(...)" not followed by "::". */
    int depth = 0;
    size_t args = n;
    for (size_t i = 0; i < n; i++) {
        if (opens(fn[i])) {
            if (depth++ == 0 && fn[i] == '(' && i > 0 && fn[i - 1] != ' ')
                args = i;
        } else if (closes(fn[i]) && depth > 0) {
            if (--depth == 0 && fn[i] == ')' && args != n && i + 2 < n && fn[i + 1] == ':' &&
                fn[i + 2] == ':')
                args = n;   /* "(anonymous namespace)::", a scope, not arguments */
        }
    }
    if (args < n && depth == 0) {
        n = args;
        *had_args = 1;
    }
    /* A return type: before the last top-level space ("void ns::f"), but not
     * the space of "operator new" or "operator delete[]". */
    depth = 0;
    size_t start = 0;
    for (size_t i = 0; i < n; i++) {
        if (opens(fn[i]))
            depth++;
        else if (closes(fn[i]) && depth > 0)
            depth--;
        else if (fn[i] == ' ' && depth == 0 && !(i >= 8 && !strncmp(fn + i - 8, "operator", 8)))
            start = i + 1;
    }
    *name = fn + start;
    return n - start;
}

/* The top-level "::"-separated segments of s[0..n): *count of them, the
 * offsets of the first max in seg/len. */
size_t vis_name_segments(const char *s, size_t n, size_t *seg, size_t *len, size_t max)
{
    size_t count = 0, from = 0;
    int depth = 0;
    for (size_t i = 0; i <= n; i++) {
        if (i < n && opens(s[i]))
            depth++;
        else if (i < n && closes(s[i]) && depth > 0)
            depth--;
        else if (i == n || (depth == 0 && s[i] == ':' && i + 1 < n && s[i + 1] == ':')) {
            if (count < max) {
                seg[count] = from;
                len[count] = i - from;
            }
            count++;
            from = i + 2;
            i++;
        }
    }
    return count;
}

/* s[0..n) without surrounding blanks, and without references, pointers,
 * "dyn " and "impl " in front. */
static const char *look_through(const char *s, size_t *n)
{
    for (;;) {
        while (*n > 0 && *s == ' ') {
            s++;
            (*n)--;
        }
        static const char *const prefixes[] = { "&mut ", "&", "*const ", "*mut ", "dyn ", "impl " };
        size_t k;
        for (k = 0; k < sizeof prefixes / sizeof *prefixes; k++) {
            size_t pl = strlen(prefixes[k]);
            if (*n >= pl && !strncmp(s, prefixes[k], pl)) {
                s += pl;
                *n -= pl;
                break;
            }
        }
        if (k == sizeof prefixes / sizeof *prefixes)
            break;
    }
    while (*n > 0 && s[*n - 1] == ' ')
        (*n)--;
    return s;
}

/* The index of the top-level " as " in s[0..n), or n. */
static size_t find_as(const char *s, size_t n)
{
    int depth = 0;
    for (size_t i = 0; i + 4 <= n; i++) {
        if (opens(s[i]))
            depth++;
        else if (closes(s[i]) && depth > 0)
            depth--;
        else if (depth == 0 && !strncmp(s + i, " as ", 4))
            return i;
    }
    return n;
}

static int crate_of(const char *s, size_t n, char *out, size_t cap, int level)
{
    if (level > 16 || n == 0)
        return -1;
    s = look_through(s, &n);
    size_t seg[2], len[2];
    size_t count = vis_name_segments(s, n, seg, len, 2);
    const char *first = s + seg[0];
    size_t fl = len[0];
    if (fl >= 2 && first[0] == '<' && first[fl - 1] == '>') {
        /* "<T as Trait>" or "<T>": the impl's self type T, unless T is not
         * a path (u8, [T], (A, B), a generic parameter): the trait's. */
        const char *in = first + 1;
        size_t il = fl - 2, as = find_as(in, il);
        size_t tl = as;
        const char *t = look_through(in, &tl);
        size_t ts[1], tlen[1];
        if (tl > 0 && vis_name_segments(t, tl, ts, tlen, 1) >= 2 && crate_of(t, tl, out, cap, level + 1) == 0)
            return 0;
        if (as < il)
            return crate_of(in + as + 4, il - as - 4, out, cap, level + 1);
        return -1;
    }
    if (count < 2)
        return -1;   /* no path: a C function, a primitive */
    /* The crate's name ends at generic arguments or a v0 "[hash]". */
    size_t k = 0;
    while (k < fl && first[k] != '<' && first[k] != '[')
        k++;
    if (k == 0 || k + 1 > cap)
        return -1;
    memcpy(out, first, k);
    out[k] = '\0';
    return 0;
}

int vis_rust_crate(const char *fn, char *out, size_t cap)
{
    const char *name;
    int args;
    size_t n = vis_name_qualified(fn, vis_name_without_hash(fn, strlen(fn)), &name, &args);
    return crate_of(name, n, out, cap, 0);
}

static vis_sym_kind symbol_kind(const char *label)
{
    vis_label p = vis_label_parse(label);
    to_caller(&p);
    if (p.unnamed)
        return VIS_SYM_UNNAMED;
    const char *name;
    int args;
    size_t n = vis_name_qualified(p.fn, p.fn_len, &name, &args);
    size_t seg[1], len[1];
    if (vis_name_segments(name, n, seg, len, 1) < 2 && !(n > 0 && name[0] == '<'))
        return args ? VIS_SYM_CXX : VIS_SYM_C;
    return args ? VIS_SYM_CXX : VIS_SYM_RUST;
}

static char *key_crate(const char *label)
{
    vis_label p = vis_label_parse(label);
    to_caller(&p);
    if (p.unnamed)
        return unnamed_fallback(&p);
    char *fn = dup_n(p.fn, p.fn_len);
    if (!fn)
        return NULL;
    size_t cap = p.fn_len + 1;
    char *out = malloc(cap);
    if (out && vis_rust_crate(fn, out, cap) != 0) {
        free(out);
        out = object_fallback(&p);
    }
    free(fn);
    return out;
}

static char *key_namespace(const char *label, unsigned depth)
{
    vis_label p = vis_label_parse(label);
    to_caller(&p);
    if (p.unnamed)
        return unnamed_fallback(&p);
    if (depth == 0)
        return object_fallback(&p);
    const char *name;
    int args;
    size_t n = vis_name_qualified(p.fn, bare_name(&p), &name, &args);
    size_t seg[64], len[64];
    size_t count = vis_name_segments(name, n, seg, len, 64), scopes = count > 64 ? 63 : count - 1;
    /* A Rust impl "<T as Trait>::f" or "<T>::f": the scopes are T's path
     * (the trait's when T is not a path), the impl's function after it. */
    if (count >= 2 && len[0] >= 2 && name[0] == '<' && name[len[0] - 1] == '>') {
        const char *in = name + 1;
        size_t il = len[0] - 2, as = find_as(in, il), tl = as;
        const char *t = look_through(in, &tl);
        size_t ts[1], tlen[1];
        if (vis_name_segments(t, tl, ts, tlen, 1) < 2 && as < il) {
            tl = il - as - 4;
            t = look_through(in + as + 4, &tl);
        }
        name = t;
        count = vis_name_segments(name, tl, seg, len, 64);
        scopes = count > 64 ? 64 : count;
    }
    if (scopes < 1)
        return object_fallback(&p);
    size_t take = scopes < depth ? scopes : depth;
    /* The scopes, each without template arguments or v0 disambiguators. */
    size_t cap = seg[take - 1] + len[take - 1] + 1;
    char *out = malloc(cap);
    if (!out)
        return NULL;
    size_t o = 0;
    for (size_t k = 0; k < take; k++) {
        const char *s = name + seg[k];
        size_t l = len[k], e = 0;
        while (e < l && (s[e] != '<' || e == 0) && s[e] != '[')
            e++;
        if (k > 0) {
            memcpy(out + o, "::", 2);
            o += 2;
        }
        memcpy(out + o, s, e);
        o += e;
    }
    out[o] = '\0';
    return out;
}

/* The keys read from a function's name see a mangled function demangled
 * (demangle.h), so that it groups with its demangled twin: label, or its
 * demangled copy in *copy (free it); NULL when out of memory. */
static const char *demangled(const char *label, char **copy)
{
    int rc = vis_demangle_label(label, copy);
    return rc < 0 ? NULL : rc ? *copy : label;
}

char *vis_key_function(const char *label)
{
    char *copy;
    const char *on = demangled(label, &copy);
    char *k = on ? key_function(on) : NULL;
    free(copy);
    return k;
}

vis_sym_kind vis_symbol_kind(const char *label)
{
    char *copy;
    const char *on = demangled(label, &copy);
    /* Out of memory: the label as it is (a kind is only a hint). */
    vis_sym_kind k = symbol_kind(on ? on : label);
    free(copy);
    return k;
}

char *vis_key_crate(const char *label)
{
    char *copy;
    const char *on = demangled(label, &copy);
    char *k = on ? key_crate(on) : NULL;
    free(copy);
    return k;
}

char *vis_key_namespace(const char *label, unsigned depth)
{
    char *copy;
    const char *on = demangled(label, &copy);
    char *k = on ? key_namespace(on, depth) : NULL;
    free(copy);
    return k;
}

int vis_symbol_scoped(const char *label)
{
    char *copy;
    const char *on = demangled(label, &copy);
    if (!on)
        return 0;
    vis_label p = vis_label_parse(on);
    char *key = key_namespace(on, 1), *fallback = object_fallback(&p);
    int scoped = key && fallback && strcmp(key, fallback) != 0;
    free(key);
    free(fallback);
    free(copy);
    return scoped;
}

char *vis_group_key(const char *label, vis_group_by by, unsigned ns_depth)
{
    switch (by) {
    case VIS_GROUP_FUNCTION: return vis_key_function(label);
    case VIS_GROUP_FILE: return vis_key_file(label);
    case VIS_GROUP_OBJECT: return vis_key_object(label);
    case VIS_GROUP_CRATE: return vis_key_crate(label);
    case VIS_GROUP_NAMESPACE: return vis_key_namespace(label, ns_depth);
    default: return strdup(label);
    }
}
