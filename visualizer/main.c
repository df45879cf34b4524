/* main.c: memtime-vis, on top of the stages (visualizer/README.md): read/
 * parses the Massif file and memtime's companion, model/ is the checked
 * profile and the analyses computed from it, render/ has one writer per
 * output, base/ serves them all. This file takes the command line cli.c
 * parsed (one table for every subcommand and option), reads the inputs,
 * asks the model for the analyses and hands the results to the writers. It
 * is the only place that prints to stdout or stderr and exits; the exit
 * statuses are exit_status.h's.
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
#include <sys/stat.h>
#include <unistd.h>
#include "base/outfile.h"
#include "base/strfmt.h"
#include "cli.h"
#include "exit_status.h"
#include "follow.h"
#include "model/analysis.h"
#include "model/chart_data.h"
#include "model/diff.h"
#include "model/export.h"
#include "model/group_choice.h"
#include "model/groups.h"
#include "model/processes.h"
#include "model/profile.h"
#include "model/when.h"
#include "read/dumps.h"
#include "read/load.h"
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
    char *tmpdir;              /* heap dumps converted for this run, removed at exit */
    char *tmp_paths[4];        /* the profiles (and companions) written there */
    char *shown;               /* what the converted profile is called */
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
    for (size_t i = 0; i < sizeof r->tmp_paths / sizeof *r->tmp_paths; i++) {
        if (r->tmp_paths[i])
            remove(r->tmp_paths[i]);
        free(r->tmp_paths[i]);
    }
    if (r->tmpdir)
        rmdir(r->tmpdir);
    free(r->tmpdir);
    free(r->shown);
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

/* ---------------------------------------------------------- loading */

/* The one rule for a file cut short (read/load.h): its warnings, one
 * line each, on stderr; the command goes on with what is there. */
static void warn_cut_short(const vis_profile *p)
{
    char w[2048];
    for (size_t k = 0; vis_load_warning(p, k, w, sizeof w); k++)
        fprintf(stderr, PROG ": %s\n", w);
}

/* Loads the profile at path through the one loader (read/load.h) into
 * *pp, and reports it if cut short. */
