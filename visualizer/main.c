/* main.c: the memtime-vis command line, on top of the stages
 * (visualizer/README.md): read/ parses the Massif file and memtime's
 * companion, model/ is the checked profile and the analyses computed from
 * it, render/ has one writer per output, base/ serves them all. This file
 * parses the command line (one table for every subcommand and option),
 * reads the inputs, asks the model for the analyses and hands the results
 * to the writers. It is the only place that prints to stdout or stderr and
 * exits; the exit statuses are exit_status.h's.
 *
 * Every output file goes through vis_out_write (base/outfile.h): written
 * under a temporary name beside the target and renamed, so a failure
 * leaves no partial output behind. A failure anywhere returns up to main()
 * with its message and status (fail, usage_fail); main frees what the run
 * holds (one run struct) and exits. */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>
#include "base/outfile.h"
#include "base/units.h"
#include "exit_status.h"
#include "model/analysis.h"
#include "model/chart_data.h"
#include "model/diff.h"
#include "model/export.h"
#include "model/processes.h"
#include "model/profile.h"
#include "model/when.h"
#include "read/companion.h"
#include "read/massif.h"
#include "render/chart.h"
#include "render/csv.h"
#include "render/diff_chart.h"
#include "render/diff_text.h"
#include "render/growth_text.h"
#include "render/html.h"
#include "render/json.h"
#include "render/processes_chart.h"
#include "render/processes_text.h"
#include "render/report.h"
#include "render/summary.h"

#define PROG "memtime-vis"
#define VIS_STR_(x) #x
#define VIS_STR(x) VIS_STR_(x)

static const char usage_text[] =
    "usage: " PROG " [options] FILE\n"
    "       " PROG " diff [--at=WHEN] [--json] [--top=N] [--flamegraph=SVG]\n"
    "                  [-o DIFF.png [--align=MARK]] OLD NEW\n"
    "       " PROG " check [--max-peak=SIZE] [--baseline=OLD --max-increase=PCT\n"
    "                   [--allow=SIZE]] FILE\n"
    "       " PROG " [-o IMG.png] FILE FILE... | DIRECTORY\n"
    "Reads a Massif-format profile (memtime's or Massif's) and writes a timeline\n"
    "chart and text reports. Without -o or --gnuplot, prints the text report.\n"
    "Given several profiles (one per process) or a directory of them, prints one\n"
    "line per process, and -o IMG.png draws them all on one time axis.\n"
    "\n"
    "  -o, --output=FILE     write the chart: .png (built in), .svg or .pdf (gnuplot),\n"
    "                        its series as .csv, or an interactive report as .html\n"
    "      --gnuplot=SCRIPT  write a self-contained gnuplot script with its data\n"
    "      --flamegraph=SVG  write one snapshot's tree as an interactive flamegraph\n"
    "      --collapsed=TXT   write it as folded stacks (flamegraph.pl, speedscope)\n"
    "      --pprof=PB_GZ     write it as a gzipped pprof profile (go tool pprof)\n"
    "      --snapshot=WHEN   the snapshot exported: #N, peak, end, a time (1.5s), a mark\n"
    "                        [peak]; the last detailed one at or before it\n"
    "      --report=TXT      write the text report to TXT ('-' for stdout)\n"
    "      --summary-only    text report: only the summary\n"
    "      --ms-print-only   text report: only the ms_print-compatible part\n"
    "      --threshold=P     ms_print tree threshold in percent, 0..100 [1.0]\n"
    "      --x=N, --y=N      ms_print graph columns, rows, 4..1000 [72, 20]\n"
    "      --top=N           allocation sites shown separately, " VIS_STR(VIS_TOP_MIN) ".." VIS_STR(VIS_TOP_MAX) " [8]\n"
    "      --growth          print the sites ranked by growth (steady growers first);\n"
    "                        with -o, mark the steady growers on the chart\n"
    "      --from=WHEN, --to=WHEN  the growth window [whole run]: 250ms, 1.5s, 2min,\n"
    "                        3h, a number in the file's unit, #SNAPSHOT, peak, end,\n"
    "                        or a phase mark's label\n"
    "      --json            print one JSON document instead of the text report\n"
    "      --width=N, --height=N  chart size in pixels, 320..8000 x 240..8000 [1600x900]\n"
    "      --companion=FILE  memtime companion file [FILE.memtime if present]\n"
    "      --no-companion    do not read a companion file\n"
    "  -h, --help            show this help\n"
    "      --version         show the version\n";

/* ------------------------------------------------------------- the run */

/* Everything a run holds, freed in one place (run_free) whatever way it
 * ends, and its outcome: the message main prints and the status it exits
 * with. */
typedef struct {
    vis_profile *profile;      /* FILE; diff's OLD; check's FILE */
    vis_profile *profile2;     /* diff's NEW; check's baseline */
    FILE *input;               /* the profile, kept open: the report may walk its trees */
    vis_report_body *body;     /* the ms_print report's table and trees, from pass 1 */
    vis_analysis analysis;     /* over --from..--to, computed once */
    vis_diff diff;
    vis_procs *procs;          /* several profiles */
    vis_export export;         /* the snapshot the exports show */
    char msg[2048];            /* why the run failed */
    int usage;                 /* ... and whether to point at --help */
} run;

static void run_free(run *r)
{
    vis_analysis_free(&r->analysis);
    vis_diff_free(&r->diff);
    vis_profile_free(r->profile);
    vis_profile_free(r->profile2);
    vis_procs_free(r->procs);
    vis_report_body_free(r->body);
    vis_export_free(&r->export);
    if (r->input)
        fclose(r->input);
}

