/* flamegraph.c: the snapshot's tree as a self-contained interactive SVG
 * flamegraph in the manner of flamegraph.pl: the outermost callers at the
 * bottom, each caller's callees above it in name order, a frame's width
 * proportional to its bytes. Every frame is a <g> holding a <title> ("NAME —
 * SIZE (N bytes), P%"), a <rect> and a <text> cut to fit with "..". The
 * inline script (no network) shows a frame's title on hover, zooms to a frame
 * on click ("Reset Zoom" undoes it), and searches with a regular expression
 * ("Search", Ctrl-F or F3; "ic" toggles case), painting matches magenta and
 * showing the share of the heap they cover.
 *
 * Differential (a growth window, export.h): widths are the later moment's
 * bytes, as above; each frame's colour is the change of its bytes (the
 * frame with all it calls, matched by its path of names) since the earlier
 * moment: red grew, blue shrank, the deeper the more, relative to the
 * largest change; near white unchanged. The title adds "; grew SIZE (+N
 * bytes)", "; shrank SIZE (-N bytes)" or "; unchanged (0 bytes)". Frames
 * that held bytes only at the earlier moment have no width and are not
 * drawn (as in flamegraph.pl's differential graphs).
 *
 * Under --group-by the bottom row (above "all") is the groups, one tower
 * each (stack_groups.h), in their own colour; the subtitle says which
 * grouping.
 *
 * Names are data: XML-escaped (& < > " '), and a control character or a
 * byte that is not valid UTF-8 is shown as \xNN, so the SVG always parses.
 * Frames narrower than 0.1 px are left out (the subtitle says how many), as
 * flamegraph.pl does, to keep the file small; the bytes are in their
 * parents' widths all the same. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "base/units.h"
#include "base/utf8.h"
#include "model/export.h"
#include "model/groups.h"
#include "model/stack_groups.h"

#define FG_WIDTH 1200.0
#define FG_PAD 10.0
#define FG_FRAME_H 16
#define FG_TOP 70          /* first frame row's top, below the header */
#define FG_BOTTOM 34       /* room for the details line */
#define FG_CHAR_W 7.0      /* average width of a 12 px sans-serif character */
#define FG_MIN_W 0.1

/* ------------------------------------------------------------ text */

/* Writes at most max_chars characters of s (SIZE_MAX: all) as XML text,
 * ".." in place of the rest. Control characters and invalid bytes count as
 * the four characters of their \xNN. */
static void put_text(FILE *out, const char *str, size_t max_chars)
{
    const unsigned char *s = (const unsigned char *)str;
    size_t n = strlen(str), shown = 0;
    /* Characters in the whole rendering, to know whether it must be cut. */
    size_t total = 0;
    for (size_t i = 0; i < n;) {
        size_t l = vis_utf8_len(s + i, n - i);
        total += l == 0 || s[i] < 0x20 || s[i] == 0x7f ? 4 : 1;
        i += l ? l : 1;
    }
    size_t limit = total <= max_chars ? total : (max_chars >= 2 ? max_chars - 2 : 0);
    for (size_t i = 0; i < n;) {
        size_t l = vis_utf8_len(s + i, n - i);
        int hex = l == 0 || s[i] < 0x20 || s[i] == 0x7f;
        if (shown + (hex ? 4 : 1) > limit)
            break;
        if (hex)
            fprintf(out, "\\x%02X", s[i]);
        else if (s[i] == '&')
            fputs("&amp;", out);
        else if (s[i] == '<')
            fputs("&lt;", out);
        else if (s[i] == '>')
            fputs("&gt;", out);
        else if (s[i] == '"')
            fputs("&quot;", out);
        else if (s[i] == '\'')
            fputs("&#39;", out);
        else
            fwrite(s + i, 1, l, out);
        shown += hex ? 4 : 1;
        i += l ? l : 1;
    }
    if (limit < total)
        fputs("..", out);
}

