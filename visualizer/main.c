/* main.c: the memtime-vis command line. Parses options, reads the profile
 * (massif.c) and its companion (companion.c), and hands the read-only model
 * to the renderers: the text reports (report.c) and the chart (chart.h).
 * The only place that prints to stdout/stderr and exits.
 *
 * Exit status: 0 ok, 1 bad data or I/O, 2 usage. Files are written to a
 * temporary name in the target's directory and renamed, so a failure leaves
 * no partial output behind. */
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
#include "model/diff.h"
#include "render/diff_text.h"
#include "model/export.h"
#include "model/analysis.h"
#include "model/chart_data.h"
#include "model/processes.h"
#include "render/processes_chart.h"
#include "render/processes_text.h"
#include "model/profile.h"
#include "model/when.h"
#include "read/companion.h"
#include "read/massif.h"
#include "render/growth_text.h"
#include "render/summary.h"
#include "render/chart.h"
#include "render/csv.h"
#include "render/diff_chart.h"
#include "render/html.h"
#include "render/json.h"
#include "render/report.h"

#define PROG "memtime-vis"
#define VIS_STR_(x) #x
#define VIS_STR(x) VIS_STR_(x)
#define EXIT_DATA 1
#define EXIT_USAGE 2

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

/* What the run works on, freed by die() so that the sanitizer build reports
 * no leak on error exits. */
static vis_profile *profile;
static vis_procs *procs;          /* several profiles (processes.h) */
static FILE *input;               /* the profile, kept open: the report may walk its trees */
static vis_report_body *body;     /* the ms_print report's table and trees, from pass 1 */
static vis_analysis analysis;     /* over --from..--to, computed once */
static vis_profile *profile2;     /* diff's NEW, check's baseline */
static vis_diff diff;