/* Records why the run failed; returns status for the caller to return. */
static int fail(run *r, int status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->msg, sizeof r->msg, fmt, ap);
    va_end(ap);
    return status;
}

/* A usage error: the message is followed by a pointer to --help. */
static int usage_fail(run *r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->msg, sizeof r->msg, fmt, ap);
    va_end(ap);
    r->usage = 1;
    return VIS_EXIT_USAGE;
}

/* Flushes and closes stdout, the last output every run checks. */
static int close_stdout(run *r)
{
    if (fflush(stdout) != 0 || ferror(stdout) || fclose(stdout) != 0)
        return fail(r, VIS_EXIT_DATA, "stdout: write error: %s", strerror(errno ? errno : EIO));
    return VIS_EXIT_OK;
}

/* --------------------------------------------------------- command line */

typedef enum { CMD_SHOW = 1, CMD_DIFF = 2, CMD_CHECK = 4 } command;

typedef struct {
    command cmd;
    const char **inputs;       /* every FILE given, n_inputs of them */
    int n_inputs;
    const char *image, *gnuplot, *report, *companion;
    const char *flamegraph, *collapsed, *pprof, *snapshot, *from, *to;
    int no_companion, summary_only, ms_print_only, json, growth;
    int top;                   /* --top of the main command */
    vis_report_opts rep;
    vis_chart_opts chart;
    char *ms_print_args;       /* " --threshold=2 FILE", as ms_print echoes */
    const char *at, *align;    /* diff */
    int diff_top;              /* diff's --top; 0: every site */
    const char *baseline;      /* check */
    vis_check_limits lim;
    unsigned char given[64];   /* by opts[] row: the option was given */
} options;

typedef enum {
    OPT_FLAG,                  /* sets an int to 1 */
    OPT_TEXT,                  /* keeps its value as given */
    OPT_INT,                   /* a whole number in lo..hi */
    OPT_PERCENT,               /* a percentage (vis_parse_percent), at most hi
                                  unless hi < 0 */
    OPT_SIZE,                  /* a size in bytes (vis_parse_size) */
    OPT_HELP, OPT_VERSION
} opt_kind;

/* Every option of every subcommand. -o and -h take one dash ("-o FILE"),
 * every other name two ("--top=3", "--top 3", "--x=60"); the main
 * command's flags also take one dash, as they always have. An option
 * echoed (echo) is repeated in the ms_print part's "ms_print arguments:"
 * line, as ms_print repeats its own. */
#define OFF(f) offsetof(options, f)
static const struct opt {
    const char *name;
    unsigned cmds;             /* the commands that take it */
    opt_kind kind;
    size_t off;                /* where its value goes in options */
    long lo, hi;
    const char *expects;       /* OPT_PERCENT, OPT_SIZE: the usage text */
    int echo;
    int one_dash;              /* "-o", "-h"; every other name takes two */
} opts[] = {
    { "h", CMD_SHOW, OPT_HELP, 0, 0, 0, NULL, 0, 1 },
    { "help", CMD_SHOW, OPT_HELP, 0, 0, 0, NULL, 0, 0 },
    { "version", CMD_SHOW, OPT_VERSION, 0, 0, 0, NULL, 0, 0 },
    { "summary-only", CMD_SHOW, OPT_FLAG, OFF(summary_only), 0, 0, NULL, 0, 0 },
    { "ms-print-only", CMD_SHOW, OPT_FLAG, OFF(ms_print_only), 0, 0, NULL, 0, 0 },
    { "no-companion", CMD_SHOW | CMD_DIFF | CMD_CHECK, OPT_FLAG, OFF(no_companion), 0, 0, NULL, 0, 0 },
    { "json", CMD_SHOW | CMD_DIFF, OPT_FLAG, OFF(json), 0, 0, NULL, 0, 0 },
    { "growth", CMD_SHOW, OPT_FLAG, OFF(growth), 0, 0, NULL, 0, 0 },
    { "o", CMD_SHOW | CMD_DIFF, OPT_TEXT, OFF(image), 0, 0, NULL, 0, 1 },
    { "output", CMD_SHOW | CMD_DIFF, OPT_TEXT, OFF(image), 0, 0, NULL, 0, 0 },
    { "gnuplot", CMD_SHOW, OPT_TEXT, OFF(gnuplot), 0, 0, NULL, 0, 0 },
    { "report", CMD_SHOW, OPT_TEXT, OFF(report), 0, 0, NULL, 0, 0 },
    { "companion", CMD_SHOW, OPT_TEXT, OFF(companion), 0, 0, NULL, 0, 0 },
    { "flamegraph", CMD_SHOW | CMD_DIFF, OPT_TEXT, OFF(flamegraph), 0, 0, NULL, 0, 0 },
    { "collapsed", CMD_SHOW, OPT_TEXT, OFF(collapsed), 0, 0, NULL, 0, 0 },
    { "pprof", CMD_SHOW, OPT_TEXT, OFF(pprof), 0, 0, NULL, 0, 0 },
    { "snapshot", CMD_SHOW, OPT_TEXT, OFF(snapshot), 0, 0, NULL, 0, 0 },
    { "from", CMD_SHOW, OPT_TEXT, OFF(from), 0, 0, NULL, 0, 0 },
    { "to", CMD_SHOW, OPT_TEXT, OFF(to), 0, 0, NULL, 0, 0 },
    { "threshold", CMD_SHOW, OPT_PERCENT, OFF(rep.threshold), 0, 100,
      "a percentage from 0 to 100", 1, 0 },
    { "x", CMD_SHOW, OPT_INT, OFF(rep.graph_x), 4, 1000, NULL, 1, 0 },
    { "y", CMD_SHOW, OPT_INT, OFF(rep.graph_y), 4, 1000, NULL, 1, 0 },
    { "top", CMD_SHOW, OPT_INT, OFF(top), VIS_TOP_MIN, VIS_TOP_MAX, NULL, 0, 0 },
    { "width", CMD_SHOW, OPT_INT, OFF(chart.width), VIS_CHART_MIN_WIDTH, VIS_CHART_MAX_PX, NULL, 0, 0 },
    { "height", CMD_SHOW, OPT_INT, OFF(chart.height), VIS_CHART_MIN_HEIGHT, VIS_CHART_MAX_PX, NULL, 0, 0 },
    { "at", CMD_DIFF, OPT_TEXT, OFF(at), 0, 0, NULL, 0, 0 },
    { "align", CMD_DIFF, OPT_TEXT, OFF(align), 0, 0, NULL, 0, 0 },
    { "top", CMD_DIFF, OPT_INT, OFF(diff_top), 1, 1000000, NULL, 0, 0 },
    { "max-peak", CMD_CHECK, OPT_SIZE, OFF(lim.max_peak), 0, 0,
      "a size (4096, 512KiB, 100MiB, 2GiB, 10MB)", 0, 0 },
    { "allow", CMD_CHECK, OPT_SIZE, OFF(lim.allow), 0, 0,
      "a size (4096, 512KiB, 100MiB, 2GiB, 10MB)", 0, 0 },
    { "max-increase", CMD_CHECK, OPT_PERCENT, OFF(lim.max_increase_pct), 0, -1,
      "a percentage (10, 2.5%)", 0, 0 },
    { "baseline", CMD_CHECK, OPT_TEXT, OFF(baseline), 0, 0, NULL, 0, 0 },
};
#undef OFF
#define N_OPTS (sizeof opts / sizeof *opts)
typedef char opts_fit_given[N_OPTS <= sizeof ((options *)0)->given ? 1 : -1];

