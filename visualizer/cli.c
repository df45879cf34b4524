/* cli.c: memtime-vis's command line (cli.h): one table of every option of
 * every subcommand, one loop that parses them, and the checks between
 * options made once all are read. It prints nothing: main.c prints the
 * help, the version and the errors. */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "base/units.h"
#include "cli.h"
#include "render/chart.h"

#define PROG "memtime-vis"
#define VIS_STR_(x) #x
#define VIS_STR(x) VIS_STR_(x)

const char vis_cli_usage[] =
    "usage: " PROG " [options] FILE\n"
    "       " PROG " diff [--at=WHEN] [--json] [--top=N] [--flamegraph=SVG]\n"
    "                  [-o DIFF.png [--align=MARK]] OLD NEW\n"
    "       " PROG " check [--max-peak=SIZE] [--baseline=OLD --max-increase=PCT\n"
    "                   [--allow=SIZE]] FILE\n"
    "       " PROG " [-o IMG.png] FILE FILE... | DIRECTORY\n"
    "       " PROG " --follow [--top=N] FILE | DIRECTORY\n"
    "       " PROG " convert [--threshold=P] DUMP... -o FILE\n"
    "Reads a Massif-format profile (memtime's or Massif's) and writes a timeline\n"
    "chart and text reports. Without -o or --gnuplot, prints the text report.\n"
    "Given several profiles (one per process) or a directory of them, prints one\n"
    "line per process, and -o IMG.png draws them all on one time axis.\n"
    "Heap dumps taken in production (jemalloc's jeprof.PID.SEQ.*.heap) are read\n"
    "wherever a profile is: the dumps of one process given together are one\n"
    "profile, one snapshot per dump; convert writes them as a Massif file.\n"
    "\n"
    "  -o, --output=FILE     write the chart: .png (built in), .svg or .pdf (gnuplot),\n"
    "                        its series as .csv, or an interactive report as .html;\n"
    "                        NAME.outline.csv: memtime's exact outline, one row a span\n"
    "      --gnuplot=SCRIPT  write a self-contained gnuplot script with its data\n"
    "      --flamegraph=SVG  write one snapshot's tree as an interactive flamegraph\n"
    "      --collapsed=TXT   write it as folded stacks (flamegraph.pl, speedscope)\n"
    "      --pprof=PB_GZ     write it as a gzipped pprof profile (go tool pprof)\n"
    "      --snapshot=WHEN   the snapshot exported: #N, peak, end, a time (1.5s), a mark\n"
    "                        [peak]; the last detailed one at or before it\n"
    "      --report=TXT      write the text report to TXT ('-' for stdout)\n"
    "      --summary-only    text report: only the summary\n"
    "      --ms-print-only   text report: only the ms_print-compatible part\n"
    "      --threshold=P     ms_print tree threshold in percent, 0..100 [1.0]; also\n"
    "                        the groups' (smaller groups merge into one line)\n"
    "      --group-by=G      site, function, file, object, crate, namespace or auto:\n"
    "                        crate for Rust, namespace for C++, else site [auto]\n"
    "      --namespace-depth=N  scopes a namespace group keeps, 1..16 [1]\n"
    "      --keep-wrappers   keep allocation wrappers found as sites (by default\n"
    "                        their callers are the sites, where memtime's detail\n"
    "                        shows them)\n"
    "      --x=N, --y=N      ms_print graph columns, rows, 4..1000 [72, 20]\n"
    "      --top=N           allocation sites shown separately, " VIS_STR(VIS_TOP_MIN) ".." VIS_STR(VIS_TOP_MAX) " [8]\n"
    "      --growth          print the sites ranked by growth (steady growers first);\n"
    "                        with -o, mark the steady growers on the chart\n"
    "      --from=WHEN, --to=WHEN  the growth window [whole run]: 250ms, 1.5s, 2min,\n"
    "                        3h, a number in the file's unit, #SNAPSHOT, peak, end,\n"
    "                        or a phase mark's label\n"
    "      --json            print one JSON document instead of the text report\n"
    "      --width=N, --height=N  chart size in pixels, 320..8000 x 240..8000 [1600x900]\n"
    "      --follow          keep a live view of FILE (or of every profile in\n"
    "                        DIRECTORY) while memtime writes it; q quits\n"
    "      --companion=FILE  memtime companion file [FILE.memtime if present]\n"
    "      --binary=FILE     heap dumps: the program's file, if it moved since\n"
    "      --search-path=DIR[:DIR...]  heap dumps: where moved objects are (a\n"
    "                        directory holding them, or a root the paths are under)\n"
    "      --clock=C         heap dumps: mtime (files' times), seq (dump numbers),\n"
    "                        alloc (bytes allocated, with --lg-prof-interval), auto\n"
    "                        [auto: mtime when each dump has its own ms, else seq]\n"
    "      --lg-prof-interval=N  the lg_prof_interval the dumps were taken with\n"
    "      --no-companion    do not read a companion file\n"
    "  -h, --help            show this help\n"
    "      --version         show the version\n";