static void die(int status, const char *fmt, ...)
{
    va_list ap;
    fputs(PROG ": ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    vis_analysis_free(&analysis);
    vis_diff_free(&diff);
    vis_profile_free(profile);
    vis_profile_free(profile2);
    vis_procs_free(procs);
    vis_report_body_free(body);
    if (input)
        fclose(input);
    exit(status);
}

static void usage_error(const char *fmt, ...)
{
    va_list ap;
    fputs(PROG ": ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputs("\nTry '" PROG " --help' for more information.\n", stderr);
    exit(EXIT_USAGE);
}

typedef struct {
    const char *input;
    const char **inputs;       /* every FILE given, n_inputs of them */
    int n_inputs;
    const char *image;
    const char *gnuplot;
    const char *report;
    const char *companion;
    const char *flamegraph, *collapsed, *pprof, *snapshot;
    int no_companion;
    int summary_only, ms_print_only;
    int json, growth;
    const char *from, *to;
    vis_report_opts rep;
    vis_chart_opts chart;
    char *ms_print_args;       /* " --threshold=2 FILE", as ms_print echoes */
} options;

/* The options that only set a flag, and those whose text is kept as
 * given: where each goes in options. The options with a number are parsed
 * one by one in parse_args. */
static const struct {
    const char *name;
    size_t off;
} flag_opts[] = {
    { "summary-only", offsetof(options, summary_only) },
    { "ms-print-only", offsetof(options, ms_print_only) },
    { "no-companion", offsetof(options, no_companion) },
    { "json", offsetof(options, json) },
    { "growth", offsetof(options, growth) },
}, text_opts[] = {
    { "o", offsetof(options, image) }, { "output", offsetof(options, image) },
    { "gnuplot", offsetof(options, gnuplot) }, { "report", offsetof(options, report) },
    { "companion", offsetof(options, companion) }, { "flamegraph", offsetof(options, flamegraph) },
    { "collapsed", offsetof(options, collapsed) }, { "pprof", offsetof(options, pprof) },
    { "snapshot", offsetof(options, snapshot) }, { "from", offsetof(options, from) },
    { "to", offsetof(options, to) },
};
static const char *const number_opts[] = { "threshold", "x", "y", "top", "width", "height" };

static long int_arg(const char *name, const char *v, long lo, long hi)
{
    char *end;
    errno = 0;
    long n = strtol(v, &end, 10);
    if (!*v || *end || errno || n < lo || n > hi)
        usage_error("--%s expects a whole number from %ld to %ld, got '%s'", name, lo, hi, v);
    return n;
}

static void append_arg(options *o, const char *a, const char *b)
{
    size_t old = o->ms_print_args ? strlen(o->ms_print_args) : 0;
    size_t add = 1 + strlen(a) + (b ? strlen(b) : 0);
    char *s = realloc(o->ms_print_args, old + add + 1);
    if (!s)
        die(EXIT_DATA, "out of memory");
    snprintf(s + old, add + 1, " %s%s", a, b ? b : "");
    o->ms_print_args = s;
}

static void parse_args(options *o, int argc, char **argv)
{
    int only_files = 0;
    for (int i = 1; i < argc; i++) {
        char *a = argv[i];
        if (only_files || a[0] != '-' || !a[1]) {
            const char **in = realloc(o->inputs, (size_t)(o->n_inputs + 1) * sizeof *in);
            if (!in)
                die(EXIT_DATA, "out of memory");
            o->inputs = in;
            in[o->n_inputs++] = a;
            if (!o->input) {
                o->input = a;
                append_arg(o, a, NULL);
            }
            continue;
        }
        if (!strcmp(a, "--")) {
            only_files = 1;
            continue;
        }
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            fputs(usage_text, stdout);
            if (fflush(stdout) || ferror(stdout))
                die(EXIT_DATA, "stdout: write error");
            exit(0);
        }
        if (!strcmp(a, "--version")) {
            printf("%s %s\n", PROG, PACKAGE_VERSION);
            if (fflush(stdout) || ferror(stdout))
                die(EXIT_DATA, "stdout: write error");
            exit(0);
        }
        /* Split "--name=value", or take the value from the next argument. */
        const char *name = a[1] == '-' ? a + 2 : a + 1;
        char namebuf[32];
        const char *val = NULL;
        const char *eq = strchr(name, '=');
        if (eq) {
            size_t n = (size_t)(eq - name);
            if (n >= sizeof namebuf)
                usage_error("unknown option '%s'", a);
            memcpy(namebuf, name, n);
            namebuf[n] = '\0';
            name = namebuf;
            val = eq + 1;
        }
        /* A flag sets its int in options (given with one dash or two, as
         * ever), a text option keeps its value as given; numbers are parsed
         * below. "-o" is the only short option with a value. */
        size_t flag = 0, text = 0;
        while (flag < sizeof flag_opts / sizeof *flag_opts && strcmp(name, flag_opts[flag].name))
            flag++;
        if (flag < sizeof flag_opts / sizeof *flag_opts) {
            if (val)
                usage_error("option '--%s' takes no value", name);
            *(int *)((char *)o + flag_opts[flag].off) = 1;
            continue;
        }
        while (text < sizeof text_opts / sizeof *text_opts && strcmp(name, text_opts[text].name))
            text++;
        int ok = text < sizeof text_opts / sizeof *text_opts;
        for (size_t k = 0; k < sizeof number_opts / sizeof *number_opts; k++)
            ok |= !strcmp(name, number_opts[k]);
        if (!ok || (a[1] == '-') != (strcmp(name, "o") != 0))
            usage_error("unknown option '%s'", a);
        if (!val) {
            if (i + 1 >= argc)
                usage_error("option '%s' needs a value", a);
            val = argv[++i];
        }
        if (text < sizeof text_opts / sizeof *text_opts) {
            *(const char **)((char *)o + text_opts[text].off) = val;
        } else if (!strcmp(name, "threshold")) {
            /* ms_print's syntax: digits and dots, an optional trailing '%'. */
            double t;
            if (vis_parse_percent(val, &t) != 0 || t > 100)
                usage_error("--threshold expects a percentage from 0 to 100, got '%s'", val);
            o->rep.threshold = t;
            append_arg(o, "--threshold=", val);
        } else if (!strcmp(name, "x")) {
            o->rep.graph_x = (int)int_arg(name, val, 4, 1000);
            append_arg(o, "--x=", val);
        } else if (!strcmp(name, "y")) {
            o->rep.graph_y = (int)int_arg(name, val, 4, 1000);
            append_arg(o, "--y=", val);
        } else if (!strcmp(name, "top")) {
            o->chart.top_n = o->rep.top_n = (int)int_arg(name, val, VIS_TOP_MIN, VIS_TOP_MAX);
        } else if (!strcmp(name, "width")) {
            o->chart.width = (int)int_arg(name, val, VIS_CHART_MIN_WIDTH, VIS_CHART_MAX_PX);
        } else if (!strcmp(name, "height")) {
            o->chart.height = (int)int_arg(name, val, VIS_CHART_MIN_HEIGHT, VIS_CHART_MAX_PX);
        }
    }
    if (!o->input)
        usage_error("expected an input FILE");
    if (o->summary_only && o->ms_print_only)
        usage_error("--summary-only and --ms-print-only exclude each other");
    if (o->snapshot && (o->from || o->to))
        usage_error("--snapshot and --from/--to exclude each other: with a window the "
                    "exports show --to's moment");
    if (o->snapshot && !o->flamegraph && !o->collapsed && !o->pprof)
        usage_error("--snapshot picks the snapshot of --flamegraph, --collapsed or --pprof; "
                    "none was given");
    if (o->json && (o->summary_only || o->ms_print_only || o->growth))
        usage_error("--json excludes --summary-only, --ms-print-only and --growth");
    o->rep.ms_print_args = o->ms_print_args;
}

/* ------------------------------------------------------------ text report */

/* Whether the text report ends with the ms_print part (not --json,
 * --growth or --summary-only): main then has pass 1 render its table and
 * trees (vis_report_body). */
static int report_has_ms_print(const options *o)
{
    return !o->json && !o->growth && !o->summary_only;
}

/* Writes the text report to out; returns 0 or -1 with err. */
static int write_report(FILE *out, const vis_profile *p, const options *o,
                        char *err, size_t errsz)
{
    if (o->json) {
        vis_json_profile(out, p, &analysis);
        return 0;
    }
    if (o->growth) {
        vis_growth_text(out, p, &analysis.growth, 0);
        return 0;
    }
    if (!o->ms_print_only) {
        vis_summary_write(out, p, &analysis, &o->rep);
        if (!o->summary_only)
            fputc('\n', out);
    }
    if (report_has_ms_print(o))
        return vis_report_ms_print_body(out, p, &o->rep, body, input, err, errsz);
    return 0;
}

static void report_to_file(const char *path, const vis_profile *p, const options *o)
{
    char err[1024];
    vis_outfile out;
    if (vis_out_open(&out, path, "w", err, sizeof err) != 0)
        die(EXIT_DATA, "%s", err);
    if (write_report(out.fp, p, o, err, sizeof err) != 0) {
        vis_out_abort(&out);
        die(EXIT_DATA, "%s", err);
    }
    if (vis_out_commit(&out, err, sizeof err) != 0)
        die(EXIT_DATA, "%s", err);
}

/* ------------------------------------------------------------------ chart */

static const char *extension(const char *path)
{
    const char *slash = strrchr(path, '/');
    const char *dot = strrchr(path, '.');
    return dot && (!slash || dot > slash) ? dot + 1 : "";
}

/* The interactive report (html.h); the trees are re-read from the input. */
static int write_html(const vis_profile *p, const options *o, char *err, size_t errsz)
{
    vis_json_report_opts jo = { o->rep.threshold, VIS_HTML_MAX_DEPTH };
    vis_outfile f;
    vis_chart_data *d = vis_chart_data_new(p, (size_t)o->chart.top_n, err, errsz);
    if (!d)
        return -1;
    FILE *in = fopen(o->input, "r");
    if (!in) {
        vis_chart_data_free(d);
        return snprintf(err, errsz, "%s: cannot open: %s", o->input, strerror(errno)), -1;
    }
    int rc = vis_out_open(&f, o->image, "w", err, errsz);
    if (rc == 0 && (rc = vis_html_write(f.fp, p, &analysis, d, in, &jo, err, errsz)) != 0)
        vis_out_abort(&f);
    else if (rc == 0)
        rc = vis_out_commit(&f, err, errsz);
    vis_chart_data_free(d);
    fclose(in);
    return rc;
}

static void write_charts(const vis_profile *p, const options *o)
{
    char err[1024];
    if (o->gnuplot) {
        const char *img = NULL;
        if (o->image && strcmp(extension(o->image), "png") != 0 &&
            strcmp(extension(o->image), "csv") != 0 && strcmp(extension(o->image), "html") != 0)
            img = o->image;
        if (vis_chart_write_gnuplot(p, &o->chart, o->gnuplot, img, err, sizeof err) != 0)
            die(EXIT_DATA, "%s", err);
    }
    if (o->image) {
        const char *ext = extension(o->image);
        int rc;
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
        } else if (!strcmp(ext, "html")) {
            rc = write_html(p, o, err, sizeof err);
        } else {
            rc = vis_chart_render_gnuplot(p, &o->chart, o->image, err, sizeof err);
        }
        if (rc != 0)
            die(EXIT_DATA, "%s", err);
    }
}