/* Whether the option called name was given. */
static int given(const options *o, const char *name)
{
    for (size_t k = 0; k < N_OPTS; k++)
        if ((opts[k].cmds & o->cmd) && !strcmp(opts[k].name, name))
            return o->given[k];
    return 0;
}

static int append_arg(run *r, options *o, const char *a, const char *b)
{
    size_t old = o->ms_print_args ? strlen(o->ms_print_args) : 0;
    size_t add = 1 + strlen(a) + (b ? strlen(b) : 0);
    char *s = realloc(o->ms_print_args, old + add + 1);
    if (!s)
        return fail(r, VIS_EXIT_DATA, "out of memory");
    snprintf(s + old, add + 1, " %s%s", a, b ? b : "");
    o->ms_print_args = s;
    return VIS_EXIT_OK;
}

/* Stores val into the option's field. Returns 0 or a usage error. */
static int set_option(run *r, options *o, const struct opt *op, const char *val)
{
    char *field = (char *)o + op->off;
    switch (op->kind) {
    case OPT_TEXT:
        *(const char **)field = val;
        return VIS_EXIT_OK;
    case OPT_INT: {
        char *end;
        errno = 0;
        long n = strtol(val, &end, 10);
        if (!*val || *end || errno || n < op->lo || n > op->hi)
            return usage_fail(r, "--%s expects a whole number from %ld to %ld, got '%s'", op->name,
                              op->lo, op->hi, val);
        *(int *)field = (int)n;
        break;
    }
    case OPT_PERCENT: {
        double pct;
        if (vis_parse_percent(val, &pct) != 0 || (op->hi >= 0 && pct > (double)op->hi))
            return usage_fail(r, "--%s expects %s, got '%s'", op->name, op->expects, val);
        *(double *)field = pct;
        break;
    }
    case OPT_SIZE:
        if (vis_parse_size(val, (uint64_t *)(void *)field) != 0)
            return usage_fail(r, "--%s expects %s, got '%s'", op->name, op->expects, val);
        break;
    default:
        break;
    }
    if (op->echo) {
        char name[32];
        snprintf(name, sizeof name, "--%s=", op->name);
        return append_arg(r, o, name, val);
    }
    return VIS_EXIT_OK;
}

/* A FILE argument: the main command takes any number, diff two, check one. */
static int add_input(run *r, options *o, const char *a)
{
    if (o->cmd == CMD_DIFF && o->n_inputs == 2)
        return usage_fail(r, "diff: expected two files OLD NEW, got a third, '%s'", a);
    if (o->cmd == CMD_CHECK && o->n_inputs == 1)
        return usage_fail(r, "check: expected one FILE, got '%s' and '%s'", o->inputs[0], a);
    const char **in = realloc(o->inputs, (size_t)(o->n_inputs + 1) * sizeof *in);
    if (!in)
        return fail(r, VIS_EXIT_DATA, "out of memory");
    o->inputs = in;
    in[o->n_inputs++] = a;
    if (o->cmd == CMD_SHOW && o->n_inputs == 1)
        return append_arg(r, o, a, NULL);
    return VIS_EXIT_OK;
}

/* Parses argv[first..] for the command o->cmd in one loop over opts[].
 * Returns 0, a usage error, or -1 when --help or --version was printed. */
