/* names.c: a site's names for people, and names that never read the same
 * (see names.h for the rules). Every step works on a fresh copy: the
 * strings are short and a site is named once per profile. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/names.h"

static const char ELLIPSIS[] = "\xE2\x80\xA6";   /* one character on screen */

const char *vis_name_bare(const char *label)
{
    /* "0x4005E4: fn (file.c:12)" -> "fn (file.c:12)" */
    if (label[0] == '0' && label[1] == 'x') {
        const char *s = label + 2;
        while ((*s >= '0' && *s <= '9') || (*s >= 'A' && *s <= 'F') || (*s >= 'a' && *s <= 'f'))
            s++;
        if (s > label + 2 && s[0] == ':' && s[1] == ' ')
            return s + 2;
    }
    return label;
}

size_t vis_name_width(const char *s)
{
    size_t n = 0;
    for (; *s; s++)
        n += ((unsigned char)*s & 0xC0) != 0x80;
    return n;
}

static int ident_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
           c == '$' || (unsigned char)c >= 0x80;
}

static int hex_lower(char c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
}

/* A growable string. */
typedef struct {
    char *s;
    size_t n, cap;
    int oom;
} buf;

static void put(buf *b, const char *s, size_t n)
{
    if (b->oom)
        return;
    if (b->n + n + 1 > b->cap) {
        size_t cap = (b->n + n + 1) * 2;
        char *ns = realloc(b->s, cap);
        if (!ns) {
            b->oom = 1;
            return;
        }
        b->s = ns;
        b->cap = cap;
    }
    memcpy(b->s + b->n, s, n);
    b->n += n;
    b->s[b->n] = '\0';
}

static void puts_(buf *b, const char *s)
{
    put(b, s, strlen(s));
}

/* The string built, or NULL (out of memory: freed). */
static char *done(buf *b)
{
    if (b->oom) {
        free(b->s);
        return NULL;
    }
    if (!b->s) {
        b->s = malloc(1);
        if (b->s)
            b->s[0] = '\0';
    }
    return b->s;
}

/* ---- Rust's hashes --------------------------------------------------------- */

/* One identifier of a legacy mangled name, its $-escapes decoded. */
static void legacy_ident(buf *b, const char *s, size_t n)
{
    static const struct { const char *esc; char c; } esc[] = {
        { "$LT$", '<' }, { "$GT$", '>' }, { "$RF$", '&' }, { "$BP$", '*' }, { "$C$", ',' },
        { "$SP$", '@' }, { "$u20$", ' ' }, { "$u27$", '\'' }, { "$u5b$", '[' }, { "$u5d$", ']' },
        { "$u7b$", '{' }, { "$u7d$", '}' }, { "$u7e$", '~' }, { "$u3b$", ';' }, { "$u2b$", '+' },
        { "$u22$", '"' }, { "$LP$", '(' }, { "$RP$", ')' }, { "$u21$", '!' }, { "$u3d$", '=' },
        { "$u3a$", ':' }, { "$u2c$", ',' },
    };
    size_t i = 0;
    if (n >= 2 && s[0] == '_' && s[1] == '$')
        i = 1;
    while (i < n) {
        if (s[i] == '.' && i + 1 < n && s[i + 1] == '.') {
            put(b, "::", 2);
            i += 2;
            continue;
        }
        size_t k = 0, ne = sizeof esc / sizeof esc[0];
        for (; k < ne; k++) {
            size_t l = strlen(esc[k].esc);
            if (l <= n - i && !strncmp(s + i, esc[k].esc, l)) {
                put(b, &esc[k].c, 1);
                i += l;
                break;
            }
        }
        if (k == ne)
            put(b, s + i++, 1);
    }
}

/* A legacy Rust mangled name at s ("_ZN4core3ptr13drop_in_place17h0123456789abcdefE",
 * maybe with ".llvm.1234" after) demangled without its hash into b.
 * Returns the bytes of s it stands for, 0 if s is not one. */