/* ------------------------------------------------------------ colours */

static uint64_t name_hash(const char *s)
{
    uint64_t h = 1469598103934665603ULL;
    for (; *s; s++) {
        h ^= (unsigned char)*s;
        h *= 1099511628211ULL;
    }
    return h;
}

/* Light fills, so black text stays readable: oranges for groups (the
 * bottom row under --group-by), greens for frames with a
 * source line (the program's code), blues for frames known only by their
 * object file, greys for Massif's merged "in N places" lines, unknown
 * frames and the root. The same function always gets the same colour. */
static void frame_fill(char *buf, size_t n, const vis_frame *f)
{
    uint64_t h = name_hash(f ? f->function : "");
    unsigned a = (unsigned)(h % 40), b = (unsigned)((h >> 8) % 40), c = (unsigned)((h >> 16) % 30);
    if (!f)
        snprintf(buf, n, "rgb(214,214,214)");
    else if (f->is_group)
        snprintf(buf, n, "rgb(%u,%u,%u)", 225 + c / 2, 175 + a, 110 + b);
    else if (f->below_threshold)
        snprintf(buf, n, "rgb(%u,%u,%u)", 190 + c, 190 + c, 190 + c);
    else if (f->line > 0)
        snprintf(buf, n, "rgb(%u,%u,%u)", 110 + a, 190 + b, 90 + c);
    else if (f->file[0])
        snprintf(buf, n, "rgb(%u,%u,%u)", 120 + a, 170 + b, 215 + c / 2);
    else
        snprintf(buf, n, "rgb(%u,%u,%u)", 200 + c, 190 + c, 170 + c);
}

/* Differential colour: white-ish to red (grew) or blue (shrank) with the
 * size of the change relative to the largest. */
static void diff_fill(char *buf, size_t n, uint64_t now, uint64_t was, uint64_t max_change)
{
    uint64_t change = now > was ? now - was : was - now;
    if (change == 0 || max_change == 0) {
        snprintf(buf, n, "rgb(242,242,242)");
        return;
    }
    /* 230 for the smallest change down to 110 for the largest: black text
     * stays readable on the deepest red and blue. */
    unsigned v = 230 - (unsigned)(120.0 * (double)change / (double)max_change);
    if (now > was)
        snprintf(buf, n, "rgb(255,%u,%u)", v, v);
    else
        snprintf(buf, n, "rgb(%u,%u,255)", v, v);
}

/* For each node of s's flame tree, the bytes of the node at the same path
 * of names in base's (0 where base has none, or base is NULL). */
static uint64_t *earlier_bytes(const vis_stacks *s, const vis_stacks *base)
{
    uint64_t *was = calloc(s->n_flame, sizeof *was);
    size_t *match = malloc(s->n_flame * sizeof *match);
    if (!was || !match) {
        free(was);
        free(match);
        return NULL;
    }
    match[0] = base ? 0 : SIZE_MAX;
    was[0] = base ? base->flame[0].total : 0;
    /* Parents come before children in the node array. */
    for (size_t i = 1; i < s->n_flame; i++) {
        size_t bp = match[s->flame[i].parent];
        match[i] = SIZE_MAX;
        if (bp == SIZE_MAX)
            continue;
        const char *name = s->names[s->flame[i].name_id];
        for (size_t c = base->flame[bp].first_child; c != SIZE_MAX; c = base->flame[c].next_sibling) {
            int cmp = strcmp(base->names[base->flame[c].name_id], name);
            if (cmp == 0) {
                match[i] = c;
                was[i] = base->flame[c].total;
            }
            if (cmp >= 0)   /* siblings are in name order */
                break;
        }
    }
    free(match);
    return was;
}

/* ------------------------------------------------------------ script */

/* The interaction, in plain ECMAScript 5 so any SVG viewer with scripting
 * runs it. Frames keep their drawn geometry in o* properties, set once. */