static int parse_args(run *r, options *o, int argc, char **argv, int first)
{
    static const char *const prefix[] = { [CMD_SHOW] = "", [CMD_DIFF] = "diff: ",
                                          [CMD_CHECK] = "check: " };
    int only_files = 0, rc;
    for (int i = first; i < argc; i++) {
        char *a = argv[i];
        if (only_files || a[0] != '-' || !a[1]) {
            if ((rc = add_input(r, o, a)) != 0)
                return rc;
            continue;
        }
        if (!strcmp(a, "--")) {
            only_files = 1;
            continue;
        }
        /* Split "--name=value"; the value may also be the next argument. */
        int dashes = a[1] == '-' ? 2 : 1;
        const char *name = a + dashes, *val = NULL, *eq = strchr(name, '=');
        char namebuf[32];
        if (eq) {
            size_t n = (size_t)(eq - name);
            if (n >= sizeof namebuf)
                return usage_fail(r, "%sunknown option '%s'", prefix[o->cmd], a);
            memcpy(namebuf, name, n);
            namebuf[n] = '\0';
            name = namebuf;
            val = eq + 1;
        }
        size_t k = 0;
        while (k < N_OPTS && (!(opts[k].cmds & o->cmd) || strcmp(opts[k].name, name)))
            k++;
        const struct opt *op = k < N_OPTS ? &opts[k] : NULL;
        int dash_ok = op && ((dashes == 1) == op->one_dash ||
                             (op->kind == OPT_FLAG && o->cmd == CMD_SHOW));
        if (!op || !dash_ok || (val && (op->kind == OPT_HELP || op->kind == OPT_VERSION)))
            return usage_fail(r, "%sunknown option '%s'", prefix[o->cmd], a);
        o->given[k] = 1;
        if (op->kind == OPT_HELP || op->kind == OPT_VERSION) {
            if (op->kind == OPT_HELP)
                fputs(usage_text, stdout);
            else
                printf("%s %s\n", PROG, PACKAGE_VERSION);
            return -1;
        }
        if (op->kind == OPT_FLAG) {
            if (val)
                return usage_fail(r, "option '--%s' takes no value", name);
            *(int *)((char *)o + op->off) = 1;
            continue;
        }
        if (!val) {
            if (i + 1 >= argc)
                return usage_fail(r, "option '%s' needs a value", a);
            val = argv[++i];
        }
        if ((rc = set_option(r, o, op, val)) != 0)
            return rc;
    }
    return VIS_EXIT_OK;
}

static const char *extension(const char *path)
{
    const char *slash = strrchr(path, '/');
    const char *dot = strrchr(path, '.');
    return dot && (!slash || dot > slash) ? dot + 1 : "";
}

/* ------------------------------------------------------------ output */

/* An output file written by fn (outfile.h); returns 0 or VIS_EXIT_DATA. */
static int write_file(run *r, const char *path, const char *mode, vis_out_fn fn, void *ctx)
{
    char err[1024];
    if (vis_out_write(path, mode, fn, ctx, err, sizeof err) != 0)
        return fail(r, VIS_EXIT_DATA, "%s", err);
    return VIS_EXIT_OK;
}

/* --------------------------------------------------------- text report */

/* Whether the text report ends with the ms_print part (not --json,
 * --growth or --summary-only): main then has pass 1 render its table and
 * trees (vis_report_body). */
static int report_has_ms_print(const options *o)
{
    return !o->json && !o->growth && !o->summary_only;
}

typedef struct {
    run *r;
    const options *o;
} report_ctx;

/* Writes the text report to out (vis_out_fn); returns 0 or -1 with err. */
static int write_report(FILE *out, void *ctx, char *err, size_t errsz)
{
    const report_ctx *c = ctx;
    const options *o = c->o;
    run *r = c->r;
    const vis_profile *p = r->profile;
    if (o->json) {
        vis_json_profile(out, p, &r->analysis);
        return 0;
    }
    if (o->growth) {
        vis_growth_text(out, p, &r->analysis.growth, 0);
        return 0;
    }
    if (!o->ms_print_only) {
        vis_summary_write(out, p, &r->analysis, &o->rep);
        if (!o->summary_only)
            fputc('\n', out);
    }
    if (report_has_ms_print(o))
        return vis_report_ms_print_body(out, p, &o->rep, r->body, r->input, err, errsz);
    return 0;
}

/* ---------------------------------------------------------------- chart */

typedef struct {
    run *r;
    const options *o;
    const vis_chart_data *d;
    FILE *in;
} html_ctx;

static int write_html_page(FILE *out, void *ctx, char *err, size_t errsz)
{
    const html_ctx *c = ctx;
    vis_json_report_opts jo = { c->o->rep.threshold, VIS_HTML_MAX_DEPTH };
    return vis_html_write(out, c->r->profile, &c->r->analysis, c->d, c->in, &jo, err, errsz);
}

/* The interactive report (html.h); the trees are re-read from the input. */
static int write_html(run *r, const options *o)
{
    char err[1024];
    vis_chart_data *d = vis_chart_data_new(r->profile, (size_t)o->chart.top_n, err, sizeof err);
    if (!d)
        return fail(r, VIS_EXIT_DATA, "%s", err);
    FILE *in = fopen(o->inputs[0], "r");
    int rc;
    if (!in) {
        rc = fail(r, VIS_EXIT_DATA, "%s: cannot open: %s", o->inputs[0], strerror(errno));
    } else {
        html_ctx c = { r, o, d, in };
        rc = write_file(r, o->image, "w", write_html_page, &c);
        fclose(in);
    }
    vis_chart_data_free(d);
    return rc;
}