static size_t legacy_demangle(buf *b, const char *s)
{
    if (strncmp(s, "_ZN", 3) != 0)
        return 0;
    const char *p = s + 3;
    size_t start = b->n;
    int first = 1, hash = 0;
    while (*p != 'E') {
        if (*p < '1' || *p > '9')
            goto not_one;
        size_t len = 0;
        while (*p >= '0' && *p <= '9' && len < 100000)
            len = len * 10 + (size_t)(*p++ - '0');
        if (strnlen(p, len) < len)
            goto not_one;
        if (p[len] == 'E' && len == 17 && p[0] == 'h') {
            hash = 1;
            for (size_t i = 1; i < 17; i++)
                hash &= hex_lower(p[i]);
            if (hash) {
                p += len;
                break;
            }
        }
        if (!first)
            put(b, "::", 2);
        legacy_ident(b, p, len);
        first = 0;
        p += len;
    }
    if (!hash)
        goto not_one;
    p++;   /* 'E' */
    if (!strncmp(p, ".llvm.", 6)) {
        p += 6;
        while (ident_char(*p))
            p++;
    }
    return (size_t)(p - s);
not_one:
    b->n = start;
    if (b->s)
        b->s[start] = '\0';
    return 0;
}

/* s with Rust's hashes dropped: legacy "::h<16 hex>" suffixes, legacy
 * mangled names, v0's "[hex]" crate disambiguators. */
static char *drop_rust_hashes(const char *s)
{
    buf b = { 0 };
    size_t n = strlen(s);
    for (size_t i = 0; i < n;) {
        int word_start = i == 0 || !ident_char(s[i - 1]);
        if (word_start && s[i] == '_') {
            size_t used = legacy_demangle(&b, s + i);
            if (used) {
                i += used;
                continue;
            }
        }
        if (s[i] == ':' && s[i + 1] == ':' && s[i + 2] == 'h' && i + 19 <= n && !ident_char(s[i + 19])) {
            size_t k = 3;
            while (k < 19 && hex_lower(s[i + k]))
                k++;
            if (k == 19) {
                i += 19;
                continue;
            }
        }
        if (s[i] == '[' && i > 0 && ident_char(s[i - 1])) {
            size_t k = 1;
            while (hex_lower(s[i + k]))
                k++;
            if (s[i + k] == ']' && k - 1 >= 5 && k - 1 <= 16) {
                i += k + 1;
                continue;
            }
        }
        put(&b, s + i, 1);
        i++;
    }
    return done(&b);
}

char *vis_name_full(const char *label)
{
    return drop_rust_hashes(vis_name_bare(label));
}

/* ---- the parts of a name --------------------------------------------------- */

/* If s ends with a Valgrind location "(file:line)" or "(in /obj)" preceded
 * by a space, returns the index of its '(', else -1. */
static long location_start(const char *s)
{
    size_t n = strlen(s);
    if (n < 3 || s[n - 1] != ')')
        return -1;
    int depth = 0;
    for (long i = (long)n - 1; i >= 0; i--) {
        if (s[i] == ')')
            depth++;
        else if (s[i] == '(' && --depth == 0) {
            if (i == 0 || s[i - 1] != ' ')
                return -1;
            const char *in = s + i + 1;
            if (!strncmp(in, "in ", 3))
                return i;
            const char *colon = strrchr(in, ':');     /* "file:123)" */
            if (!colon || colon[1] == ')')
                return -1;
            for (const char *c = colon + 1; *c != ')'; c++)
                if (*c < '0' || *c > '9')
                    return -1;
            return i;
        }
    }
    return -1;
}

/* "(in /usr/lib/librustc_driver-4c3beb7552356b6f.so)" -> "(in librustc_driver.so)";
 * "(/src/a/b.c:12)" -> "(b.c:12)". loc: from its '(' to its ')'. */