typedef enum {
    OPT_FLAG,                  /* sets an int to 1 */
    OPT_TEXT,                  /* keeps its value as given */
    OPT_INT,                   /* a whole number in lo..hi */
    OPT_PERCENT,               /* a percentage (vis_parse_percent), at most hi
                                  unless hi < 0 */
    OPT_SIZE,                  /* a size in bytes (vis_parse_size) */
    OPT_HELP, OPT_VERSION
} opt_kind;

/* Where a parse stands when it fails: the message and the status. */
typedef struct {
    char *err;
    size_t errsz;
} cli;

static int nomem(cli *c)
{
    snprintf(c->err, c->errsz, "out of memory");
    return VIS_EXIT_DATA;
}

/* A usage error (main points the user at --help). */
static int usage(cli *c, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->err, c->errsz, fmt, ap);
    va_end(ap);
    return VIS_EXIT_USAGE;
}

/* Every option of every subcommand. -o and -h take one dash ("-o FILE"),
 * every other name two ("--top=3", "--top 3", "--x=60"); the main
 * command's flags also take one dash, as they always have. An option
 * echoed (echo) is repeated in the ms_print part's "ms_print arguments:"
 * line, as ms_print repeats its own. */
#define OFF(f) offsetof(vis_options, f)
enum { SHOW = VIS_CMD_SHOW, DIFF = VIS_CMD_DIFF, CHECK = VIS_CMD_CHECK, CONVERT = VIS_CMD_CONVERT };
#define DUMPS (SHOW | DIFF | CHECK | CONVERT)
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
    { "h", SHOW, OPT_HELP, 0, 0, 0, NULL, 0, 1 },
    { "help", SHOW, OPT_HELP, 0, 0, 0, NULL, 0, 0 },
    { "version", SHOW, OPT_VERSION, 0, 0, 0, NULL, 0, 0 },
    { "summary-only", SHOW, OPT_FLAG, OFF(summary_only), 0, 0, NULL, 0, 0 },
    { "ms-print-only", SHOW, OPT_FLAG, OFF(ms_print_only), 0, 0, NULL, 0, 0 },
    { "no-companion", SHOW | DIFF | CHECK, OPT_FLAG, OFF(no_companion), 0, 0, NULL, 0, 0 },
    { "json", SHOW | DIFF, OPT_FLAG, OFF(json), 0, 0, NULL, 0, 0 },
    { "growth", SHOW, OPT_FLAG, OFF(growth), 0, 0, NULL, 0, 0 },
    { "follow", SHOW, OPT_FLAG, OFF(follow), 0, 0, NULL, 0, 0 },
    { "o", SHOW | DIFF | CONVERT, OPT_TEXT, OFF(image), 0, 0, NULL, 0, 1 },
    { "output", SHOW | DIFF | CONVERT, OPT_TEXT, OFF(image), 0, 0, NULL, 0, 0 },
    { "binary", DUMPS, OPT_TEXT, OFF(binary), 0, 0, NULL, 0, 0 },
    { "search-path", DUMPS, OPT_TEXT, OFF(search_path), 0, 0, NULL, 0, 0 },
    { "clock", DUMPS, OPT_TEXT, OFF(clock), 0, 0, NULL, 0, 0 },
    { "lg-prof-interval", DUMPS, OPT_INT, OFF(lg_interval), 0, 62, NULL, 0, 0 },
    { "gnuplot", SHOW, OPT_TEXT, OFF(gnuplot), 0, 0, NULL, 0, 0 },
    { "report", SHOW, OPT_TEXT, OFF(report), 0, 0, NULL, 0, 0 },
    { "companion", SHOW, OPT_TEXT, OFF(companion), 0, 0, NULL, 0, 0 },
    { "flamegraph", SHOW | DIFF, OPT_TEXT, OFF(flamegraph), 0, 0, NULL, 0, 0 },
    { "collapsed", SHOW, OPT_TEXT, OFF(collapsed), 0, 0, NULL, 0, 0 },
    { "pprof", SHOW, OPT_TEXT, OFF(pprof), 0, 0, NULL, 0, 0 },
    { "snapshot", SHOW, OPT_TEXT, OFF(snapshot), 0, 0, NULL, 0, 0 },
    { "from", SHOW, OPT_TEXT, OFF(from), 0, 0, NULL, 0, 0 },
    { "to", SHOW, OPT_TEXT, OFF(to), 0, 0, NULL, 0, 0 },
    { "threshold", SHOW, OPT_PERCENT, OFF(rep.threshold), 0, 100,
      "a percentage from 0 to 100", 1, 0 },
    { "threshold", DIFF | CHECK | CONVERT, OPT_PERCENT, OFF(rep.threshold), 0, 100,
      "a percentage from 0 to 100", 0, 0 },
    { "group-by", SHOW | DIFF | CHECK, OPT_TEXT, OFF(group_by), 0, 0, NULL, 0, 0 },
    { "namespace-depth", SHOW | DIFF | CHECK, OPT_INT, OFF(ns_depth), 1, 16, NULL, 0, 0 },
    { "keep-wrappers", SHOW | DIFF | CHECK, OPT_FLAG, OFF(keep_wrappers), 0, 0, NULL, 0, 0 },
    { "x", SHOW, OPT_INT, OFF(rep.graph_x), 4, 1000, NULL, 1, 0 },
    { "y", SHOW, OPT_INT, OFF(rep.graph_y), 4, 1000, NULL, 1, 0 },
    { "top", SHOW, OPT_INT, OFF(top), VIS_TOP_MIN, VIS_TOP_MAX, NULL, 0, 0 },
    { "width", SHOW, OPT_INT, OFF(chart.width), VIS_CHART_MIN_WIDTH, VIS_CHART_MAX_PX,
      NULL, 0, 0 },
    { "height", SHOW, OPT_INT, OFF(chart.height), VIS_CHART_MIN_HEIGHT, VIS_CHART_MAX_PX,
      NULL, 0, 0 },
    { "at", DIFF, OPT_TEXT, OFF(at), 0, 0, NULL, 0, 0 },
    { "align", DIFF, OPT_TEXT, OFF(align), 0, 0, NULL, 0, 0 },
    { "top", DIFF, OPT_INT, OFF(diff_top), 1, 1000000, NULL, 0, 0 },
    { "max-peak", CHECK, OPT_SIZE, OFF(lim.max_peak), 0, 0,
      "a size (4096, 512KiB, 100MiB, 2GiB, 10MB)", 0, 0 },
    { "allow", CHECK, OPT_SIZE, OFF(lim.allow), 0, 0,
      "a size (4096, 512KiB, 100MiB, 2GiB, 10MB)", 0, 0 },
    { "max-increase", CHECK, OPT_PERCENT, OFF(lim.max_increase_pct), 0, -1,
      "a percentage (10, 2.5%)", 0, 0 },
    { "baseline", CHECK, OPT_TEXT, OFF(baseline), 0, 0, NULL, 0, 0 },
};
#undef OFF
#define N_OPTS (sizeof opts / sizeof *opts)
typedef char opts_fit_given[N_OPTS <= sizeof ((vis_options *)0)->given ? 1 : -1];

