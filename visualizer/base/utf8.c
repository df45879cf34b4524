/* utf8.c: validating and decoding UTF-8 (utf8.h). */
#include "base/utf8.h"

size_t vis_utf8_len(const unsigned char *s, size_t n)
{
    size_t len = s[0] < 0x80 ? 1 : (s[0] & 0xE0) == 0xC0 ? 2 : (s[0] & 0xF0) == 0xE0 ? 3
               : (s[0] & 0xF8) == 0xF0 ? 4 : 0;
    if (len == 0 || len > n)
        return 0;
    for (size_t k = 1; k < len; k++)
        if ((s[k] & 0xC0) != 0x80)
            return 0;
    if (len == 2 && s[0] < 0xC2)
        return 0;                                               /* overlong */
    if (len == 3) {
        unsigned cp = (s[0] & 0x0Fu) << 12 | (s[1] & 0x3Fu) << 6 | (s[2] & 0x3Fu);
        if (cp < 0x800 || (cp >= 0xD800 && cp <= 0xDFFF))       /* overlong, surrogate */
            return 0;
    }
    if (len == 4) {
        /* The first two bytes decide both bounds: 0x10000 and 0x110000
         * are multiples of 2^12. */
        unsigned cp = (s[0] & 0x07u) << 18 | (s[1] & 0x3Fu) << 12;
        if (cp < 0x10000 || cp > 0x10FFFF)
            return 0;
    }
    return len;
}

unsigned long vis_utf8_next(const char **s)
{
    const unsigned char *p = (const unsigned char *)*s;
    unsigned long cp;
    int n;
    if (p[0] < 0x80) { cp = p[0]; n = 0; }
    else if ((p[0] & 0xE0) == 0xC0) { cp = p[0] & 0x1F; n = 1; }
    else if ((p[0] & 0xF0) == 0xE0) { cp = p[0] & 0x0F; n = 2; }
    else if ((p[0] & 0xF8) == 0xF0) { cp = p[0] & 0x07; n = 3; }
    else { *s += 1; return 0xFFFD; }
    for (int i = 1; i <= n; i++) {
        if ((p[i] & 0xC0) != 0x80) {
            *s += i;
            return 0xFFFD;
        }
        cp = cp << 6 | (p[i] & 0x3F);
    }
    *s += n + 1;
    return cp;
}