static char *short_location(const char *loc)
{
    buf b = { 0 };
    const char *l = loc + 1;
    int in = !strncmp(l, "in ", 3);
    const char *inner = in ? l + 3 : l;
    size_t len = strlen(inner) - 1;        /* without ')' */
    const char *slash = NULL;
    for (const char *q = inner; q < inner + len; q++)
        if (*q == '/')
            slash = q;
    const char *base = slash ? slash + 1 : inner;
    size_t bl = (size_t)(inner + len - base);
    puts_(&b, in ? "(in " : "(");
    for (size_t i = 0; i < bl; i++) {
        /* A build hash: '-' and 12 or more lowercase hex digits, up to a '.'
         * or the end ("libstd-a1b2c3d4e5f60718.so"); a version ("-14.so")
         * is shorter. */
        if (in && base[i] == '-') {
            size_t k = i + 1;
            while (k < bl && hex_lower(base[k]))
                k++;
            if (k - i - 1 >= 12 && (k == bl || base[k] == '.')) {
                i = k - 1;
                continue;
            }
        }
        put(&b, base + i, 1);
    }
    puts_(&b, ")");
    return done(&b);
}

/* Bracket roles, one byte per byte of s: 'g' opens generic arguments, 'q' a
 * qualified path (a '<' that does not follow a name: Rust's <T as Trait>),
 * '>' closes either, '(' and ')' an argument list; 0 for everything else:
 * operator names (operator<<, operator()), "->", "(anonymous namespace)",
 * the inside of {...} (closures, lambdas: one word), unmatched brackets.
 * NULL when out of memory. */
static char *classify(const char *s)
{
    size_t n = strlen(s);
    char *cls = calloc(n + 1, 1);
    size_t *stack = malloc((n + 1) * sizeof *stack);
    size_t sp = 0;
    if (!cls || !stack) {
        free(cls);
        free(stack);
        return NULL;
    }
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (c == '{') {
            int d = 1;
            while (i + 1 < n && d > 0) {
                i++;
                d += s[i] == '{' ? 1 : s[i] == '}' ? -1 : 0;
            }
            continue;
        }
        if (c == 'o' && !strncmp(s + i, "operator", 8) && (i == 0 || !ident_char(s[i - 1])) &&
            !ident_char(s[i + 8])) {
            size_t j = i + 8;
            if ((s[j] == '(' && s[j + 1] == ')') || (s[j] == '[' && s[j + 1] == ']'))
                j += 2;
            else
                while (s[j] && strchr("<>=!+-*/%^&|~,", s[j]))
                    j++;
            if (j > i + 8 && s[j] == ' ' && s[j + 1] == '<') {   /* "operator< <char>": arguments */
                cls[j + 1] = 'g';
                stack[sp++] = j + 1;
                j += 2;
            }
            i = j - 1;
            continue;
        }
        if (c == '(' && !strncmp(s + i, "(anonymous namespace)", 21)) {
            i += 20;
            continue;
        }
        if (c == '<') {
            /* "Vec<T>", and Rust's turbofish "f::<T>" (v0 symbols) */
            int generic = i > 0 && (ident_char(s[i - 1]) || (i > 1 && s[i - 1] == ':' && s[i - 2] == ':'));
            cls[i] = generic ? 'g' : 'q';
            stack[sp++] = i;
        } else if (c == '(') {
            cls[i] = '(';
            stack[sp++] = i;
        } else if (c == '>' && !(i > 0 && s[i - 1] == '-')) {
            if (sp > 0 && s[stack[sp - 1]] == '<') {
                cls[i] = '>';
                sp--;
            }
        } else if (c == ')') {
            if (sp > 0 && s[stack[sp - 1]] == '(') {
                cls[i] = ')';
                sp--;
            }
        }
    }
    while (sp > 0)
        cls[stack[--sp]] = 0;    /* never closed: not a bracket */
    free(stack);
    return cls;
}

/* The index of the bracket closing the one at i (classified). */
static size_t closing(const char *cls, size_t i)
{
    int d = 0;
    for (size_t k = i;; k++) {
        char c = cls[k];
        if (c == 'g' || c == 'q' || c == '(')
            d++;
        else if (c == '>' || c == ')')
            if (--d == 0)
                return k;
    }
}