/* Whether the option called name was given. */
int vis_cli_given(const vis_options *o, const char *name)
{
    for (size_t k = 0; k < N_OPTS; k++)
        if ((opts[k].cmds & o->cmd) && !strcmp(opts[k].name, name))
            return o->given[k];
    return 0;
}

static int append_arg(cli *c, vis_options *o, const char *a, const char *b)
{
    size_t old = o->ms_print_args ? strlen(o->ms_print_args) : 0;
    size_t add = 1 + strlen(a) + (b ? strlen(b) : 0);
    char *s = realloc(o->ms_print_args, old + add + 1);
    if (!s)
        return nomem(c);
    snprintf(s + old, add + 1, " %s%s", a, b ? b : "");
    o->ms_print_args = s;
    return VIS_EXIT_OK;
}

/* Stores val into the option's field. Returns 0 or a usage error. */
static int set_option(cli *c, vis_options *o, const struct opt *op, const char *val)
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
            return usage(c, "--%s expects a whole number from %ld to %ld, got '%s'", op->name,
                         op->lo, op->hi, val);
        *(int *)field = (int)n;
        break;
    }
    case OPT_PERCENT: {
        double pct;
        if (vis_parse_percent(val, &pct) != 0 || (op->hi >= 0 && pct > (double)op->hi))
            return usage(c, "--%s expects %s, got '%s'", op->name, op->expects, val);
        *(double *)field = pct;
        break;
    }
    case OPT_SIZE:
        if (vis_parse_size(val, (uint64_t *)(void *)field) != 0)
            return usage(c, "--%s expects %s, got '%s'", op->name, op->expects, val);
        break;
    default:
        break;
    }
    if (op->echo) {
        char name[32];
        snprintf(name, sizeof name, "--%s=", op->name);
        return append_arg(c, o, name, val);
    }
    return VIS_EXIT_OK;
}

