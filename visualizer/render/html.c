/* html.c: the report page's frame (html.h). Everything the page shows comes
 * from the JSON document (json.c, escaped for a <script> element: no '<',
 * '>', '&', U+2028/9 reaches the page raw), so no name from the profile is
 * ever written here as markup; the script inserts names as text. The page
 * forbids every network request by its Content-Security-Policy. */
#include <stdio.h>
#include "html_assets.h"
#include "render/html.h"

int vis_html_write(FILE *out, const vis_profile *p, const vis_analysis *an,
                   const vis_chart_data *d, FILE *in,
                   const vis_json_report_opts *o, char *err, size_t errsz)
{
    fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
          "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
          "style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:\">\n"
          "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
          "<meta name=\"color-scheme\" content=\"light dark\">\n"
          "<title>memtime report</title>\n<style>\n", out);
    fputs(vis_html_css, out);
    fputs("</style>\n</head>\n<body>\n<noscript><p>This memtime report draws itself with "
          "JavaScript; enable it to see the timeline.</p></noscript>\n"
          "<main id=\"app\"></main>\n<script id=\"memtime-data\" type=\"application/json\">\n",
          out);
    if (vis_json_report(out, p, an, d, in, o, err, errsz) != 0)
        return -1;
    fputs("</script>\n<script>\n", out);
    fputs(vis_html_js, out);
    fputs("</script>\n</body>\n</html>\n", out);
    return 0;
}
