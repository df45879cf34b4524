/* full_name.c: a site's full name (full_name.h): the label without its
 * address, with Rust's symbol hashes dropped, whether the demangler left
 * them as suffixes, as whole legacy mangled names or as v0 disambiguators. */
#include <stdlib.h>
#include <string.h>
#include "base/strbuf.h"
#include "model/full_name.h"
#include "model/label.h"

/* One identifier of a legacy mangled name, its $-escapes decoded. */
static void legacy_ident(vis_strbuf *b, const char *s, size_t n)
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
            vis_sb_put(b, "::", 2);
            i += 2;
            continue;
        }
        size_t k = 0, ne = sizeof esc / sizeof esc[0];
        for (; k < ne; k++) {
            size_t l = strlen(esc[k].esc);
            if (l <= n - i && !strncmp(s + i, esc[k].esc, l)) {
                vis_sb_put(b, &esc[k].c, 1);
                i += l;
                break;
            }
        }
        if (k == ne)
            vis_sb_put(b, s + i++, 1);
    }
}

/* A legacy Rust mangled name at s ("_ZN4core3ptr13drop_in_place17h0123456789abcdefE",
 * maybe with ".llvm.1234" after) demangled without its hash into b.
 * Returns the bytes of s it stands for, 0 if s is not one. */
static size_t legacy_demangle(vis_strbuf *b, const char *s)
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
                hash &= vis_hex_lower(p[i]);
            if (hash) {
                p += len;
                break;
            }
        }
        if (!first)
            vis_sb_put(b, "::", 2);
        legacy_ident(b, p, len);
        first = 0;
        p += len;
    }
    if (!hash)
        goto not_one;
    p++;   /* 'E' */
    if (!strncmp(p, ".llvm.", 6)) {
        p += 6;
        while (vis_ident_char(*p))
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
    vis_strbuf b = VIS_STRBUF_INIT;
    size_t n = strlen(s);
    for (size_t i = 0; i < n;) {
        int word_start = i == 0 || !vis_ident_char(s[i - 1]);
        if (word_start && s[i] == '_') {
            size_t used = legacy_demangle(&b, s + i);
            if (used) {
                i += used;
                continue;
            }
        }
        if (s[i] == ':' && s[i + 1] == ':' && s[i + 2] == 'h' && i + 19 <= n && !vis_ident_char(s[i + 19])) {
            size_t k = 3;
            while (k < 19 && vis_hex_lower(s[i + k]))
                k++;
            if (k == 19) {
                i += 19;
                continue;
            }
        }
        if (s[i] == '[' && i > 0 && vis_ident_char(s[i - 1])) {
            size_t k = 1;
            while (vis_hex_lower(s[i + k]))
                k++;
            if (s[i + k] == ']' && k - 1 >= 5 && k - 1 <= 16) {
                i += k + 1;
                continue;
            }
        }
        vis_sb_put(&b, s + i, 1);
        i++;
    }
    return vis_sb_done(&b);
}

char *vis_name_full(const char *label)
{
    return drop_rust_hashes(vis_label_bare(label));
}

/* ---- the parts of a name --------------------------------------------------- */