static const char script[] =
"var W = 1200, PAD = 10, CW = 7, frames, details, matchedtext, unzoombtn, searchbtn, icbtn;\n"
"var total_w, zoomed = null, search_re = null, ignorecase = false;\n"
"function init(evt) {\n"
"  details = document.getElementById('details').firstChild;\n"
"  matchedtext = document.getElementById('matched');\n"
"  unzoombtn = document.getElementById('unzoom');\n"
"  searchbtn = document.getElementById('search');\n"
"  icbtn = document.getElementById('ignorecase');\n"
"  frames = [];\n"
"  var gs = document.getElementById('frames').getElementsByTagName('g');\n"
"  for (var i = 0; i < gs.length; i++) {\n"
"    var g = gs[i], r = g.getElementsByTagName('rect')[0];\n"
"    var t = g.getElementsByTagName('title')[0].textContent;\n"
"    var cut = t.lastIndexOf(' \\u2014 ');\n"
"    g.fname = cut >= 0 ? t.substring(0, cut) : t;\n"
"    g.ftitle = t;\n"
"    g.ox = parseFloat(r.getAttribute('x'));\n"
"    g.ow = parseFloat(r.getAttribute('width'));\n"
"    g.oy = parseFloat(r.getAttribute('y'));\n"
"    g.ofill = r.getAttribute('fill');\n"
"    g.onmouseover = function () { details.nodeValue = this.ftitle; };\n"
"    g.onmouseout = function () { details.nodeValue = ' '; };\n"
"    g.onclick = function () { zoom(this); };\n"
"    frames.push(g);\n"
"  }\n"
"  total_w = frames.length ? frames[0].ow : W - 2 * PAD;\n"
"  unzoombtn.onclick = unzoom;\n"
"  searchbtn.onclick = function () { if (search_re) reset_search(); else search_prompt(); };\n"
"  icbtn.onclick = function () {\n"
"    ignorecase = !ignorecase;\n"
"    icbtn.setAttribute('class', ignorecase ? 'button on' : 'button');\n"
"    if (search_re) search(search_re.source); else keep_state();\n"
"  };\n"
"  window.addEventListener('keydown', function (e) {\n"
"    if (e.keyCode === 114 || ((e.ctrlKey || e.metaKey) && e.keyCode === 70)) {\n"
"      e.preventDefault(); search_prompt();\n"
"    } else if ((e.ctrlKey || e.metaKey) && e.keyCode === 73) {\n"
"      e.preventDefault(); icbtn.onclick();\n"
"    } else if (e.keyCode === 27) {\n"
"      reset_search(); unzoom();\n"
"    }\n"
"  }, false);\n"
"  /* A shared link keeps its view: ?z=N zooms to the Nth frame, ?s=RE\n"
"     searches, ?i=1 ignores case. */\n"
"  var q = location.search.substring(1).split('&'), params = {};\n"
"  for (var k = 0; k < q.length; k++) {\n"
"    var eq = q[k].indexOf('=');\n"
"    if (eq > 0) try {\n"
"      params[q[k].substring(0, eq)] = decodeURIComponent(q[k].substring(eq + 1).replace(/[+]/g, ' '));\n"
"    } catch (e) {}\n"
"  }\n"
"  if (params.i === '1') icbtn.onclick();\n"
"  if (params.z !== undefined && frames[+params.z]) zoom(frames[+params.z]);\n"
"  if (params.s) search(params.s);\n"
"}\n"
"function keep_state() {\n"
"  var q = [];\n"
"  if (zoomed) q.push('z=' + frames.indexOf(zoomed));\n"
"  if (search_re) q.push('s=' + encodeURIComponent(search_re.source));\n"
"  if (ignorecase) q.push('i=1');\n"
"  try { history.replaceState(null, '', location.pathname + (q.length ? '?' + q.join('&') : '')); }\n"
"  catch (e) {}\n"
"}\n"
"function fit(g, w) {\n"
"  var t = g.getElementsByTagName('text')[0], n = Math.floor((w - 6) / CW), s = g.fname;\n"
"  if (n < 3) s = ''; else if (s.length > n) s = s.substring(0, n - 2) + '..';\n"
"  t.textContent = s;\n"
"}\n"
"function place(g, x, w, hidden, dim) {\n"
"  var r = g.getElementsByTagName('rect')[0], t = g.getElementsByTagName('text')[0];\n"
"  g.style.display = hidden ? 'none' : '';\n"
"  if (hidden) return;\n"
"  r.setAttribute('x', x.toFixed(2)); r.setAttribute('width', w.toFixed(2));\n"
"  t.setAttribute('x', (x + 3).toFixed(2));\n"
"  g.style.opacity = dim ? '0.55' : '';\n"
"  fit(g, w);\n"
"}\n"
"function zoom(node) {\n"
"  if (node.ow >= total_w - 0.001) { unzoom(); return; }\n"
"  zoomed = node;\n"
"  unzoombtn.setAttribute('class', 'button');\n"
"  var scale = total_w / node.ow, eps = 0.0001;\n"
"  for (var i = 0; i < frames.length; i++) {\n"
"    var f = frames[i];\n"
"    if (f.oy > node.oy) {\n"
"      var anc = f.ox <= node.ox + eps && f.ox + f.ow >= node.ox + node.ow - eps;\n"
"      place(f, PAD, total_w, !anc, true);\n"
"    } else {\n"
"      var inside = f.ox >= node.ox - eps && f.ox + f.ow <= node.ox + node.ow + eps;\n"
"      place(f, PAD + (f.ox - node.ox) * scale, f.ow * scale, !inside, false);\n"
"    }\n"
"  }\n"
"  keep_state();\n"
"}\n"
"function unzoom() {\n"
"  zoomed = null;\n"
"  unzoombtn.setAttribute('class', 'button hide');\n"
"  for (var i = 0; i < frames.length; i++)\n"
"    place(frames[i], frames[i].ox, frames[i].ow, false, false);\n"
"  keep_state();\n"
"}\n"
"function search_prompt() {\n"
"  var term = prompt('Search frames for (a regular expression' +\n"
"                    (ignorecase ? ', ignoring case' : '') + '):', search_re ? search_re.source : '');\n"
"  if (term !== null && term !== '') search(term);\n"
"}\n"
"function reset_search() {\n"
"  search_re = null;\n"
"  for (var i = 0; i < frames.length; i++)\n"
"    frames[i].getElementsByTagName('rect')[0].setAttribute('fill', frames[i].ofill);\n"
"  matchedtext.textContent = ' ';\n"
"  searchbtn.textContent = 'Search';\n"
"  keep_state();\n"
"}\n"
"function search(term) {\n"
"  var re;\n"
"  try { re = new RegExp(term, ignorecase ? 'i' : ''); }\n"
"  catch (e) { matchedtext.textContent = 'Bad expression: ' + e.message; return; }\n"
"  reset_search();\n"
"  search_re = re;\n"
"  var spans = [];\n"
"  for (var i = 0; i < frames.length; i++) {\n"
"    var f = frames[i];\n"
"    if (!re.test(f.fname)) continue;\n"
"    f.getElementsByTagName('rect')[0].setAttribute('fill', 'rgb(230,0,230)');\n"
"    spans.push([f.ox, f.ox + f.ow]);\n"
"  }\n"
"  /* The share of the heap under a match, each byte counted once. */\n"
"  spans.sort(function (a, b) { return a[0] - b[0]; });\n"
"  var covered = 0, end = -1;\n"
"  for (var k = 0; k < spans.length; k++) {\n"
"    var a = Math.max(spans[k][0], end), b = spans[k][1];\n"
"    if (b > a) { covered += b - a; end = b; }\n"
"  }\n"
"  var pct = total_w > 0 ? 100 * covered / total_w : 0;\n"
"  matchedtext.textContent = 'Matched: ' + pct.toFixed(1) + '%';\n"
"  searchbtn.textContent = 'Reset Search';\n"
"  keep_state();\n"
"}\n";