static int is_ellipsis(const char *s, size_t n)
{
    return n == 3 && !memcmp(s, ELLIPSIS, 3);
}

/* The deepest nesting of angle groups in s. */
static int angle_depth(const char *s, const char *cls)
{
    int d = 0, max = 0;
    for (size_t i = 0; s[i]; i++) {
        if (cls[i] == 'g' || cls[i] == 'q') {
            if (++d > max)
                max = d;
        } else if (cls[i] == '>') {
            d--;
        }
    }
    return max;
}

/* s with every generic argument list at angle depth D or deeper (1:
 * outermost; the outermost such list where they nest: what collapsing
 * the deepest level, then the next, ..., up to D leaves), or with every
 * top-level argument list when D is 0, replaced by an ellipsis
 * (those with at most one character are left: nothing to gain; and those
 * of at most keep_small, when two sites differ only there). */
static char *collapse(const char *s, int D, size_t keep_small)
{
    char *cls = classify(s);
    if (!cls)
        return NULL;
    buf b = { 0 };
    int d = 0, pd = 0;
    for (size_t i = 0; s[i]; i++) {
        char c = cls[i];
        int hit = D > 0 ? c == 'g' && d + 1 >= D : c == '(' && d == 0 && pd == 0;
        if (hit) {
            size_t e = closing(cls, i);
            const char *in = s + i + 1;
            size_t len = e - i - 1;
            size_t w = 0;
            for (size_t k = 0; k < len; k++)
                w += ((unsigned char)in[k] & 0xC0) != 0x80;
            if (w > 1 && w > keep_small && !is_ellipsis(in, len)) {
                put(&b, s + i, 1);
                puts_(&b, ELLIPSIS);
                put(&b, s + e, 1);
                i = e;
                continue;
            }
        }
        if (c == 'g' || c == 'q')
            d++;
        else if (c == '>')
            d--;
        else if (c == '(')
            pd++;
        else if (c == ')')
            pd--;
        put(&b, s + i, 1);
    }
    free(cls);
    return done(&b);
}

/* The starts of s's top-level "::"-separated segments (outside brackets and
 * braces): seg[0] = 0, seg[k] just past a "::". Returns the count (at
 * least 1), 0 when out of memory. */
static size_t segments(const char *s, size_t **seg)
{
    char *cls = classify(s);
    size_t n = strlen(s), k = 1;
    *seg = malloc((n / 2 + 2) * sizeof **seg);
    if (!cls || !*seg) {
        free(cls);
        free(*seg);
        *seg = NULL;
        return 0;
    }
    (*seg)[0] = 0;
    int d = 0, brace = 0;
    for (size_t i = 0; i < n; i++) {
        char c = cls[i];
        if (s[i] == '{')
            brace++;
        else if (s[i] == '}' && brace > 0)
            brace--;
        if (c == 'g' || c == 'q' || c == '(')
            d++;
        else if (c == '>' || c == ')')
            d--;
        else if (d == 0 && !brace && s[i] == ':' && s[i + 1] == ':' && i + 2 < n &&
                 s[i + 2] != '{' && s[i + 2] != '<') {
            /* "f::{closure#0}" and "f::<T>": one segment, the function's */
            (*seg)[k++] = i + 2;
            i++;
        }
    }
    free(cls);
    return k;
}

/* The segments from index a on (a < n_seg) of s. */
static const char *seg_from(const char *s, const size_t *seg, size_t a)
{
    return s + seg[a];
}

/* Cuts whole segments out of s's middle to fit budget: the first segment,
 * "…", then as many of the last as fit (at least the last one); or, with
 * keep_head 0, "…" and as many of the last as fit (at least the last).
 * Unchanged when s has fewer segments than that cut needs. */