/* ---------------------------------------------------------------- exports */

/* The flamegraph, folded stacks and pprof files of one snapshot (export.h). */
static void write_exports(const vis_profile *p, const options *o)
{
    const struct { const char *path; vis_export_fn fn; const char *mode; } out[] = {
        { o->flamegraph, vis_flamegraph_write, "w" },
        { o->collapsed, vis_collapsed_write, "w" },
        { o->pprof, vis_pprof_write, "wb" },
    };
    if (!o->flamegraph && !o->collapsed && !o->pprof)
        return;
    char err[1024];
    static vis_export e;   /* static: what it owns stays reachable on die() */
    FILE *in = fopen(o->input, "r");
    if (!in)
        die(EXIT_DATA, "%s: cannot open: %s", o->input, strerror(errno));
    /* A growth window shows its end, coloured by the change since its start. */
    int window = o->from || o->to;
    const char *at = window ? (o->to ? o->to : "end") : o->snapshot;
    const char *base = window ? (o->from ? o->from : "#0") : NULL;
    int rc = vis_export_prepare(&e, in, p, at, base, err, sizeof err);
    fclose(in);
    if (rc == -2)
        usage_error("%s: %s", window ? "--to" : "--snapshot", err);
    if (rc == -3)
        usage_error("--from: %s", err);
    if (rc != 0)
        die(EXIT_DATA, "%s", err);
    for (size_t i = 0; i < sizeof out / sizeof *out; i++) {
        vis_outfile f;
        if (!out[i].path)
            continue;
        rc = vis_out_open(&f, out[i].path, out[i].mode, err, sizeof err);
        if (rc == 0 && (rc = out[i].fn(f.fp, &e, err, sizeof err)) != 0)
            vis_out_abort(&f);
        if (rc == 0)
            rc = vis_out_commit(&f, err, sizeof err);
        if (rc != 0) {
            vis_export_free(&e);
            die(EXIT_DATA, "%s", err);
        }
    }
    vis_export_free(&e);
}

