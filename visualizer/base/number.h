/* number.h: the one reading of a decimal number in memtime-vis's inputs
 * (the Massif file, the companion, a WHEN on the command line), inline
 * because the Massif reader's tree loop calls it for every node. */
#ifndef VIS_NUMBER_H
#define VIS_NUMBER_H

#include <stdint.h>

/* Parses a decimal number at *s (no sign, no blanks), advancing *s past it.
 * Returns 0, or -1 if there is no digit or the value overflows 64 bits. */
static inline int vis_parse_u64(const char **s, uint64_t *out)
{
    const char *p = *s;
    uint64_t v = 0;
    if (*p < '0' || *p > '9')
        return -1;
    for (; *p >= '0' && *p <= '9'; p++) {
        unsigned d = (unsigned)(*p - '0');
        /* v * 10 + d overflows iff v > (UINT64_MAX - d) / 10; UINT64_MAX
         * is 1844674407370955161 * 10 + 5, so compare without dividing. */
        if (v >= UINT64_MAX / 10 && (v > UINT64_MAX / 10 || d > UINT64_MAX % 10))
            return -1;
        v = v * 10 + d;
    }
    *s = p;
    *out = v;
    return 0;
}

#endif
