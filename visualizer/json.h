/* json.h: memtime-vis's JSON output (--json): one document with the
 * summary's facts and issue 9's analyses, keys documented in
 * docs/memtime-vis.1 (JSON OUTPUT). Reusable: the same writer serves any
 * report that embeds the document (an HTML page's <script>), so strings
 * are escaped for both JSON and HTML script context: '<', '>', '&', U+2028,
 * U+2029 as \u escapes, control characters escaped, bytes that are not
 * UTF-8 as U+FFFD. */
#ifndef VIS_JSON_H
#define VIS_JSON_H

#include <stdio.h>
#include <stdint.h>
#include "growth.h"
#include "profile.h"

/* A JSON string (with its quotes). */
void vis_json_string(FILE *out, const char *s);
/* A number; non-finite values as null. */
void vis_json_double(FILE *out, double v);

/* The whole document for p, the growth ranking over g's window. Returns 0,
 * or -1 when out of memory. Write errors show in ferror(out). */
int vis_json_profile(FILE *out, const vis_profile *p, const vis_growth *g);

#endif