static char *cut_scopes(const char *s, size_t budget, int keep_head)
{
    size_t *seg;
    size_t n = segments(s, &seg);
    if (n == 0)
        return NULL;
    buf b = { 0 };
    if (n < (keep_head ? 3u : 2u)) {
        puts_(&b, s);
        free(seg);
        return done(&b);
    }
    size_t head_len = seg[1] - 2;               /* the first segment, without "::" */
    size_t head_w = 0;
    for (size_t i = 0; i < head_len; i++)
        head_w += ((unsigned char)s[i] & 0xC0) != 0x80;
    size_t k = n - (keep_head ? 2 : 1);         /* how many of the last to keep */
    if (!keep_head && k > 1 && !strncmp(seg_from(s, seg, n - k), ELLIPSIS, 3))
        k--;                                    /* "a::…::b::c": the "…" is no segment */
    while (k > 1 && (keep_head ? head_w + 5 : 3) + vis_name_width(seg_from(s, seg, n - k)) > budget)
        k--;
    if (keep_head) {
        put(&b, s, head_len);
        puts_(&b, "::");
    }
    puts_(&b, ELLIPSIS);
    puts_(&b, "::");
    puts_(&b, seg_from(s, seg, n - k));
    free(seg);
    return done(&b);
}

/* s without a C++ return type before its qualified name ("void std::vector<…>::f"
 * -> "std::vector<…>::f"): a space outside brackets in the first segment. */
static char *drop_return_type(const char *s)
{
    size_t *seg;
    size_t n = segments(s, &seg);
    char *cls = n ? classify(s) : NULL;
    buf b = { 0 };
    size_t cut = 0;
    if (!cls) {
        free(seg);
        return NULL;
    }
    if (n >= 2 && strncmp(s, "(anonymous namespace)", 21) != 0) {
        int d = 0;
        for (size_t i = 0; i + 2 < seg[1]; i++) {
            if (cls[i] == 'g' || cls[i] == 'q' || cls[i] == '(')
                d++;
            else if (cls[i] == '>' || cls[i] == ')')
                d--;
            else if (d == 0 && s[i] == ' ')
                cut = i + 1;
        }
    }
    puts_(&b, s + cut);
    free(cls);
    free(seg);
    return done(&b);
}

/* A path reduced to its last segment ("…::" before it when cut). */
static void last_segment(buf *b, const char *s, size_t n)
{
    char *p = malloc(n + 1);
    if (!p) {
        b->oom = 1;
        return;
    }
    memcpy(p, s, n);
    p[n] = '\0';
    size_t *seg;
    size_t k = segments(p, &seg);
    if (k == 0)
        b->oom = 1;
    else if (k == 1)
        puts_(b, p);
    else {
        puts_(b, ELLIPSIS);
        puts_(b, "::");
        puts_(b, p + seg[k - 1]);
    }
    free(seg);
    free(p);
}

/* Every outermost qualified path <Type as Trait> of s with Type and Trait
 * reduced to their last segments (drop_trait: "as …"). */
static char *shorten_qualified(const char *s, int drop_trait)
{
    char *cls = classify(s);
    if (!cls)
        return NULL;
    buf b = { 0 };
    int d = 0;
    for (size_t i = 0; s[i]; i++) {
        char c = cls[i];
        if (c == 'q' && d == 0) {
            size_t e = closing(cls, i);
            /* " as " at the group's own level */
            size_t as = 0;
            int dd = 0;
            for (size_t k = i + 1; k < e; k++) {
                if (cls[k] == 'g' || cls[k] == 'q' || cls[k] == '(')
                    dd++;
                else if (cls[k] == '>' || cls[k] == ')')
                    dd--;
                else if (dd == 0 && !strncmp(s + k, " as ", 4)) {
                    as = k;
                    break;
                }
            }
            put(&b, "<", 1);
            last_segment(&b, s + i + 1, (as ? as : e) - i - 1);
            if (as) {
                puts_(&b, " as ");
                if (drop_trait)
                    puts_(&b, ELLIPSIS);
                else
                    last_segment(&b, s + as + 4, e - as - 4);
            }
            put(&b, ">", 1);
            i = e;
            continue;
        }
        if (c == 'g' || c == 'q')
            d++;
        else if (c == '>')
            d--;
        put(&b, s + i, 1);
    }
    free(cls);
    return done(&b);
}