/* -------------------------------------------------------------- processes */

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A directory's profiles: its regular files but companions (*.memtime) and
 * rewrites in progress (.NAME.tmp.PID), whose first line is "desc:". */
static void add_directory(const char *dir)
{
    char err[1024];
    DIR *d = opendir(dir);
    if (!d)
        die(EXIT_DATA, "%s: cannot open: %s", dir, strerror(errno));
    char **names = NULL;
    size_t n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        size_t len = strlen(e->d_name);
        if (e->d_name[0] == '.' || (len > 8 && !strcmp(e->d_name + len - 8, ".memtime")))
            continue;
        char **a = realloc(names, (n + 1) * sizeof *a);
        size_t pn = strlen(dir) + len + 2;
        char *path = malloc(pn);
        if (!a || !path)
            die(EXIT_DATA, "out of memory");
        names = a;
        snprintf(path, pn, "%s/%s", dir, e->d_name);
        names[n++] = path;
    }
    closedir(d);
    qsort(names, n, sizeof *names, cmp_str);
    for (size_t i = 0; i < n; i++) {
        struct stat st;
        char head[6] = "";
        FILE *f = stat(names[i], &st) == 0 && S_ISREG(st.st_mode) ? fopen(names[i], "r") : NULL;
        if (f) {
            size_t got = fread(head, 1, 5, f);
            head[got] = '\0';
            fclose(f);
        }
        if (!strcmp(head, "desc:") && vis_procs_add(procs, names[i], err, sizeof err) != 0)
            die(EXIT_DATA, "%s", err);
        free(names[i]);
    }
    free(names);
}

