/* cli.h: the command line of memtime-vis: what the user asked for, read
 * from argv by one table of every subcommand's options (cli.c). */
#ifndef VIS_CLI_H
#define VIS_CLI_H

#include <stddef.h>
#include "exit_status.h"
#include "model/diff.h"
#include "model/groups.h"
#include "read/dumps.h"
#include "render/chart.h"
#include "render/report.h"

/* memtime-vis [options] FILE..., memtime-vis diff ..., check ..., convert ... */
typedef enum { VIS_CMD_SHOW = 1, VIS_CMD_DIFF = 2, VIS_CMD_CHECK = 4, VIS_CMD_CONVERT = 8 } vis_command;

/* --help or --version: main prints it and stops there. */
typedef enum { VIS_CLI_RUN, VIS_CLI_HELP, VIS_CLI_VERSION } vis_cli_asked;

typedef struct {
    vis_command cmd;
    const char **inputs;       /* every FILE given, n_inputs of them */
    int n_inputs;
    const char *image, *gnuplot, *report, *companion;
    const char *flamegraph, *collapsed, *pprof, *snapshot, *from, *to;
    int no_companion, summary_only, ms_print_only, json, growth;
    int follow;                /* --follow: the live view (follow.h) */
    int top;                   /* --top of the main command */
    vis_report_opts rep;
    vis_chart_opts chart;
    char *ms_print_args;       /* " --threshold=2 FILE", as ms_print echoes */
    const char *at, *align;    /* diff */
    int diff_top;              /* diff's --top; 0: every site */
    const char *baseline;      /* check */
    vis_check_limits lim;
    const char *group_by;      /* --group-by as given */
    int ns_depth;              /* --namespace-depth */
    int keep_wrappers;         /* --keep-wrappers */
    vis_group_opts group;      /* all three and --threshold, checked */
    const char *binary, *search_path, *clock;   /* heap dumps (read/dumps.h) */
    int lg_interval;           /* --lg-prof-interval; -1 when not given */
    vis_dumps_opts dumps;      /* the four, checked */
    vis_cli_asked asked;
    unsigned char given[64];   /* by opts[] row: the option was given */
} vis_options;

/* The --help text. */
extern const char vis_cli_usage[];

/* Parses argv (the subcommand, if any, in argv[1]) into o, and checks the
 * options against each other. Returns VIS_EXIT_OK (o->asked says whether
 * --help or --version came first), or an exit status with a one-line err:
 * VIS_EXIT_USAGE for a usage error, VIS_EXIT_DATA when out of memory.
 * vis_cli_free frees what o holds, whatever the outcome. */
int vis_cli_parse(vis_options *o, int argc, char **argv, char *err, size_t errsz);
void vis_cli_free(vis_options *o);

/* Whether the option called name was given to o's command. */
int vis_cli_given(const vis_options *o, const char *name);
/* The extension of a file name, after its last dot ("" if none). */
const char *vis_cli_extension(const char *path);
/* Whether -o's path names the exact outline's CSV: NAME.outline.csv. */
int vis_cli_is_outline_csv(const char *path);

#endif