static int write_charts(run *r, const options *o)
{
    char err[1024];
    const vis_profile *p = r->profile;
    if (o->gnuplot) {
        const char *img = NULL;
        if (o->image && strcmp(extension(o->image), "png") != 0 &&
            strcmp(extension(o->image), "csv") != 0 && strcmp(extension(o->image), "html") != 0)
            img = o->image;
        if (vis_chart_write_gnuplot(p, &o->chart, o->gnuplot, img, err, sizeof err) != 0)
            return fail(r, VIS_EXIT_DATA, "%s", err);
    }
    if (!o->image)
        return VIS_EXIT_OK;
    const char *ext = extension(o->image);
    int rc;
    if (!strcmp(ext, "html"))
        return write_html(r, o);
    if (!strcmp(ext, "png")) {
        /* The layout description is for the pixel tests. */
        const char *dbg = getenv("MEMTIME_VIS_DEBUG_LAYOUT");
        char *layout = NULL;
        vis_chart_opts co = o->chart;
        co.layout = dbg && !strcmp(dbg, "1") ? &layout : NULL;
        rc = vis_chart_write_png(p, &co, o->image, err, sizeof err);
        if (layout)
            fputs(layout, stderr);
        free(layout);
    } else if (!strcmp(ext, "csv")) {
        rc = vis_csv_write_file(p, (size_t)o->chart.top_n, o->image, err, sizeof err);
    } else {
        rc = vis_chart_render_gnuplot(p, &o->chart, o->image, err, sizeof err);
    }
    return rc != 0 ? fail(r, VIS_EXIT_DATA, "%s", err) : VIS_EXIT_OK;
}

/* -------------------------------------------------------------- exports */

typedef struct {
    vis_export_fn fn;
    const vis_export *e;
} export_ctx;

static int write_export(FILE *out, void *ctx, char *err, size_t errsz)
{
    const export_ctx *c = ctx;
    return c->fn(out, c->e, err, errsz);
}

/* The flamegraph, folded stacks and pprof files of one snapshot (export.h). */
static int write_exports(run *r, const options *o)
{
    const struct { const char *path; vis_export_fn fn; const char *mode; } out[] = {
        { o->flamegraph, vis_flamegraph_write, "w" },
        { o->collapsed, vis_collapsed_write, "w" },
        { o->pprof, vis_pprof_write, "wb" },
    };
    if (!o->flamegraph && !o->collapsed && !o->pprof)
        return VIS_EXIT_OK;
    char err[1024];
    FILE *in = fopen(o->inputs[0], "r");
    if (!in)
        return fail(r, VIS_EXIT_DATA, "%s: cannot open: %s", o->inputs[0], strerror(errno));
    /* A growth window shows its end, coloured by the change since its start. */
    int window = o->from || o->to;
    const char *at = window ? (o->to ? o->to : "end") : o->snapshot;
    const char *base = window ? (o->from ? o->from : "#0") : NULL;
    int rc = vis_export_prepare(&r->export, in, r->profile, at, base, err, sizeof err);
    fclose(in);
    if (rc == -2)
        return usage_fail(r, "%s: %s", window ? "--to" : "--snapshot", err);
    if (rc == -3)
        return usage_fail(r, "--from: %s", err);
    if (rc != 0)
        return fail(r, VIS_EXIT_DATA, "%s", err);
    for (size_t i = 0; i < sizeof out / sizeof *out; i++) {
        export_ctx c = { out[i].fn, &r->export };
        if (out[i].path && (rc = write_file(r, out[i].path, out[i].mode, write_export, &c)) != 0)
            return rc;
    }
    return VIS_EXIT_OK;
}

/* ------------------------------------------------------------- processes */

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A directory's profiles: its regular files but companions (*.memtime) and
 * rewrites in progress (.NAME.tmp.PID), whose first line is "desc:". */
static int add_directory(run *r, const char *dir)
{
    char err[1024];
    DIR *d = opendir(dir);
    if (!d)
        return fail(r, VIS_EXIT_DATA, "%s: cannot open: %s", dir, strerror(errno));
    char **names = NULL;
    size_t n = 0;
    int rc = VIS_EXIT_OK;
    struct dirent *e;
    while (rc == VIS_EXIT_OK && (e = readdir(d)) != NULL) {
        size_t len = strlen(e->d_name);
        if (e->d_name[0] == '.' || (len > 8 && !strcmp(e->d_name + len - 8, ".memtime")))
            continue;
        char **a = realloc(names, (n + 1) * sizeof *a);
        if (a)
            names = a;
        size_t pn = strlen(dir) + len + 2;
        char *path = a ? malloc(pn) : NULL;
        if (!path) {
            rc = fail(r, VIS_EXIT_DATA, "out of memory");
            break;
        }
        snprintf(path, pn, "%s/%s", dir, e->d_name);
        names[n++] = path;
    }
    closedir(d);
    if (rc == VIS_EXIT_OK)
        qsort(names, n, sizeof *names, cmp_str);
    for (size_t i = 0; i < n; i++) {
        struct stat st;
        char head[6] = "";
        FILE *f = rc == VIS_EXIT_OK && stat(names[i], &st) == 0 && S_ISREG(st.st_mode)
                      ? fopen(names[i], "r") : NULL;
        if (f) {
            size_t got = fread(head, 1, 5, f);
            head[got] = '\0';
            fclose(f);
        }
        if (!strcmp(head, "desc:") && vis_procs_add(r->procs, names[i], err, sizeof err) != 0)
            rc = fail(r, VIS_EXIT_DATA, "%s", err);
        free(names[i]);
    }
    free(names);
    return rc;
}