static void run_processes(const options *o)
{
    char err[1024];
    if (o->gnuplot || o->report || o->summary_only || o->ms_print_only || o->companion ||
        o->flamegraph || o->collapsed || o->pprof || o->snapshot)
        usage_error("with several profiles only -o IMG.png, --width and --height apply");
    if (o->image && strcmp(extension(o->image), "png") != 0)
        usage_error("with several profiles -o writes a .png, got '%s'", o->image);
    if (!(procs = calloc(1, sizeof *procs)))
        die(EXIT_DATA, "out of memory");
    for (int i = 0; i < o->n_inputs; i++) {
        struct stat st;
        if (stat(o->inputs[i], &st) == 0 && S_ISDIR(st.st_mode))
            add_directory(o->inputs[i]);
        else if (vis_procs_add(procs, o->inputs[i], err, sizeof err) != 0)
            die(EXIT_DATA, "%s", err);
    }
    if (vis_procs_finish(procs, err, sizeof err) != 0)
        die(EXIT_DATA, "%s", err);
    if (o->image) {
        if (vis_procs_write_png(procs, o->chart.width, o->chart.height, o->image, err,
                                sizeof err) != 0)
            die(EXIT_DATA, "%s", err);
    } else {
        vis_procs_list(stdout, procs);
    }
    vis_procs_free(procs);
    procs = NULL;
    free(o->inputs);
    free(o->ms_print_args);
    if (fflush(stdout) != 0 || ferror(stdout) || fclose(stdout) != 0)
        die(EXIT_DATA, "stdout: write error: %s", strerror(errno ? errno : EIO));
}

/* ------------------------------------------------------------------- main */


/* ------------------------------------------------------ diff and check */

/* Reads a profile and (unless no_companion) its companion, or dies. */
static vis_profile *load(const char *path, int no_companion)
{
    char err[1024];
    FILE *in = fopen(path, "r");
    if (!in)
        die(EXIT_DATA, "%s: cannot open: %s", path, strerror(errno));
    vis_profile *p = vis_massif_read(in, path, err, sizeof err);
    fclose(in);
    if (!p)
        die(EXIT_DATA, "%s", err);
    if (!no_companion) {
        char *cpath = vis_companion_path(path);
        if (!cpath) {
            vis_profile_free(p);
            die(EXIT_DATA, "out of memory");
        }
        int rc = vis_companion_read(p, cpath, err, sizeof err);
        free(cpath);
        if (rc < 0) {
            vis_profile_free(p);
            die(EXIT_DATA, "%s (use --no-companion to ignore it)", err);
        }
    }
    return p;
}

/* "--name=value" or "--name value" at argv[*i]; NULL if a is not --name. */
static const char *opt_value(int argc, char **argv, int *i, const char *name)
{
    const char *a = argv[*i];
    size_t n = strlen(name);
    if (strncmp(a, "--", 2) != 0 || strncmp(a + 2, name, n) != 0)
        return NULL;
    if (a[2 + n] == '=')
        return a + 3 + n;
    if (a[2 + n] != '\0')
        return NULL;
    if (*i + 1 >= argc)
        usage_error("option '%s' needs a value", a);
    return argv[++*i];
}

static int finish_stdout(int status)
{
    if (fflush(stdout) != 0 || ferror(stdout) || fclose(stdout) != 0)
        die(EXIT_DATA, "stdout: write error: %s", strerror(errno ? errno : EIO));
    vis_diff_free(&diff);
    vis_profile_free(profile);
    vis_profile_free(profile2);
    profile = profile2 = NULL;
    return status;
}

/* diff --flamegraph: NEW's tree coloured by the change since OLD's. */
static void diff_flamegraph(const char *path, const char *at)
{
    char err[1024];
    static vis_export e;   /* static: what it owns stays reachable on die() */
    FILE *fo = fopen(profile->path, "r"), *fn = fopen(profile2->path, "r");
    if (!fo || !fn) {
        const char *bad = fo ? profile2->path : profile->path;
        if (fo)
            fclose(fo);
        if (fn)
            fclose(fn);
        die(EXIT_DATA, "%s: cannot open: %s", bad, strerror(errno));
    }
    int rc = vis_export_prepare_diff(&e, fn, profile2, fo, profile, at, err, sizeof err);
    fclose(fo);
    fclose(fn);
    if (rc <= -2)
        die(EXIT_USAGE, "--at: %s", err);
    if (rc != 0)
        die(EXIT_DATA, "%s", err);
    vis_outfile f;
    rc = vis_out_open(&f, path, "w", err, sizeof err);
    if (rc == 0 && (rc = vis_flamegraph_write(f.fp, &e, err, sizeof err)) != 0)
        vis_out_abort(&f);
    if (rc == 0)
        rc = vis_out_commit(&f, err, sizeof err);
    vis_export_free(&e);
    if (rc != 0)
        die(EXIT_DATA, "%s", err);
}

