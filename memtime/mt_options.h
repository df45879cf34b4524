/* mt_options.h: memtime's command-line options (the clo_* variables) and
   their parser. Every Massif option keeps its name, range, meaning and
   default, except --time-unit (default ms) and the output file option
   (--memtime-out-file, default memtime.out.%p, --massif-out-file accepted
   as a synonym). Conflicts between options are checked once, in
   mt_options_check, after parsing. */
#ifndef MT_OPTIONS_H
#define MT_OPTIONS_H

#include "pub_tool_basics.h"
#include "pub_tool_xarray.h"

typedef enum { TimeI, TimeMS, TimeB } MtTimeUnit;

#define MT_MAX_DEPTH 200

extern Bool         clo_heap;            /* --heap */
extern SSizeT       clo_heap_admin;      /* --heap-admin; word-sized on purpose:
                                            it is negated in deltas */
extern Bool         clo_stacks;          /* --stacks (module mt_stacks) */
extern Bool         clo_pages_as_heap;   /* --pages-as-heap (module mt_pages) */
extern Bool         clo_allocator_program; /* --allocator=program (module
                                            mt_allocator): the program's
                                            own malloc, observed */
extern Bool         clo_compact_heap;    /* --compact-heap (mt_heap, mt_slab) */
extern Bool         clo_rss;             /* --rss (module mt_rss) */
extern Int          clo_depth;           /* --depth */
extern Int          clo_detail_depth;    /* --detail-depth (module mt_detail);
                                            0: no detail */
extern double       clo_threshold;       /* --threshold, percent */
extern double       clo_peak_inaccuracy; /* --peak-inaccuracy, percent */
extern double       clo_burst_threshold; /* --burst-threshold, percent (ms) */
extern MtTimeUnit   clo_time_unit;       /* --time-unit */
extern Int          clo_detailed_freq;   /* --detailed-freq */
extern Int          clo_max_snapshots;   /* --max-snapshots */
extern const HChar* clo_out_file;        /* --memtime-out-file / --massif-out-file */
extern Int          clo_sample_interval_ms; /* --sample-interval (ms unit only) */
extern Int          clo_test_clock_speedup; /* --test-hook-clock-speedup */
extern Bool         clo_outline;         /* --outline (debugging) */
extern Int          clo_flush_interval_ms;  /* --flush-interval: periodic rewrite */
extern Bool         clo_known_alloc_fns;    /* --known-alloc-fns: strip the
                                               wrappers in mt_alloc_api.c */
extern Bool         clo_libc_inline_info;   /* --libc-inline-info (module
                                               mt_debuginfo) */
/* --alloc-fn and --ignore-fn names (const HChar*), in the order given:
   mt_tree_post_clo_init hands them to the stack filter. */
extern XArray*      clo_alloc_fns;
extern XArray*      clo_ignore_fns;

/* --heap-limit and --heap-limit-action (module mt_limit). */
typedef enum { MtLimitKill, MtLimitFail, MtLimitSnapshot } MtLimitAction;
extern ULong         clo_heap_limit_szB;     /* --heap-limit; 0: none */
extern const HChar*  clo_heap_limit_text;    /* as the user wrote it */
extern MtLimitAction clo_heap_limit_action;  /* --heap-limit-action */

/* --stack-cache, a debugging option (module mt_unwind). */
typedef enum { MtCacheNo, MtCacheYes, MtCacheVerify } MtStackCacheMode;
extern MtStackCacheMode clo_stack_cache;

/* Internal: how many times this process exec'd before this image, passed
   by memtime to itself across exec (mt_children.h). */
#define MT_EXEC_COUNT_OPT "--memtime-exec-count"
extern Int          clo_exec_count;
/* Internal, for tests: --test-hook-pause=<point>:<file> makes the file
   writer stop at <point> until <file> is gone (mt_file.h). */
typedef enum { MtTestNone, MtTestMidRewrite, MtTestRewritten } MtTestPoint;
extern MtTestPoint  clo_test_pause_point;
extern const HChar* clo_test_pause_file;
/* Internal, for tests: --test-hook-log=<file> gets a line per commit. */
extern const HChar* clo_test_log_file;

/* Every option the tool accepted, in order: written to the desc: line. */
extern XArray*      mt_args_for_desc;

void         mt_options_init(void);       /* pre_clo_init */
Bool         mt_process_cmd_line_option(const HChar* arg);
void         mt_print_usage(void);
void         mt_print_debug_usage(void);
void         mt_options_check(void);      /* post_clo_init: cross-option checks */
/* Rejects an option after parsing, through Valgrind's bad-option message,
   and exits with status 1. */
void         mt_reject_option(const HChar* opt, const HChar* why);
const HChar* mt_time_unit_name(void);     /* "i", "ms" or "B" */

#endif /* MT_OPTIONS_H */