/* Replaces *s by next (freed when NULL: out of memory). */
static int step(char **s, char *next)
{
    if (!next)
        return -1;
    free(*s);
    *s = next;
    return 0;
}

/* s with every path inside generic arguments reduced to its last segment
 * ("Vec<core::option::Option<T>>" -> "Vec<…::Option<T>>"): what tells two
 * instantiations apart is usually the types' own names. */
static char *args_last_segments(const char *s)
{
    char *cls = classify(s);
    if (!cls)
        return NULL;
    buf b = { 0 };
    int d = 0;
    for (size_t i = 0; s[i];) {
        char c = cls[i];
        if (c == 'g' || c == 'q')
            d++;
        else if (c == '>')
            d--;
        if (d > 0 && ident_char(s[i]) && (i == 0 || !ident_char(s[i - 1]))) {
            /* a path: ident ("::" ident)* */
            size_t j = i, last = i;
            for (;;) {
                while (ident_char(s[j]))
                    j++;
                if (s[j] == ':' && s[j + 1] == ':' && ident_char(s[j + 2])) {
                    last = j + 2;
                    j += 2;
                    continue;
                }
                break;
            }
            if (last > i) {
                puts_(&b, ELLIPSIS);
                puts_(&b, "::");
            }
            put(&b, s + last, j - last);
            i = j;
            continue;
        }
        put(&b, s + i, 1);
        i++;
    }
    free(cls);
    return done(&b);
}

/* cut_scopes' cut when it fits the budget, else s as it was. */
static char *cut_if_fits(const char *s, size_t budget, int keep_head)
{
    char *c = cut_scopes(s, budget, keep_head);
    if (c && vis_name_width(c) > budget && keep_head) {
        free(c);
        c = strdup(s);
    }
    return c;
}

/* The function part shortened to budget characters by the steps of names.h
 * (generic argument lists of at most keep_small characters stay). */
static char *shorten_function(const char *fn, size_t budget, size_t keep_small)
{
    char *s = strdup(fn);
    if (!s)
        return NULL;
#define FITS() (vis_name_width(s) <= budget)
    if (keep_small == SIZE_MAX && !FITS() && step(&s, args_last_segments(s)))
        goto oom;
    if (!FITS()) {
        /* Inside out: the deepest level collapsed, then the next, ...
         * until it fits; collapse(s, D) is where that stands after level
         * D, so the deepest D that fits is found by bisection: names of
         * millions of characters stay cheap. */
        char *cls = classify(s);
        if (!cls)
            goto oom;
        int lo = 1, hi = angle_depth(s, cls), best = 0;    /* best: 0 none fits */
        free(cls);
        char *fit = NULL;
        while (lo <= hi) {
            int mid = lo + (hi - lo) / 2;
            char *c = collapse(s, mid, keep_small);
            if (!c) {
                free(fit);
                goto oom;
            }
            if (vis_name_width(c) <= budget) {
                free(fit);
                fit = c;
                best = mid;
                lo = mid + 1;
            } else {
                free(c);
                hi = mid - 1;
            }
        }
        if (best > 0)
            step(&s, fit);
        else if (step(&s, collapse(s, 1, keep_small)))   /* all of them, and on */
            goto oom;
    }
    if (!FITS() && step(&s, collapse(s, 0, 0)))
        goto oom;
    if (!FITS() && step(&s, drop_return_type(s)))
        goto oom;
    if (keep_small == SIZE_MAX) {
        /* The arguments are what tells this name apart: cut only the
         * scopes before the last segment that has some. */
        size_t *seg = NULL, n = FITS() ? 1 : segments(s, &seg), g = 0;
        if (n == 0)
            goto oom;
        for (size_t k = 0; n > 1 && k < n; k++)
            if (memchr(s + seg[k], '<', (k + 1 < n ? seg[k + 1] : strlen(s)) - seg[k]))
                g = k;
        if (n > 1 && g > 0) {
            buf b = { 0 };
            puts_(&b, ELLIPSIS);
            puts_(&b, "::");
            puts_(&b, s + seg[g]);
            free(seg);
            if (step(&s, done(&b)))
                goto oom;
        } else {
            free(seg);
        }
        return s;
    }
    if (!FITS() && step(&s, cut_if_fits(s, budget, 1)))
        goto oom;
    if (!FITS() && strchr(s, '<')) {
        if (step(&s, shorten_qualified(s, 0)))
            goto oom;
        if (!FITS() && step(&s, shorten_qualified(s, 1)))
            goto oom;
        if (!FITS() && step(&s, cut_if_fits(s, budget, 1)))
            goto oom;
    }
    if (!FITS() && step(&s, cut_scopes(s, budget, 0)))
        goto oom;
#undef FITS
    return s;
oom:
    free(s);
    return NULL;
}

