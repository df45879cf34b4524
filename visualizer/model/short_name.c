/* short_name.c: the short name every view prints (short_name.h): the
 * location to its last path part, then, while still over its budget, the
 * steps that drop whole arguments and whole scopes. Every step works on a
 * fresh copy: the strings are short and a site is named once per profile. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "base/strbuf.h"
#include "model/full_name.h"
#include "model/label.h"
#include "model/short_name.h"

static const char ELLIPSIS[] = "\xE2\x80\xA6";   /* one character on screen */

size_t vis_name_width(const char *s)
{
    size_t n = 0;
    for (; *s; s++)
        n += ((unsigned char)*s & 0xC0) != 0x80;
    return n;
}

/* "(in /usr/lib/librustc_driver-4c3beb7552356b6f.so)" -> "(in librustc_driver.so)";
 * "(/src/a/b.c:12)" -> "(b.c:12)". loc: from its '(' to its ')'. */
static char *short_location(const char *loc)
{
    vis_strbuf b = VIS_STRBUF_INIT;
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
    vis_sb_puts(&b, in ? "(in " : "(");
    for (size_t i = 0; i < bl; i++) {
        /* A build hash: '-' and 12 or more lowercase hex digits, up to a '.'
         * or the end ("libstd-a1b2c3d4e5f60718.so"); a version ("-14.so")
         * is shorter. */
        if (in && base[i] == '-') {
            size_t k = i + 1;
            while (k < bl && vis_hex_lower(base[k]))
                k++;
            if (k - i - 1 >= 12 && (k == bl || base[k] == '.')) {
                i = k - 1;
                continue;
            }
        }
        vis_sb_put(&b, base + i, 1);
    }
    vis_sb_puts(&b, ")");
    return vis_sb_done(&b);
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
        if (c == 'o' && !strncmp(s + i, "operator", 8) && (i == 0 || !vis_ident_char(s[i - 1])) &&
            !vis_ident_char(s[i + 8])) {
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
            int generic = i > 0 && (vis_ident_char(s[i - 1]) || (i > 1 && s[i - 1] == ':' && s[i - 2] == ':'));
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

/* How a character of class c changes the angle depth: an opening '<' of a
 * generic list or of a quoted name goes in, a closing '>' comes out. */
static int angle_step(char c)
{
    return c == 'g' || c == 'q' ? 1 : c == '>' ? -1 : 0;
}

/* The deepest nesting of angle groups in s. */
static int angle_depth(const char *s, const char *cls)
{
    int d = 0, max = 0;
    for (size_t i = 0; s[i]; i++) {
        d += angle_step(cls[i]);
        if (d > max)
            max = d;
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
    vis_strbuf b = VIS_STRBUF_INIT;
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
                vis_sb_put(&b, s + i, 1);
                vis_sb_puts(&b, ELLIPSIS);
                vis_sb_put(&b, s + e, 1);
                i = e;
                continue;
            }
        }
        d += angle_step(c);
        pd += c == '(' ? 1 : c == ')' ? -1 : 0;
        vis_sb_put(&b, s + i, 1);
    }
    free(cls);
    return vis_sb_done(&b);
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
    vis_strbuf b = VIS_STRBUF_INIT;
    if (n < (keep_head ? 3u : 2u)) {
        vis_sb_puts(&b, s);
        free(seg);
        return vis_sb_done(&b);
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
        vis_sb_put(&b, s, head_len);
        vis_sb_puts(&b, "::");
    }
    vis_sb_puts(&b, ELLIPSIS);
    vis_sb_puts(&b, "::");
    vis_sb_puts(&b, seg_from(s, seg, n - k));
    free(seg);
    return vis_sb_done(&b);
}

/* s without a C++ return type before its qualified name ("void std::vector<…>::f"
 * -> "std::vector<…>::f"): a space outside brackets in the first segment. */
static char *drop_return_type(const char *s)
{
    size_t *seg;
    size_t n = segments(s, &seg);
    char *cls = n ? classify(s) : NULL;
    vis_strbuf b = VIS_STRBUF_INIT;
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
    vis_sb_puts(&b, s + cut);
    free(cls);
    free(seg);
    return vis_sb_done(&b);
}