/* A FILE argument: the main command takes any number, diff two, check one. */
static int add_input(cli *c, vis_options *o, const char *a)
{
    if (o->cmd == VIS_CMD_DIFF && o->n_inputs == 2)
        return usage(c, "diff: expected two files OLD NEW, got a third, '%s'", a);
    const char **in = realloc(o->inputs, (size_t)(o->n_inputs + 1) * sizeof *in);
    if (!in)
        return nomem(c);
    o->inputs = in;
    in[o->n_inputs++] = a;
    if (o->cmd == VIS_CMD_SHOW && o->n_inputs == 1)
        return append_arg(c, o, a, NULL);
    return VIS_EXIT_OK;
}

/* Parses argv[first..] for the command o->cmd in one loop over opts[]. */
static int parse_args(cli *c, vis_options *o, int argc, char **argv, int first)
{
    static const char *const prefix[] = { [VIS_CMD_SHOW] = "", [VIS_CMD_DIFF] = "diff: ",
                                          [VIS_CMD_CHECK] = "check: ",
                                          [VIS_CMD_CONVERT] = "convert: " };
    int only_files = 0, rc;
    for (int i = first; i < argc; i++) {
        char *a = argv[i];
        if (only_files || a[0] != '-' || !a[1]) {
            if ((rc = add_input(c, o, a)) != 0)
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
                return usage(c, "%sunknown option '%s'", prefix[o->cmd], a);
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
                             (op->kind == OPT_FLAG && o->cmd == VIS_CMD_SHOW));
        if (!op || !dash_ok || (val && (op->kind == OPT_HELP || op->kind == OPT_VERSION)))
            return usage(c, "%sunknown option '%s'", prefix[o->cmd], a);
        o->given[k] = 1;
        if (op->kind == OPT_HELP || op->kind == OPT_VERSION) {
            o->asked = op->kind == OPT_HELP ? VIS_CLI_HELP : VIS_CLI_VERSION;
            return VIS_EXIT_OK;
        }
        if (op->kind == OPT_FLAG) {
            if (val)
                return usage(c, "option '--%s' takes no value", name);
            *(int *)((char *)o + op->off) = 1;
            continue;
        }
        if (!val) {
            if (i + 1 >= argc)
                return usage(c, "option '%s' needs a value", a);
            val = argv[++i];
        }
        if ((rc = set_option(c, o, op, val)) != 0)
            return rc;
    }
    return VIS_EXIT_OK;
}

const char *vis_cli_extension(const char *path)
{
    const char *slash = strrchr(path, '/');
    const char *dot = strrchr(path, '.');
    return dot && (!slash || dot > slash) ? dot + 1 : "";
}

int vis_cli_is_outline_csv(const char *path)
{
    size_t n = strlen(path), k = strlen(".outline.csv");
    return n > k && !strcmp(path + n - k, ".outline.csv") && path[n - k - 1] != '/';
}

/* The main command's checks between options, made once all are read. */
static int check_show(cli *c, vis_options *o)
{
    if (o->n_inputs == 0)
        return usage(c, "expected an input FILE");
    if (o->summary_only && o->ms_print_only)
        return usage(c, "--summary-only and --ms-print-only exclude each other");
    if (o->snapshot && (o->from || o->to))
        return usage(c, "--snapshot and --from/--to exclude each other: with a window the "
                     "exports show --to's moment");
    if (o->snapshot && !o->flamegraph && !o->collapsed && !o->pprof)
        return usage(c, "--snapshot picks the snapshot of --flamegraph, --collapsed or "
                     "--pprof; none was given");
    if (o->json && (o->summary_only || o->ms_print_only || o->growth))
        return usage(c, "--json excludes --summary-only, --ms-print-only and --growth");
    if (o->follow) {
        /* The live view takes what it shows from its own options only. */
        static const char *const other[] = { "o", "output", "gnuplot", "report", "flamegraph",
            "collapsed", "pprof", "snapshot", "from", "to", "json", "growth", "summary-only",
            "ms-print-only", "x", "y", "width", "height" };
        for (size_t k = 0; k < sizeof other / sizeof *other; k++)
            if (vis_cli_given(o, other[k]))
                return usage(c, "--follow takes only --top, --companion, --no-companion, "
                             "--group-by, --namespace-depth, --keep-wrappers and --threshold, "
                             "not %s%s", other[k][1] ? "--" : "-", other[k]);
        if (o->n_inputs != 1)
            return usage(c, "--follow expects one FILE or DIRECTORY, got %d", o->n_inputs);
    }
    o->rep.ms_print_args = o->ms_print_args;
    o->chart.top_n = o->rep.top_n = o->top;
    return VIS_EXIT_OK;
}