/* memtime-vis diff [--at=WHEN] [--json] [--top=N] [--flamegraph=SVG] [--no-companion] OLD NEW */
static int main_diff(int argc, char **argv)
{
    const char *files[2] = { NULL, NULL }, *at = "peak", *v, *fg = NULL, *image = NULL,
               *align = NULL;
    int json = 0, no_companion = 0, top = 0, n_files = 0;
    for (int i = 2; i < argc; i++) {
        if ((v = opt_value(argc, argv, &i, "at")))
            at = v;
        else if ((v = opt_value(argc, argv, &i, "top")))
            top = (int)int_arg("top", v, 1, 1000000);
        else if ((v = opt_value(argc, argv, &i, "flamegraph")))
            fg = v;
        else if ((v = opt_value(argc, argv, &i, "align")))
            align = v;
        else if ((v = opt_value(argc, argv, &i, "output")))
            image = v;
        else if (!strcmp(argv[i], "-o")) {
            if (i + 1 >= argc)
                usage_error("option '-o' needs a value");
            image = argv[++i];
        }
        else if (!strcmp(argv[i], "--json"))
            json = 1;
        else if (!strcmp(argv[i], "--no-companion"))
            no_companion = 1;
        else if (argv[i][0] == '-' && argv[i][1])
            usage_error("diff: unknown option '%s'", argv[i]);
        else if (n_files < 2)
            files[n_files++] = argv[i];
        else
            usage_error("diff: expected two files OLD NEW, got a third, '%s'", argv[i]);
    }
    if (n_files != 2)
        usage_error("diff: expected two files, OLD and NEW");
    if (image && strcmp(extension(image), "png") != 0)
        usage_error("diff: -o expects a file name ending in .png, got '%s'", image);
    if (align && !image)
        usage_error("diff: --align places the two runs on the chart: give -o DIFF.png");
    profile = load(files[0], no_companion);
    profile2 = load(files[1], no_companion);
    char err[1024];
    vis_when wo, wn;
    if (vis_when_parse(profile, at, &wo, err, sizeof err) != 0)
        die(EXIT_USAGE, "--at: %s: %s", files[0], err);
    if (vis_when_parse(profile2, at, &wn, err, sizeof err) != 0)
        die(EXIT_USAGE, "--at: %s: %s", files[1], err);
    if (wo.snap == SIZE_MAX || wn.snap == SIZE_MAX)
        die(EXIT_USAGE, "--at: '%s' comes before the first snapshot of %s", at,
            wo.snap == SIZE_MAX ? files[0] : files[1]);
    if (vis_diff_compute(profile, wo.snap, profile2, wn.snap, wo.kind == VIS_WHEN_PEAK, at,
                         &diff) != 0)
        die(EXIT_DATA, "out of memory");
    if (fg)
        diff_flamegraph(fg, at);
    if (image) {
        uint64_t ao = 0, an = 0;
        if (align) {
            size_t mo = SIZE_MAX, mn = SIZE_MAX;
            for (size_t k = profile->n_marks; k-- > 0;)
                if (!strcmp(profile->marks[k].label, align))
                    mo = k;
            for (size_t k = profile2->n_marks; k-- > 0;)
                if (!strcmp(profile2->marks[k].label, align))
                    mn = k;
            if (mo == SIZE_MAX || mn == SIZE_MAX)
                die(EXIT_USAGE, "--align: no phase mark '%s' in %s", align,
                    mo == SIZE_MAX ? files[0] : files[1]);
            ao = profile->marks[mo].time;
            an = profile2->marks[mn].time;
        }
        if (vis_diff_chart_png(profile, profile2, &diff, ao, an, align, top ? (top < 12 ? top : 12) : 12,
                               image, err, sizeof err) != 0)
            die(EXIT_DATA, "%s", err);
        if (!json)
            return finish_stdout(0);
    }
    if (json)
        vis_diff_json(stdout, profile, profile2, &diff);
    else
        vis_diff_text(stdout, profile, profile2, &diff, top);
    return finish_stdout(0);
}