/* A path reduced to its last segment ("…::" before it when cut). */
static void last_segment(vis_strbuf *b, const char *s, size_t n)
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
        vis_sb_puts(b, p);
    else {
        vis_sb_puts(b, ELLIPSIS);
        vis_sb_puts(b, "::");
        vis_sb_puts(b, p + seg[k - 1]);
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
    vis_strbuf b = VIS_STRBUF_INIT;
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
            vis_sb_put(&b, "<", 1);
            last_segment(&b, s + i + 1, (as ? as : e) - i - 1);
            if (as) {
                vis_sb_puts(&b, " as ");
                if (drop_trait)
                    vis_sb_puts(&b, ELLIPSIS);
                else
                    last_segment(&b, s + as + 4, e - as - 4);
            }
            vis_sb_put(&b, ">", 1);
            i = e;
            continue;
        }
        if (c == 'g' || c == 'q')
            d++;
        else if (c == '>')
            d--;
        vis_sb_put(&b, s + i, 1);
    }
    free(cls);
    return vis_sb_done(&b);
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
    vis_strbuf b = VIS_STRBUF_INIT;
    int d = 0;
    for (size_t i = 0; s[i];) {
        char c = cls[i];
        if (c == 'g' || c == 'q')
            d++;
        else if (c == '>')
            d--;
        if (d > 0 && vis_ident_char(s[i]) && (i == 0 || !vis_ident_char(s[i - 1]))) {
            /* a path: ident ("::" ident)* */
            size_t j = i, last = i;
            for (;;) {
                while (vis_ident_char(s[j]))
                    j++;
                if (s[j] == ':' && s[j + 1] == ':' && vis_ident_char(s[j + 2])) {
                    last = j + 2;
                    j += 2;
                    continue;
                }
                break;
            }
            if (last > i) {
                vis_sb_puts(&b, ELLIPSIS);
                vis_sb_puts(&b, "::");
            }
            vis_sb_put(&b, s + last, j - last);
            i = j;
            continue;
        }
        vis_sb_put(&b, s + i, 1);
        i++;
    }
    free(cls);
    return vis_sb_done(&b);
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
            vis_strbuf b = VIS_STRBUF_INIT;
            vis_sb_puts(&b, ELLIPSIS);
            vis_sb_puts(&b, "::");
            vis_sb_puts(&b, s + seg[g]);
            free(seg);
            if (step(&s, vis_sb_done(&b)))
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

char *vis_name_shorten(const char *label, const char *addr_tag, size_t max_chars, size_t keep_small)
{
    char *full = vis_name_full(label);
    char *loc = NULL, *fn = NULL, *out = NULL;
    if (!full)
        return NULL;
    vis_label l = vis_label_parse(full);
    int called = l.caller && l.fn == full;
    if (l.loc) {
        if (!(loc = short_location(l.loc)))
            goto out;
        full[l.loc - full - 1] = '\0';
    }
    const char *body = called ? l.caller : full[0] ? full : "???";
    size_t fixed = (called ? sizeof VIS_LABEL_CALLED_BY - 1 : 0) + (addr_tag ? strlen(addr_tag) + 2 : 0) +
                   (loc ? vis_name_width(loc) + 1 : 0);
    size_t budget = max_chars > fixed ? max_chars - fixed : 0;
    if (!(fn = shorten_function(body, budget, keep_small)))
        goto out;
    vis_strbuf b = VIS_STRBUF_INIT;
    if (called) {
        vis_sb_puts(&b, "???");
        if (addr_tag) {
            vis_sb_puts(&b, " @");
            vis_sb_puts(&b, addr_tag);
        }
        vis_sb_puts(&b, " called by ");
        vis_sb_puts(&b, fn);
    } else {
        vis_sb_puts(&b, fn);
        if (addr_tag) {
            vis_sb_puts(&b, " @");
            vis_sb_puts(&b, addr_tag);
        }
    }
    if (loc) {
        vis_sb_puts(&b, " ");
        vis_sb_puts(&b, loc);
    }
    out = vis_sb_done(&b);
out:
    free(full);
    free(loc);
    free(fn);
    return out;
}

char *vis_name_short(const char *label, const char *addr_tag, size_t max_chars)
{
    return vis_name_shorten(label, addr_tag, max_chars, 0);
}

char *vis_name_short_args(const char *label, const char *addr_tag, size_t max_chars)
{
    return vis_name_shorten(label, addr_tag, max_chars, SIZE_MAX);
}
