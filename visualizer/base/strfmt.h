/* strfmt.h: a string formatted into newly allocated memory (C99 has no
 * asprintf). */
#ifndef VIS_STRFMT_H
#define VIS_STRFMT_H

/* printf's format and arguments, into a malloc'd string; NULL when out of
 * memory. */
char *vis_strfmt(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

#endif