/* Several profiles, or a directory of them: the listing, or with -o the
 * chart of every process on one time axis. */
static int run_processes(run *r, const options *o)
{
    char err[1024];
    int rc;
    if (o->gnuplot || o->report || o->summary_only || o->ms_print_only || o->companion ||
        o->flamegraph || o->collapsed || o->pprof || o->snapshot)
        return usage_fail(r, "with several profiles only -o IMG.png, --width and --height apply");
    if (o->image && strcmp(extension(o->image), "png") != 0)
        return usage_fail(r, "with several profiles -o writes a .png, got '%s'", o->image);
    if (!(r->procs = calloc(1, sizeof *r->procs)))
        return fail(r, VIS_EXIT_DATA, "out of memory");
    for (int i = 0; i < o->n_inputs; i++) {
        struct stat st;
        if (stat(o->inputs[i], &st) == 0 && S_ISDIR(st.st_mode)) {
            if ((rc = add_directory(r, o->inputs[i])) != 0)
                return rc;
        } else if (vis_procs_add(r->procs, o->inputs[i], err, sizeof err) != 0) {
            return fail(r, VIS_EXIT_DATA, "%s", err);
        }
    }
    if (vis_procs_finish(r->procs, err, sizeof err) != 0)
        return fail(r, VIS_EXIT_DATA, "%s", err);
    if (!o->image) {
        vis_procs_list(stdout, r->procs);
    } else if (vis_procs_write_png(r->procs, o->chart.width, o->chart.height, o->image, err,
                                   sizeof err) != 0) {
        return fail(r, VIS_EXIT_DATA, "%s", err);
    }
    return VIS_EXIT_OK;
}

/* ----------------------------------------------------------- one profile */

/* Reads the companion at path (NULL: the default beside the profile) into
 * p. A companion given with --companion must exist. */
static int read_companion(run *r, vis_profile *p, const char *given_path)
{
    char err[1024];
    char *cpath = given_path ? NULL : vis_companion_path(p->path);
    if (!given_path && !cpath)
        return fail(r, VIS_EXIT_DATA, "out of memory");
    int rc = vis_companion_read(p, given_path ? given_path : cpath, err, sizeof err);
    free(cpath);
    if (rc < 0)
        return fail(r, VIS_EXIT_DATA, "%s (use --no-companion to ignore it)", err);
    if (rc == 1 && given_path)
        return fail(r, VIS_EXIT_DATA, "%s: cannot open: %s", given_path, strerror(ENOENT));
    return VIS_EXIT_OK;
}

/* memtime-vis [options] FILE: the report, charts and exports of one profile. */
static int run_show(run *r, options *o)
{
    char err[1024];
    int rc;
    if (o->image) {
        const char *ext = extension(o->image);
        if (strcmp(ext, "png") && strcmp(ext, "svg") && strcmp(ext, "pdf") && strcmp(ext, "csv") &&
            strcmp(ext, "html"))
            return usage_fail(r, "-o expects a file name ending in .png, .svg, .pdf, .csv or .html, "
                              "got '%s'", o->image);
    }
    int text = o->report || o->json ||
               (!o->image && !o->gnuplot && !o->flamegraph && !o->collapsed && !o->pprof);
    const char *path = o->inputs[0];
    if (!(r->input = fopen(path, "r")))
        return fail(r, VIS_EXIT_DATA, "%s: cannot open: %s", path, strerror(errno));
    /* The ms_print part's table and trees are rendered as the file is read,
     * so it is read once; without memory for that, the report reads the
     * trees again. */
    vis_massif_sink sink;
    if (text && report_has_ms_print(o))
        r->body = vis_report_body_new(&o->rep, &sink);
    vis_profile *p = r->profile = vis_massif_read_sink(r->input, path, r->body ? &sink : NULL,
                                                       err, sizeof err);
    if (!p)
        return fail(r, VIS_EXIT_DATA, "%s", err);
    if (p->truncated) {
        /* "PATH:LINE: expected X, found end of file" -> a warning. */
        const char *msg = p->truncated_msg;
        const char *rest = strstr(msg, ": expected ");
        int head = rest ? (int)(rest - msg) : 0;
        fprintf(stderr, PROG ": %.*s: warning: the file is cut short (%s); showing the %zu "
                "snapshot%s before the cut\n", head, msg, rest ? rest + 2 : msg,
                p->n_snaps, p->n_snaps == 1 ? "" : "s");
    }
    if (!o->no_companion && (rc = read_companion(r, p, o->companion)) != 0)
        return rc;

    /* The growth window, for the summary, --growth, --json (and the chart). */
    vis_when from = { VIS_WHEN_SNAPSHOT, p->snaps[0].time, 0, SIZE_MAX };
    vis_when to = { VIS_WHEN_END, p->snaps[p->n_snaps - 1].time, p->n_snaps - 1, SIZE_MAX };
    if (o->from && vis_when_parse(p, o->from, &from, err, sizeof err) != 0)
        return fail(r, VIS_EXIT_USAGE, "--from: %s", err);
    if (o->to && vis_when_parse(p, o->to, &to, err, sizeof err) != 0)
        return fail(r, VIS_EXIT_USAGE, "--to: %s", err);
    if (from.snap == SIZE_MAX)   /* before the first snapshot */
        from.snap = 0;
    if (to.snap == SIZE_MAX)
        return fail(r, VIS_EXIT_USAGE, "--to %s comes before the first snapshot", o->to);
    if (from.snap > to.snap)
        return fail(r, VIS_EXIT_USAGE, "--from %s (snapshot %zu) comes after --to %s (snapshot %zu)",
                    o->from ? o->from : "", from.snap, o->to ? o->to : "end", to.snap);
    if (vis_analysis_compute(p, from.snap, to.snap, &r->analysis) != 0)
        return fail(r, VIS_EXIT_DATA, "out of memory");
    if (o->growth)
        o->chart.growth = &r->analysis.growth;

    if ((rc = write_charts(r, o)) != 0 || (rc = write_exports(r, o)) != 0)
        return rc;
    report_ctx c = { r, o };
    if (text && o->report && strcmp(o->report, "-") != 0)
        return write_file(r, o->report, "w", write_report, &c);
    if (text && write_report(stdout, &c, err, sizeof err) != 0)
        return fail(r, VIS_EXIT_DATA, "%s", err);
    return VIS_EXIT_OK;
}