/* memtime-vis check [--max-peak=SIZE] [--baseline=OLD --max-increase=PCT
 * [--allow=SIZE]] [--no-companion] FILE: exit 0 within the limits, 3 with
 * one line per limit broken. */
static int main_check(int argc, char **argv)
{
    const char *file = NULL, *baseline = NULL, *v;
    int no_companion = 0, has_allow = 0;
    vis_check_limits lim;
    memset(&lim, 0, sizeof lim);
    for (int i = 2; i < argc; i++) {
        if ((v = opt_value(argc, argv, &i, "max-peak"))) {
            if (vis_parse_size(v, &lim.max_peak) != 0)
                usage_error("--max-peak expects a size (4096, 512KiB, 100MiB, 2GiB, 10MB), got '%s'", v);
            lim.has_max_peak = 1;
        } else if ((v = opt_value(argc, argv, &i, "allow"))) {
            if (vis_parse_size(v, &lim.allow) != 0)
                usage_error("--allow expects a size (4096, 512KiB, 100MiB, 2GiB, 10MB), got '%s'", v);
            has_allow = 1;
        } else if ((v = opt_value(argc, argv, &i, "max-increase"))) {
            if (vis_parse_percent(v, &lim.max_increase_pct) != 0)
                usage_error("--max-increase expects a percentage (10, 2.5%%), got '%s'", v);
            lim.has_increase = 1;
        } else if ((v = opt_value(argc, argv, &i, "baseline"))) {
            baseline = v;
        } else if (!strcmp(argv[i], "--no-companion")) {
            no_companion = 1;
        } else if (argv[i][0] == '-' && argv[i][1]) {
            usage_error("check: unknown option '%s'", argv[i]);
        } else if (!file) {
            file = argv[i];
        } else {
            usage_error("check: expected one FILE, got '%s' and '%s'", file, argv[i]);
        }
    }
    if (!file)
        usage_error("check: expected a FILE");
    if (!lim.has_max_peak && !baseline)
        usage_error("check: give --max-peak=SIZE, or --baseline=OLD with --max-increase=PCT");
    if (!baseline != !lim.has_increase || (has_allow && !baseline))
        usage_error("check: --baseline, --max-increase (and --allow) go together");
    profile = load(file, no_companion);
    if (baseline) {
        profile2 = load(baseline, no_companion);
        if (vis_diff_compute(profile2, profile2->peak, profile, profile->peak, 1, "peak",
                             &diff) != 0)
            die(EXIT_DATA, "out of memory");
    }
    vis_check_result res;
    if (vis_check_eval(profile, baseline ? &diff : NULL, &lim, &res) != 0)
        die(EXIT_DATA, "out of memory");
    vis_check_text(stdout, &res, &lim);
    size_t broken = res.n;
    vis_check_result_free(&res);
    return finish_stdout(broken ? 3 : 0);
}