/* ------------------------------------------------------------ writer */

int vis_flamegraph_write(FILE *out, const vis_export *e, char *err, size_t errsz)
{
    const vis_stacks *s = e->s;
    const vis_profile *p = e->p;
    uint64_t *off = calloc(s->n_flame, sizeof *off);
    /* A frame standing for each name, for its colour and kind. */
    const vis_frame **by_name = calloc(s->n_names ? s->n_names : 1, sizeof *by_name);
    if (!off || !by_name) {
        free(off);
        free(by_name);
        snprintf(err, errsz, "%s: out of memory", p->path);
        return -1;
    }
    for (size_t i = 0; i < s->n_frames; i++)
        if (!by_name[s->frames[i].name_id])
            by_name[s->frames[i].name_id] = &s->frames[i];
    uint64_t *was = NULL, max_change = 0;
    if (e->diff) {
        if (!(was = earlier_bytes(s, e->base))) {
            free(off);
            free(by_name);
            snprintf(err, errsz, "%s: out of memory", p->path);
            return -1;
        }
        for (size_t i = 0; i < s->n_flame; i++) {
            uint64_t now = s->flame[i].total;
            uint64_t change = now > was[i] ? now - was[i] : was[i] - now;
            if (change > max_change)
                max_change = change;
        }
    }

    const double inner = FG_WIDTH - 2 * FG_PAD;
    const double scale = s->total ? inner / (double)s->total : 0;
    /* Offsets in bytes from the left, children laid out in name order. */
    size_t omitted = 0, rows = s->flame_depth + 1;
    for (size_t i = 0; i < s->n_flame; i++) {
        uint64_t acc = off[i];
        for (size_t c = s->flame[i].first_child; c != SIZE_MAX; c = s->flame[c].next_sibling) {
            off[c] = acc;
            acc += s->flame[c].total;
        }
        if (i > 0 && (double)s->flame[i].total * scale < FG_MIN_W)
            omitted++;
    }
    /* Children come after their parents in the node array (made while
     * walking stacks outward), so one pass in index order set every offset. */
    int height = FG_TOP + (int)rows * FG_FRAME_H + FG_BOTTOM;
    double bottom = FG_TOP + (double)rows * FG_FRAME_H;

    fprintf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            "<svg version=\"1.1\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
            "onload=\"init(evt)\" xmlns=\"http://www.w3.org/2000/svg\">\n",
            (int)FG_WIDTH, height, (int)FG_WIDTH, height);
    fputs("<!-- memtime-vis flamegraph: widths are bytes of the heap; see memtime-vis(1) -->\n"
          "<style type=\"text/css\">\n"
          "text { font-family: 'DejaVu Sans', Verdana, sans-serif; font-size: 12px; fill: rgb(0,0,0); }\n"
          "#title { font-size: 17px; font-weight: bold; }\n"
          "#frames > g { cursor: pointer; }\n"
          "#frames > g:hover > rect { stroke: rgb(0,0,0); stroke-width: 0.5; }\n"
          ".button { cursor: pointer; fill: rgb(30,60,160); }\n"
          ".button.on { font-weight: bold; }\n"
          ".hide { display: none; }\n"
          "</style>\n<script type=\"text/ecmascript\"><![CDATA[\n", out);
    fputs(script, out);
    fputs("]]></script>\n", out);
    fprintf(out, "<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"rgb(248,248,244)\"/>\n",
            (int)FG_WIDTH, height);
    fputs("<text id=\"title\" x=\"600\" y=\"24\" text-anchor=\"middle\">Heap flamegraph: ", out);
    put_text(out, p->cmd ? p->cmd : "", 110);
    fputs("</text>\n<text id=\"subtitle\" x=\"600\" y=\"44\" text-anchor=\"middle\">", out);
    put_text(out, e->moment, SIZE_MAX);
    if (e->diff) {
        fputs("; colour: change since ", out);
        put_text(out, e->base_moment, SIZE_MAX);
        fputs(" (red grew, blue shrank)", out);
    }
    if (vis_stacks_grouped(p))
        fprintf(out, "; grouped by %s", vis_group_by_name(p->grouping.by));
    if (omitted)
        fprintf(out, "; %zu frame%s narrower than 0.1 px left out", omitted,
                omitted == 1 ? "" : "s");
    fputs("</text>\n", out);
    fprintf(out, "<text id=\"unzoom\" class=\"button hide\" x=\"%.0f\" y=\"62\">Reset Zoom</text>\n"
            "<text id=\"search\" class=\"button\" x=\"%.0f\" y=\"62\" text-anchor=\"end\">Search</text>\n"
            "<text id=\"ignorecase\" class=\"button\" x=\"%.0f\" y=\"62\" text-anchor=\"end\">ic</text>\n"
            "<text id=\"details\" x=\"%.0f\" y=\"%d\"> </text>\n"
            "<text id=\"matched\" x=\"%.0f\" y=\"%d\" text-anchor=\"end\"> </text>\n",
            FG_PAD, FG_WIDTH - FG_PAD - 30, FG_WIDTH - FG_PAD, FG_PAD, height - 12,
            FG_WIDTH - FG_PAD, height - 12);

    fputs("<g id=\"frames\">\n", out);
    char fill[32], size[64], num[32];
    for (size_t i = 0; i < s->n_flame; i++) {
        const vis_flame_node *n = &s->flame[i];
        double w = s->total ? (double)n->total * scale : inner;
        if (i > 0 && w < FG_MIN_W)
            continue;
        double x = FG_PAD + (double)off[i] * scale;
        double y = bottom - (double)(n->depth + 1) * FG_FRAME_H;
        const vis_frame *f = i ? by_name[n->name_id] : NULL;
        const char *name = i ? s->names[n->name_id] : "all";
        double pct = s->total ? 100.0 * (double)n->total / (double)s->total : 100.0;
        if (e->diff)
            diff_fill(fill, sizeof fill, n->total, was[i], max_change);
        else
            frame_fill(fill, sizeof fill, f);
        fputs("<g><title>", out);
        put_text(out, name, SIZE_MAX);
        fprintf(out, " \xE2\x80\x94 %s (%s bytes), %.2f%%",
                vis_fmt_bytes(size, sizeof size, n->total), vis_fmt_grouped(num, n->total), pct);
        if (e->diff) {
            uint64_t change = n->total > was[i] ? n->total - was[i] : was[i] - n->total;
            fprintf(out, change == 0 ? "; unchanged (0 bytes)" : "; %s %s (%c%s bytes)",
                    n->total > was[i] ? "grew" : "shrank", vis_fmt_bytes(size, sizeof size, change),
                    n->total > was[i] ? '+' : '-', vis_fmt_grouped(num, change));
        }
        fputs("</title>", out);
        fprintf(out, "<rect x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"%d\" fill=\"%s\" "
                "rx=\"2\" ry=\"2\"/>", x, y, w, FG_FRAME_H - 1, fill);
        fprintf(out, "<text x=\"%.2f\" y=\"%.1f\">", x + 3, y + 11.5);
        double chars = (w - 6) / FG_CHAR_W;
        if (chars >= 3)
            put_text(out, name, (size_t)chars);
        fputs("</text></g>\n", out);
    }
    fputs("</g>\n</svg>\n", out);
    free(off);
    free(by_name);
    free(was);
    return 0;
}