/* ------------------------------------------------------ diff and check */

/* Reads a profile and (unless no_companion) its companion into *pp. */
static int load(run *r, vis_profile **pp, const char *path, int no_companion)
{
    char err[1024];
    FILE *in = fopen(path, "r");
    if (!in)
        return fail(r, VIS_EXIT_DATA, "%s: cannot open: %s", path, strerror(errno));
    *pp = vis_massif_read(in, path, err, sizeof err);
    fclose(in);
    if (!*pp)
        return fail(r, VIS_EXIT_DATA, "%s", err);
    return no_companion ? VIS_EXIT_OK : read_companion(r, *pp, NULL);
}

typedef struct {
    FILE *fo, *fn;
} file_pair;

/* diff --flamegraph: NEW's tree coloured by the change since OLD's. */
static int diff_flamegraph(run *r, const char *path, const char *at)
{
    char err[1024];
    FILE *fo = fopen(r->profile->path, "r"), *fn = fopen(r->profile2->path, "r");
    if (!fo || !fn) {
        const char *bad = fo ? r->profile2->path : r->profile->path;
        int e = errno;
        if (fo)
            fclose(fo);
        if (fn)
            fclose(fn);
        return fail(r, VIS_EXIT_DATA, "%s: cannot open: %s", bad, strerror(e));
    }
    int rc = vis_export_prepare_diff(&r->export, fn, r->profile2, fo, r->profile, at, err,
                                     sizeof err);
    fclose(fo);
    fclose(fn);
    if (rc <= -2)
        return fail(r, VIS_EXIT_USAGE, "--at: %s", err);
    if (rc != 0)
        return fail(r, VIS_EXIT_DATA, "%s", err);
    export_ctx c = { vis_flamegraph_write, &r->export };
    return write_file(r, path, "w", write_export, &c);
}

/* The time of the first phase mark called label in p, or -1 if none. */
static int mark_time(const vis_profile *p, const char *label, uint64_t *t)
{
    for (size_t k = 0; k < p->n_marks; k++)
        if (!strcmp(p->marks[k].label, label)) {
            *t = p->marks[k].time;
            return 0;
        }
    return -1;
}

/* memtime-vis diff [--at=WHEN] [--json] [--top=N] [--flamegraph=SVG]
 * [-o DIFF.png [--align=MARK]] [--no-companion] OLD NEW */
static int run_diff(run *r, const options *o)
{
    char err[1024];
    const char *at = o->at ? o->at : "peak";
    int rc;
    if (o->n_inputs != 2)
        return usage_fail(r, "diff: expected two files, OLD and NEW");
    if (o->image && strcmp(extension(o->image), "png") != 0)
        return usage_fail(r, "diff: -o expects a file name ending in .png, got '%s'", o->image);
    if (o->align && !o->image)
        return usage_fail(r, "diff: --align places the two runs on the chart: give -o DIFF.png");
    const char *old = o->inputs[0], *new_ = o->inputs[1];
    if ((rc = load(r, &r->profile, old, o->no_companion)) != 0 ||
        (rc = load(r, &r->profile2, new_, o->no_companion)) != 0)
        return rc;
    vis_when wo, wn;
    if (vis_when_parse(r->profile, at, &wo, err, sizeof err) != 0)
        return fail(r, VIS_EXIT_USAGE, "--at: %s: %s", old, err);
    if (vis_when_parse(r->profile2, at, &wn, err, sizeof err) != 0)
        return fail(r, VIS_EXIT_USAGE, "--at: %s: %s", new_, err);
    if (wo.snap == SIZE_MAX || wn.snap == SIZE_MAX)
        return fail(r, VIS_EXIT_USAGE, "--at: '%s' comes before the first snapshot of %s", at,
                    wo.snap == SIZE_MAX ? old : new_);
    if (vis_diff_compute(r->profile, wo.snap, r->profile2, wn.snap, wo.kind == VIS_WHEN_PEAK, at,
                         &r->diff) != 0)
        return fail(r, VIS_EXIT_DATA, "out of memory");
    if (o->flamegraph && (rc = diff_flamegraph(r, o->flamegraph, at)) != 0)
        return rc;
    if (o->image) {
        uint64_t ao = 0, an = 0;
        if (o->align) {
            int missing_old = mark_time(r->profile, o->align, &ao) != 0;
            if (missing_old || mark_time(r->profile2, o->align, &an) != 0)
                return fail(r, VIS_EXIT_USAGE, "--align: no phase mark '%s' in %s", o->align,
                            missing_old ? old : new_);
        }
        int top = o->diff_top ? (o->diff_top < 12 ? o->diff_top : 12) : 12;
        if (vis_diff_chart_png(r->profile, r->profile2, &r->diff, ao, an, o->align, top, o->image,
                               err, sizeof err) != 0)
            return fail(r, VIS_EXIT_DATA, "%s", err);
        if (!o->json)
            return VIS_EXIT_OK;
    }
    if (o->json)
        vis_diff_json(stdout, r->profile, r->profile2, &r->diff);
    else
        vis_diff_text(stdout, r->profile, r->profile2, &r->diff, o->diff_top);
    return VIS_EXIT_OK;
}