/* diff's and check's checks between options. */
static int check_diff(cli *c, const vis_options *o)
{
    if (o->n_inputs != 2)
        return usage(c, "diff: expected two files, OLD and NEW");
    if (o->image && strcmp(vis_cli_extension(o->image), "png") != 0)
        return usage(c, "diff: -o expects a file name ending in .png, got '%s'",
                     o->image);
    if (o->align && !o->image)
        return usage(c, "diff: --align places the two runs on the chart: give -o DIFF.png");
    return VIS_EXIT_OK;
}

static int check_check(cli *c, vis_options *o)
{
    vis_check_limits *lim = &o->lim;
    lim->has_max_peak = vis_cli_given(o, "max-peak");
    lim->has_increase = vis_cli_given(o, "max-increase");
    if (o->n_inputs == 0)
        return usage(c, "check: expected a FILE");
    /* Several only as one series of heap dumps (main.c converts them). */
    for (int i = 1; i < o->n_inputs; i++)
        if (vis_dumps_sniff(o->inputs[0]) == VIS_DUMP_NONE ||
            vis_dumps_sniff(o->inputs[i]) == VIS_DUMP_NONE)
            return usage(c, "check: expected one FILE, got '%s' and '%s'", o->inputs[0],
                         o->inputs[i]);
    if (!lim->has_max_peak && !o->baseline)
        return usage(c, "check: give --max-peak=SIZE, or --baseline=OLD with --max-increase=PCT");
    if (!o->baseline != !lim->has_increase || (vis_cli_given(o, "allow") && !o->baseline))
        return usage(c, "check: --baseline, --max-increase (and --allow) go together");
    return VIS_EXIT_OK;
}

int vis_cli_parse(vis_options *o, int argc, char **argv, char *err, size_t errsz)
{
    cli c = { err, errsz };
    int rc;
    memset(o, 0, sizeof *o);
    o->cmd = argc > 1 && !strcmp(argv[1], "diff") ? VIS_CMD_DIFF
           : argc > 1 && !strcmp(argv[1], "check") ? VIS_CMD_CHECK
           : argc > 1 && !strcmp(argv[1], "convert") ? VIS_CMD_CONVERT : VIS_CMD_SHOW;
    o->lg_interval = -1;
    vis_report_opts_default(&o->rep);
    vis_chart_opts_default(&o->chart);
    o->top = o->chart.top_n;
    if ((rc = parse_args(&c, o, argc, argv, o->cmd == VIS_CMD_SHOW ? 1 : 2)) != 0 || o->asked)
        return rc;
    o->group = (vis_group_opts){ VIS_GROUP_AUTO, o->ns_depth ? (unsigned)o->ns_depth : 1,
                                 o->rep.threshold, vis_cli_given(o, "threshold"),
                                 o->keep_wrappers, NULL };
    /* Two runs are compared group by group: a group below the threshold in
     * one and above it in the other would show as new or gone. */
    if (o->cmd != VIS_CMD_SHOW && !o->group.threshold_given)
        o->group.threshold = 0;
    if (o->group_by && vis_group_by_parse(o->group_by, &o->group.by) != 0)
        return usage(&c, "--group-by expects site, function, file, object, crate, namespace "
                     "or auto, got '%s'", o->group_by);
    o->dumps = (vis_dumps_opts){ { o->binary, o->search_path }, VIS_CLOCK_AUTO, o->lg_interval,
                                 vis_cli_given(o, "threshold") ? o->rep.threshold : 1.0 };
    if (o->clock && vis_clock_parse(o->clock, &o->dumps.clock) != 0)
        return usage(&c, "--clock expects mtime, seq, alloc or auto, got '%s'", o->clock);
    if (o->cmd == VIS_CMD_CONVERT) {
        if (o->n_inputs == 0)
            return usage(&c, "convert: expected heap dumps DUMP...");
        if (!o->image)
            return usage(&c, "convert: expected -o FILE, the Massif file to write");
        return VIS_EXIT_OK;
    }
    if (o->cmd == VIS_CMD_DIFF)
        return check_diff(&c, o);
    if (o->cmd == VIS_CMD_CHECK)
        return check_check(&c, o);
    return check_show(&c, o);
}

void vis_cli_free(vis_options *o)
{
    free(o->inputs);
    free(o->ms_print_args);
    o->inputs = NULL;
    o->ms_print_args = NULL;
}