static const char CALLED_BY[] = "??? called by ";

static char *shorten_label(const char *label, const char *addr_tag, size_t max_chars,
                           size_t keep_small)
{
    char *full = vis_name_full(label);
    char *loc = NULL, *fn = NULL, *out = NULL;
    if (!full)
        return NULL;
    long ls = location_start(full);
    if (ls >= 0) {
        if (!(loc = short_location(full + ls)))
            goto out;
        full[ls - 1] = '\0';
    }
    const char *body = full[0] ? full : "???";
    int called = !strncmp(body, CALLED_BY, sizeof CALLED_BY - 1) && body[sizeof CALLED_BY - 1];
    if (called)
        body += sizeof CALLED_BY - 1;
    size_t fixed = (called ? sizeof CALLED_BY - 1 : 0) + (addr_tag ? strlen(addr_tag) + 2 : 0) +
                   (loc ? vis_name_width(loc) + 1 : 0);
    size_t budget = max_chars > fixed ? max_chars - fixed : 0;
    if (!(fn = shorten_function(body, budget, keep_small)))
        goto out;
    buf b = { 0 };
    if (called) {
        puts_(&b, "???");
        if (addr_tag) {
            puts_(&b, " @");
            puts_(&b, addr_tag);
        }
        puts_(&b, " called by ");
        puts_(&b, fn);
    } else {
        puts_(&b, fn);
        if (addr_tag) {
            puts_(&b, " @");
            puts_(&b, addr_tag);
        }
    }
    if (loc) {
        puts_(&b, " ");
        puts_(&b, loc);
    }
    out = done(&b);
out:
    free(full);
    free(loc);
    free(fn);
    return out;
}

char *vis_name_short(const char *label, const char *addr_tag, size_t max_chars)
{
    return shorten_label(label, addr_tag, max_chars, 0);
}

char *vis_name_short_args(const char *label, const char *addr_tag, size_t max_chars)
{
    return shorten_label(label, addr_tag, max_chars, SIZE_MAX);
}

/* ---- names that never read the same ------------------------------------------ */

/* The "0x1091B7" of a label "0x1091B7: ...", newly allocated; NULL if it
 * has none (or out of memory). */
static char *address_of(const char *label)
{
    const char *rest = vis_name_bare(label);
    if (rest == label)
        return NULL;
    size_t n = (size_t)(rest - label) - 2;
    char *a = malloc(n + 1);
    if (a) {
        memcpy(a, label, n);
        a[n] = '\0';
    }
    return a;
}

/* The full name with " @ADDR" after the function. */
static char *full_tagged(const char *label, const char *addr)
{
    char *f = vis_name_full(label);
    if (!f)
        return NULL;
    buf b = { 0 };
    long ls = location_start(f);
    int called = !strncmp(f, CALLED_BY, sizeof CALLED_BY - 1);
    size_t at = called ? 3 : ls > 0 ? (size_t)ls - 1 : strlen(f);
    put(&b, f, at);
    puts_(&b, " @");
    puts_(&b, addr);
    puts_(&b, f + at);
    free(f);
    return done(&b);
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
                if (!(next[k] = shorten_label(m->e[idx[a + k]].label, NULL, budget, keep[t % 3])))
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