/* memtime-vis check [--max-peak=SIZE] [--baseline=OLD --max-increase=PCT
 * [--allow=SIZE]] [--no-companion] FILE: exit 0 within the limits, 3 with
 * one line per limit broken. */
static int run_check(run *r, options *o)
{
    vis_check_limits *lim = &o->lim;
    int rc;
    lim->has_max_peak = given(o, "max-peak");
    lim->has_increase = given(o, "max-increase");
    if (o->n_inputs == 0)
        return usage_fail(r, "check: expected a FILE");
    if (!lim->has_max_peak && !o->baseline)
        return usage_fail(r, "check: give --max-peak=SIZE, or --baseline=OLD with --max-increase=PCT");
    if (!o->baseline != !lim->has_increase || (given(o, "allow") && !o->baseline))
        return usage_fail(r, "check: --baseline, --max-increase (and --allow) go together");
    if ((rc = load(r, &r->profile, o->inputs[0], o->no_companion)) != 0)
        return rc;
    if (o->baseline) {
        if ((rc = load(r, &r->profile2, o->baseline, o->no_companion)) != 0)
            return rc;
        if (vis_diff_compute(r->profile2, r->profile2->peak, r->profile, r->profile->peak, 1,
                             "peak", &r->diff) != 0)
            return fail(r, VIS_EXIT_DATA, "out of memory");
    }
    vis_check_result res;
    if (vis_check_eval(r->profile, o->baseline ? &r->diff : NULL, lim, &res) != 0)
        return fail(r, VIS_EXIT_DATA, "out of memory");
    vis_check_text(stdout, &res, lim);
    size_t broken = res.n;
    vis_check_result_free(&res);
    return broken ? VIS_EXIT_CHECK : VIS_EXIT_OK;
}

/* ------------------------------------------------------------------ main */

/* The main command's checks between options, made once all are read. */
static int check_show_options(run *r, options *o)
{
    if (o->n_inputs == 0)
        return usage_fail(r, "expected an input FILE");
    if (o->summary_only && o->ms_print_only)
        return usage_fail(r, "--summary-only and --ms-print-only exclude each other");
    if (o->snapshot && (o->from || o->to))
        return usage_fail(r, "--snapshot and --from/--to exclude each other: with a window the "
                          "exports show --to's moment");
    if (o->snapshot && !o->flamegraph && !o->collapsed && !o->pprof)
        return usage_fail(r, "--snapshot picks the snapshot of --flamegraph, --collapsed or "
                          "--pprof; none was given");
    if (o->json && (o->summary_only || o->ms_print_only || o->growth))
        return usage_fail(r, "--json excludes --summary-only, --ms-print-only and --growth");
    o->rep.ms_print_args = o->ms_print_args;
    o->chart.top_n = o->rep.top_n = o->top;
    return VIS_EXIT_OK;
}

static int dispatch(run *r, options *o, int argc, char **argv)
{
    int rc;
    o->cmd = argc > 1 && !strcmp(argv[1], "diff") ? CMD_DIFF
           : argc > 1 && !strcmp(argv[1], "check") ? CMD_CHECK : CMD_SHOW;
    vis_report_opts_default(&o->rep);
    vis_chart_opts_default(&o->chart);
    o->top = o->chart.top_n;
    if ((rc = parse_args(r, o, argc, argv, o->cmd == CMD_SHOW ? 1 : 2)) != 0)
        return rc;
    if (o->cmd == CMD_DIFF)
        return run_diff(r, o);
    if (o->cmd == CMD_CHECK)
        return run_check(r, o);
    if ((rc = check_show_options(r, o)) != 0)
        return rc;
    struct stat st;
    if (o->n_inputs > 1 || (stat(o->inputs[0], &st) == 0 && S_ISDIR(st.st_mode)))
        return run_processes(r, o);
    return run_show(r, o);
}

int main(int argc, char **argv)
{
    static char stdout_buf[VIS_OUT_BUF];   /* outfile.h */
    if (!isatty(STDOUT_FILENO))
        setvbuf(stdout, stdout_buf, _IOFBF, sizeof stdout_buf);
    run r;
    options o;
    memset(&r, 0, sizeof r);
    memset(&o, 0, sizeof o);
    int status = dispatch(&r, &o, argc, argv);
    if (status == -1)            /* --help, --version */
        status = VIS_EXIT_OK;
    if (status == VIS_EXIT_OK || status == VIS_EXIT_CHECK) {
        int rc = close_stdout(&r);
        if (rc != VIS_EXIT_OK)
            status = rc;
    }
    run_free(&r);
    free(o.inputs);
    free(o.ms_print_args);
    if (r.msg[0]) {
        fprintf(stderr, PROG ": %s\n", r.msg);
        if (r.usage)
            fputs("Try '" PROG " --help' for more information.\n", stderr);
    }
    return status;
}