static int load(run *r, vis_profile **pp, const char *path, const vis_load_opts *lo)
{
    char err[2048];
    if (!(*pp = vis_load_profile(path, lo, err, sizeof err)))
        return fail(r, VIS_EXIT_DATA, "%s", err);
    warn_cut_short(*pp);
    return VIS_EXIT_OK;
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
static int report_has_ms_print(const vis_options *o)
{
    return !o->json && !o->growth && !o->summary_only;
}

typedef struct {
    run *r;
    const vis_options *o;
} report_ctx;

/* Writes the text report to out (vis_out_fn); returns 0 or -1 with err. */
static int write_report(FILE *out, void *ctx, char *err, size_t errsz)
{
    const report_ctx *c = ctx;
    const vis_options *o = c->o;
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
    const vis_options *o;
    const vis_chart_data *d;
    FILE *in;
} html_ctx;

/* One grouping of the page's selector: the profile read again and grouped
 * by by (vis_profile_regroup rewrites the sites in place, so each grouping
 * is a profile of its own), with the same window's analyses and chart. */
typedef struct {
    vis_profile *p;
    vis_analysis an;
    vis_chart_data *d;
} html_view;

static void html_view_free(html_view *v)
{
    vis_chart_data_free(v->d);
    vis_analysis_free(&v->an);
    vis_profile_free(v->p);
    memset(v, 0, sizeof *v);
}

static int html_view_load(const run *r, const vis_options *o, vis_group_by by, html_view *v,
                          char *err, size_t errsz)
{
    memset(v, 0, sizeof *v);
    /* The same file as the run's own load, whose warnings are printed. */
    vis_load_opts lo = { .companion = o->companion, .no_companion = o->no_companion };
    if (!(v->p = vis_load_profile(o->inputs[0], &lo, err, errsz)))
        return -1;
    vis_group_opts g = o->group;
    g.by = by;
    if (vis_profile_regroup(v->p, &g) != 0 ||
        vis_analysis_compute(v->p, r->analysis.growth.from, r->analysis.growth.to, &v->an) != 0) {
        snprintf(err, errsz, "out of memory");
        return -1;
    }
    return (v->d = vis_chart_data_new(v->p, (size_t)o->chart.top_n, err, errsz)) ? 0 : -1;
}

/* The page (html.h): the grouping the command line chose (or the default
 * rule), then every grouping the selector offers (group_choice.h), each
 * loaded, written and freed in turn. */
static int write_html_page(FILE *out, void *ctx, char *err, size_t errsz)
{
    const html_ctx *c = ctx;
    const vis_options *o = c->o;
    const run *r = c->r;
    const vis_profile *p = r->profile;
    vis_json_report_opts jo = { o->rep.threshold, VIS_HTML_MAX_DEPTH, 0 };
    if (vis_html_begin(out, p, &r->analysis, c->d, c->in, &jo, err, errsz) != 0)
        return -1;
    vis_group_by def = p->grouping.applied ? p->grouping.by : VIS_GROUP_SITE;
    html_view site = { 0 }, v = { 0 };
    int rc = 0;
    size_t k = 0;
    /* Which groupings make sense is read from the sites before grouping. */
    if (def != VIS_GROUP_SITE)
        rc = html_view_load(r, o, VIS_GROUP_SITE, &site, err, errsz);
    const vis_profile *sp = def == VIS_GROUP_SITE ? p : site.p;
    for (int by = VIS_GROUP_SITE; by < VIS_GROUP_AUTO && rc == 0; by++) {
        if (by == (int)def) {
            rc = vis_html_grouping(out, p, &r->analysis, c->d, 1, k++, err, errsz);
        } else if (by == VIS_GROUP_SITE) {
            rc = vis_html_grouping(out, site.p, &site.an, site.d, 0, k++, err, errsz);
        } else if (vis_group_offered(sp, (vis_group_by)by)) {
            rc = html_view_load(r, o, (vis_group_by)by, &v, err, errsz);
            if (rc == 0)
                rc = vis_html_grouping(out, v.p, &v.an, v.d, 0, k++, err, errsz);
            html_view_free(&v);
        }
    }
    html_view_free(&site);
    return rc == 0 ? vis_html_end(out, err, errsz) : -1;
}

/* The interactive report (html.h); the trees are re-read from the input. */
static int write_html(run *r, const vis_options *o)
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

static int write_charts(run *r, const vis_options *o)
{
    char err[1024];
    const vis_profile *p = r->profile;
    if (o->gnuplot) {
        /* The script draws -o's image when gnuplot is what draws it. */
        const char *ext = o->image ? vis_cli_extension(o->image) : "";
        const char *img = NULL;
        if (o->image && strcmp(ext, "png") != 0 && strcmp(ext, "csv") != 0 &&
            strcmp(ext, "html") != 0)
            img = o->image;
        if (vis_chart_write_gnuplot(p, &o->chart, o->gnuplot, img, err, sizeof err) != 0)
            return fail(r, VIS_EXIT_DATA, "%s", err);
    }
    if (!o->image)
        return VIS_EXIT_OK;
    const char *ext = vis_cli_extension(o->image);
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
    } else if (!strcmp(ext, "csv") && vis_cli_is_outline_csv(o->image)) {
        rc = vis_csv_outline_write_file(p, o->image, err, sizeof err);
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
static int write_exports(run *r, const vis_options *o)
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

/* Several profiles, or a directory of them: the listing, or with -o the
 * chart of every process on one time axis. */
static int run_processes(run *r, const vis_options *o)
{
    char err[1024];
    if (o->gnuplot || o->report || o->summary_only || o->ms_print_only || o->companion ||
        o->flamegraph || o->collapsed || o->pprof || o->snapshot)
        return usage_fail(r, "with several profiles only -o IMG.png, --width and --height apply");
    if (o->image && strcmp(vis_cli_extension(o->image), "png") != 0)
        return usage_fail(r, "with several profiles -o writes a .png, got '%s'", o->image);
    if (!(r->procs = calloc(1, sizeof *r->procs)))
        return fail(r, VIS_EXIT_DATA, "out of memory");
    vis_load_opts lo = { .no_companion = o->no_companion };
    for (int i = 0; i < o->n_inputs; i++) {
        struct stat st;
        int is_dir = stat(o->inputs[i], &st) == 0 && S_ISDIR(st.st_mode);
        if ((is_dir ? vis_procs_add_directory : vis_procs_add)(r->procs, o->inputs[i], &lo, err,
                                                               sizeof err) != 0)
            return fail(r, VIS_EXIT_DATA, "%s", err);
    }
    if (vis_procs_finish(r->procs, err, sizeof err) != 0)
        return fail(r, VIS_EXIT_DATA, "%s", err);
    for (size_t i = 0; i < r->procs->n; i++)
        warn_cut_short(r->procs->procs[i].profile);
    if (!o->image) {
        vis_procs_list(stdout, r->procs);
    } else if (vis_procs_write_png(r->procs, o->chart.width, o->chart.height, o->image, err,
                                   sizeof err) != 0) {
        return fail(r, VIS_EXIT_DATA, "%s", err);
    }
    return VIS_EXIT_OK;
}

/* ----------------------------------------------------------- one profile */

/* memtime-vis [options] FILE: the report, charts and exports of one profile. */
static int run_show(run *r, vis_options *o)
{
    char err[1024];
    int rc;
    if (o->image) {
        const char *ext = vis_cli_extension(o->image);
        if (strcmp(ext, "png") && strcmp(ext, "svg") && strcmp(ext, "pdf") && strcmp(ext, "csv") &&
            strcmp(ext, "html"))
            return usage_fail(r, "-o expects a file name ending in .png, .svg, .pdf, .csv or "
                              ".html, got '%s'", o->image);
    }
    int text = o->report || o->json ||
               (!o->image && !o->gnuplot && !o->flamegraph && !o->collapsed && !o->pprof);
    /* The ms_print part's table and trees are rendered as the file is read,
     * so it is read once; without memory for that, the report reads the
     * trees again. The file stays open for the trees' second pass. */
    vis_massif_sink sink;
    if (text && report_has_ms_print(o))
        r->body = vis_report_body_new(&o->rep, &sink);
    vis_load_opts lo = { .companion = o->companion, .no_companion = o->no_companion,
                         .sink = r->body ? &sink : NULL, .keep = &r->input };
    if ((rc = load(r, &r->profile, o->inputs[0], &lo)) != 0)
        return rc;
    vis_profile *p = r->profile;
    if (r->shown) {            /* converted heap dumps: name them, not the temporary file */
        free(p->path);
        p->path = r->shown;
        r->shown = NULL;
    }
    if (vis_profile_regroup(p, &o->group) != 0)
        return fail(r, VIS_EXIT_DATA, "out of memory");

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
        return fail(r, VIS_EXIT_USAGE,
                    "--from %s (snapshot %zu) comes after --to %s (snapshot %zu)",
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

/* Loads a profile of diff or check (load), then groups it as g asks; an
 * automatic grouping is settled in g, so that the second profile of a diff
 * or check is grouped as the first. */
static int load_grouped(run *r, vis_profile **pp, const char *path, const vis_options *o,
                        vis_group_opts *g)
{
    vis_load_opts lo = { .no_companion = o->no_companion };
    int rc = load(r, pp, path, &lo);
    if (rc != VIS_EXIT_OK)
        return rc;
    if (vis_profile_regroup(*pp, g) != 0)
        return fail(r, VIS_EXIT_DATA, "out of memory");
    /* The next profile is grouped as this one is: its default's descent too
     * (the profile stays loaded while the next is read). */
    g->by = (*pp)->grouping.by;
    g->descend = (*pp)->grouping.descend;
    return VIS_EXIT_OK;
}

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
static int run_diff(run *r, const vis_options *o)
{
    char err[1024];
    const char *at = o->at ? o->at : "peak";
    int rc;
    const char *old = o->inputs[0], *new_ = o->inputs[1];
    vis_group_opts g = o->group;
    if ((rc = load_grouped(r, &r->profile, old, o, &g)) != 0 ||
        (rc = load_grouped(r, &r->profile2, new_, o, &g)) != 0)
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
static int run_check(run *r, vis_options *o)
{
    vis_check_limits *lim = &o->lim;
    vis_group_opts g = o->group;
    int rc;
    if ((rc = load_grouped(r, &r->profile, o->inputs[0], o, &g)) != 0)
        return rc;
    if (o->baseline) {
        if ((rc = load_grouped(r, &r->profile2, o->baseline, o, &g)) != 0)
            return rc;
        if (vis_diff_compute(r->profile2, r->profile2->peak, r->profile, r->profile->peak, 1,
                             "peak", &r->diff) != 0)
            return fail(r, VIS_EXIT_DATA, "out of memory");
    }
    vis_check_result res;
    if (vis_check_eval(r->profile, r->profile2, o->baseline ? &r->diff : NULL, lim, &res) != 0)
        return fail(r, VIS_EXIT_DATA, "out of memory");
    vis_check_text(stdout, &res, lim);
    size_t broken = res.n;
    vis_check_result_free(&res);
    return broken ? VIS_EXIT_CHECK : VIS_EXIT_OK;
}

/* ------------------------------------------------------------------ main */

/* memtime-vis --follow FILE|DIR: the live view (follow.h), which alone
 * writes the terminal while it runs. */
static int run_follow(run *r, const vis_options *o)
{
    /* Grouped only when asked: by default the live view lists the sites. */
    int grouped = vis_cli_given(o, "group-by") || vis_cli_given(o, "namespace-depth") ||
                  vis_cli_given(o, "keep-wrappers") || vis_cli_given(o, "threshold");
    vis_follow_opts fo = { o->inputs[0], o->companion, o->no_companion, o->top,
                           grouped ? &o->group : NULL, &o->dumps };
    int rc = vis_follow_run(&fo, r->msg, sizeof r->msg);
    r->usage = rc == VIS_EXIT_USAGE;
    return rc;
}

/* ------------------------------------------------------------ heap dumps */

/* Converts the dumps paths[0..n) (read/dumps.h) into out; the gaps it
 * leaves are warnings. */
static int convert_series(run *r, const vis_options *o, const char *const *paths, size_t n,
                          const char *out, char *shown, size_t shownsz)
{
    char warn[4096], err[2048];
    if (vis_dumps_convert(paths, n, &o->dumps, out, shown, shownsz, warn, sizeof warn, err,
                          sizeof err) != 0)
        return fail(r, VIS_EXIT_DATA, "%s", err);
    for (char *l = warn; *l;) {
        char *nl = strchr(l, '\n');
        fprintf(stderr, PROG ": warning: %.*s\n", (int)(nl ? nl - l : (long)strlen(l)), l);
        l = nl ? nl + 1 : l + strlen(l);
    }
    return VIS_EXIT_OK;
}

/* Heap dumps given where a profile is expected are converted into a
 * temporary profile (removed at exit) that the run then reads as any
 * other: the main command's inputs together as one series, diff's and
 * check's each on its own. */
static int convert_inputs(run *r, vis_options *o)
{
    if (o->cmd == VIS_CMD_CONVERT)
        return convert_series(r, o, o->inputs, (size_t)o->n_inputs, o->image, NULL, 0);
    int any = 0;
    for (int i = 0; i < o->n_inputs; i++)
        any |= vis_dumps_sniff(o->inputs[i]) != VIS_DUMP_NONE;
    const char *base = o->cmd == VIS_CMD_CHECK ? o->baseline : NULL;
    int base_dump = base && vis_dumps_sniff(base) != VIS_DUMP_NONE;
    if (!any && !base_dump)
        return VIS_EXIT_OK;
    if (o->follow)
        return usage_fail(r, "--follow reads a profile memtime is writing; heap dumps are "
                          "shown whole: give them without --follow");
    const char *tmp = getenv("TMPDIR");
    if (!(r->tmpdir = vis_strfmt("%s/memtime-vis.XXXXXX", tmp && *tmp ? tmp : "/tmp")))
        return fail(r, VIS_EXIT_DATA, "out of memory");
    if (!mkdtemp(r->tmpdir)) {
        int e = errno;
        free(r->tmpdir);
        r->tmpdir = NULL;
        return fail(r, VIS_EXIT_DATA, "cannot make a temporary directory: %s", strerror(e));
    }
    /* One series of the main command's and check's inputs; diff's each on
     * its own; check's baseline on its own. */
    int one = o->cmd != VIS_CMD_DIFF;
    size_t groups = (one ? 1 : (size_t)o->n_inputs) + (base_dump ? 1 : 0);
    for (size_t g = 0; g < groups; g++) {
        int is_base = base_dump && g == groups - 1;
        const char **in = is_base ? &o->baseline : &o->inputs[g];
        size_t n = one && !is_base ? (size_t)o->n_inputs : 1;
        size_t dumps = 0;
        for (size_t i = 0; i < n; i++)
            dumps += vis_dumps_sniff(in[i]) != VIS_DUMP_NONE;
        if (dumps == 0)
            continue;
        for (size_t i = 0; i < n && dumps < n; i++)
            if (vis_dumps_sniff(in[i]) == VIS_DUMP_NONE)
                return fail(r, VIS_EXIT_DATA, "%s: not a heap dump, but given with heap dumps "
                            "(the dumps given together are one profile)", in[i]);
        char *out = vis_strfmt("%s/profile%zu.out", r->tmpdir, g);
        char *comp = out ? vis_strfmt("%s.memtime", out) : NULL;
        if (!comp) {
            free(out);
            return fail(r, VIS_EXIT_DATA, "out of memory");
        }
        r->tmp_paths[2 * g] = comp;      /* removed first: the directory empties */
        r->tmp_paths[2 * g + 1] = out;
        char shown[8192];
        int rc = convert_series(r, o, in, n, out, shown, sizeof shown);
        if (rc != 0)
            return rc;
        if (o->cmd == VIS_CMD_SHOW && !r->shown)
            r->shown = vis_strfmt("%s", shown);
        *in = out;
        if (one && !is_base)
            o->n_inputs = 1;
    }
    return VIS_EXIT_OK;
}

static int dispatch(run *r, vis_options *o)
{
    int rc;
    if ((rc = convert_inputs(r, o)) != 0 || o->cmd == VIS_CMD_CONVERT)
        return rc;
    if (o->follow)
        return run_follow(r, o);
    if (o->cmd == VIS_CMD_DIFF)
        return run_diff(r, o);
    if (o->cmd == VIS_CMD_CHECK)
        return run_check(r, o);
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
    vis_options o;
    memset(&r, 0, sizeof r);
    int status = vis_cli_parse(&o, argc, argv, r.msg, sizeof r.msg);
    r.usage = status == VIS_EXIT_USAGE;
    if (status == VIS_EXIT_OK && o.asked == VIS_CLI_HELP)
        fputs(vis_cli_usage, stdout);
    else if (status == VIS_EXIT_OK && o.asked == VIS_CLI_VERSION)
        printf("%s %s\n", PROG, PACKAGE_VERSION);
    else if (status == VIS_EXIT_OK)
        status = dispatch(&r, &o);
    if (status == VIS_EXIT_OK || status == VIS_EXIT_CHECK) {
        int rc = close_stdout(&r);
        if (rc != VIS_EXIT_OK)
            status = rc;
    }
    run_free(&r);
    vis_cli_free(&o);
    if (r.msg[0]) {
        fprintf(stderr, PROG ": %s\n", r.msg);
        if (r.usage)
            fputs("Try '" PROG " --help' for more information.\n", stderr);
    }
    return status;
}