int main(int argc, char **argv)
{
    static char stdout_buf[VIS_OUT_BUF];   /* outfile.h */
    if (!isatty(STDOUT_FILENO))
        setvbuf(stdout, stdout_buf, _IOFBF, sizeof stdout_buf);
    if (argc > 1 && !strcmp(argv[1], "diff"))
        return main_diff(argc, argv);
    if (argc > 1 && !strcmp(argv[1], "check"))
        return main_check(argc, argv);
    static options o;   /* static: what it owns stays reachable on die() */
    vis_report_opts_default(&o.rep);
    vis_chart_opts_default(&o.chart);
    o.rep.top_n = o.chart.top_n;
    parse_args(&o, argc, argv);
    {
        struct stat st;
        if (o.n_inputs > 1 || (stat(o.input, &st) == 0 && S_ISDIR(st.st_mode))) {
            run_processes(&o);
            return 0;
        }
    }
    if (o.image) {
        const char *ext = extension(o.image);
        if (strcmp(ext, "png") && strcmp(ext, "svg") && strcmp(ext, "pdf") && strcmp(ext, "csv") &&
            strcmp(ext, "html"))
            usage_error("-o expects a file name ending in .png, .svg, .pdf, .csv or .html, got '%s'",
                        o.image);
    }

    int text = o.report || o.json || (!o.image && !o.gnuplot && !o.flamegraph && !o.collapsed && !o.pprof);
    char err[1024];
    FILE *in = input = fopen(o.input, "r");
    if (!in)
        die(EXIT_DATA, "%s: cannot open: %s", o.input, strerror(errno));
    /* The ms_print part's table and trees are rendered as the file is read,
     * so it is read once; without memory for that, the report reads the
     * trees again. */
    vis_massif_sink sink;
    if (text && report_has_ms_print(&o))
        body = vis_report_body_new(&o.rep, &sink);
    vis_profile *p = profile = vis_massif_read_sink(in, o.input, body ? &sink : NULL, err, sizeof err);
    if (!p)
        die(EXIT_DATA, "%s", err);
    if (p->truncated) {
        /* "PATH:LINE: expected X, found end of file" -> a warning. */
        const char *msg = p->truncated_msg;
        const char *rest = strstr(msg, ": expected ");
        int head = rest ? (int)(rest - msg) : 0;
        fprintf(stderr, PROG ": %.*s: warning: the file is cut short (%s); showing the %zu "
                "snapshot%s before the cut\n", head, msg, rest ? rest + 2 : msg,
                p->n_snaps, p->n_snaps == 1 ? "" : "s");
    }

    if (!o.no_companion) {
        char *cpath = NULL;
        const char *path = o.companion;
        if (!path) {
            if (!(cpath = vis_companion_path(o.input)))
                die(EXIT_DATA, "out of memory");
            path = cpath;
        }
        int rc = vis_companion_read(p, path, err, sizeof err);
        free(cpath);
        if (rc < 0)
            die(EXIT_DATA, "%s (use --no-companion to ignore it)", err);
        if (rc == 1 && o.companion)
            die(EXIT_DATA, "%s: cannot open: %s", o.companion, strerror(ENOENT));
    }

    /* The growth window, for the summary, --growth, --json (and the chart). */
    vis_when from = { VIS_WHEN_SNAPSHOT, p->snaps[0].time, 0, SIZE_MAX };
    vis_when to = { VIS_WHEN_END, p->snaps[p->n_snaps - 1].time, p->n_snaps - 1, SIZE_MAX };
    if (o.from && vis_when_parse(p, o.from, &from, err, sizeof err) != 0)
        die(EXIT_USAGE, "--from: %s", err);
    if (o.to && vis_when_parse(p, o.to, &to, err, sizeof err) != 0)
        die(EXIT_USAGE, "--to: %s", err);
    if (from.snap == SIZE_MAX)   /* before the first snapshot */
        from.snap = 0;
    if (to.snap == SIZE_MAX)
        die(EXIT_USAGE, "--to %s comes before the first snapshot", o.to);
    if (from.snap > to.snap)
        die(EXIT_USAGE, "--from %s (snapshot %zu) comes after --to %s (snapshot %zu)",
            o.from ? o.from : "", from.snap, o.to ? o.to : "end", to.snap);
    if (vis_analysis_compute(p, from.snap, to.snap, &analysis) != 0)
        die(EXIT_DATA, "out of memory");
    if (o.growth)
        o.chart.growth = &analysis.growth;

    write_charts(p, &o);
    write_exports(p, &o);

    if (text && o.report && strcmp(o.report, "-") != 0) {
        report_to_file(o.report, p, &o);
    } else if (text) {
        if (write_report(stdout, p, &o, err, sizeof err) != 0)
            die(EXIT_DATA, "%s", err);
    }
    vis_analysis_free(&analysis);
    vis_profile_free(p);
    profile = NULL;
    vis_report_body_free(body);
    body = NULL;
    fclose(input);
    input = NULL;
    free(o.ms_print_args);
    free(o.inputs);
    if (fflush(stdout) != 0 || ferror(stdout) || fclose(stdout) != 0)
        die(EXIT_DATA, "stdout: write error: %s", strerror(errno ? errno : EIO));
    return 0;
}
