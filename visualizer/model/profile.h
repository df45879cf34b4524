/* profile.h: the checked, read-only model of one Massif-format profile that
 * every renderer reads (text report, PNG chart, gnuplot, CSV).
 *
 * The model is deliberately small whatever the file's size: it keeps every
 * snapshot's numbers, the top level of each detailed snapshot's tree (the
 * allocation sites), the whole peak tree, and memtime's extensions from the
 * companion file. A renderer that needs another snapshot's full tree walks
 * it from the file when it needs it (massif.h: vis_massif_walk_tree), as the
 * ms_print report does for every tree.
 *
 * On top of the snapshots the model holds one ranking of the allocation
 * sites over the whole run (vis_site_info, computed by vis_profile_finish)
 * and builds the per-snapshot series every chart-like view draws
 * (vis_series, sites.h): renderers take both from there and never rank or
 * attribute on their own. */
#ifndef MT_PROFILE_H
#define MT_PROFILE_H

#include <stddef.h>
#include <stdint.h>
#include "base/units.h"   /* vis_unit, the file's time unit */

typedef enum { VIS_TREE_EMPTY, VIS_TREE_DETAILED, VIS_TREE_PEAK } vis_tree_kind;

/* One node of an allocation tree, as in the file: the label is the text after
 * "nK: <bytes> " verbatim ("0x4005E4: fn (file.c:12)", "in 3 places, all below
 * massif's threshold (1.00%)", the root's "(heap allocation functions) ..."). */
typedef struct vis_node {
    uint64_t bytes;
    char *label;
    size_t n_children;
    struct vis_node *children;
} vis_node;

/* A top-level allocation site of one detailed snapshot: a child of the root. */
typedef struct {
    uint64_t bytes;
    char *label;          /* verbatim label, see vis_node */
    int is_below_threshold; /* the merged "in N places" line */
    size_t id;            /* index into vis_profile.site_info (its rank);
                             SIZE_MAX for a below-threshold line */
} vis_site;

/* How the sites are grouped (model/groups.h): site is the file's own
 * allocation sites; the others merge them by a key read from the label. */
typedef enum {
    VIS_GROUP_SITE, VIS_GROUP_FUNCTION, VIS_GROUP_FILE, VIS_GROUP_OBJECT,
    VIS_GROUP_CRATE, VIS_GROUP_NAMESPACE, VIS_GROUP_AUTO
} vis_group_by;

/* What a snapshot's remainder line (the groups below the view's threshold,
 * model/groups.h) holds, read by a coarser grouping when it holds more than
 * VIS_REST_BY_SHARE percent of the snapshot's heap: its largest parts, so
 * that a person can act on it. */
#define VIS_REST_BY_SHARE 5
#define VIS_REST_BY_MAX 3
typedef struct {
    const char *line;        /* the remainder's label (interned), or NULL */
    size_t n;                /* 0: not read (small, or no remainder) */
    vis_group_by by;         /* the coarser grouping (the view's own for
                                object: nothing is coarser) */
    struct {
        const char *name;    /* the group's key, interned */
        uint64_t bytes;
    } part[VIS_REST_BY_MAX]; /* largest first */
} vis_rest_by;

/* One allocation site over the whole run: a distinct label among the trees'
 * top-level nodes ("in N places" lines are not sites). */
typedef struct {
    const char *label;    /* verbatim, interned in the profile */
    char *name;           /* the name every view prints (names.h: the short
                             name, at most VIS_SITE_NAME_MAX characters where
                             the rules allow); no other site of the profile,
                             counts' included, reads the same (sites.h) */
    char *full_name;      /* tooltips, CSV, JSON: the label without address
                             and Rust hashes, otherwise whole; distinct too */
    uint64_t largest_B;   /* the most it held in any tree */
    size_t largest_snap;  /* the first snapshot where it held largest_B */
    uint64_t peak_B;      /* its bytes in the ranking's tie-break tree: the
                             peak's, else the largest tree's */
} vis_site_info;

#define VIS_SITE_NAME_MAX 56
/* The most sites any view draws on their own (--top), and so the size of
 * the chart's palette of distinct colours. */
#define VIS_TOP_MAX 50

typedef struct {
    unsigned index;          /* snapshot=N */
    uint64_t time;           /* in the file's time unit */
    uint64_t heap_B, heap_extra_B, stacks_B;
    vis_tree_kind kind;
    size_t line;             /* 1-based line of its "snapshot=N" */
    long offset;             /* byte offset of its first "#-----------" line */
    size_t offset_line;      /* 1-based line number at offset */
    int nested;              /* detailed/peak: no node of its tree holds more
                                than its parent (as in every tree Massif
                                writes), so nothing under a node is larger */
    size_t n_sites;          /* detailed/peak only: the root's children */
    vis_site *sites;
    vis_rest_by rest_by;     /* what its remainder line holds (regrouped) */
    size_t n_groups_all;     /* regrouped by a key (not site): every group */
    vis_site *groups_all;    /* before the view's cut, for the growth analysis
                                (growth.h): a small group that grows is a line
                                of its own, never in and out of a remainder */
} vis_snapshot;

/* memtime's phase marks (MEMTIME_MARK), from the companion file. */
typedef struct {
    uint64_t time;
    char *label;
} vis_mark;

/* One thread's stack size at each snapshot, from the companion file.
 * bytes[i] belongs to snaps[i]; UINT64_MAX where the thread did not exist. */
typedef struct {
    unsigned tid;
    uint64_t *bytes;         /* n_snaps entries */
    uint64_t peak_B;
    char *name;              /* from a "thread:" line, or NULL */
} vis_thread_stack;

/* The program's resident memory at one snapshot (memtime --rss=yes), from the
 * companion file's "rss:" lines; split as /proc/PID/status splits it. */
typedef struct {
    int valid;               /* a reading was taken at this snapshot */
    uint64_t anon_B, file_B, shmem_B;
} vis_rss;

/* One of the largest non-heap groups of mappings resident at the RSS peak
 * ("rss-mapping:" lines): every mapping of a file, or every anonymous mapping
 * made by one mmap stack. */
typedef struct {
    uint64_t anon_B, file_B, shmem_B;
    uint64_t n_maps;
    char *name;              /* file path, "[anon]", "[stack]", ... */
    size_t n_frames;
    char **frames;           /* the mmap's stack, innermost first (anonymous) */
} vis_rss_mapping;

/* The largest reading ("rss-peak:"), kept even when its snapshot was culled. */
typedef struct {
    int present;
    uint64_t time;           /* in the profile's unit */
    uint64_t anon_B, file_B, shmem_B;
    uint64_t heap_B;         /* heap + extra when it was read */
    size_t n_maps;
    vis_rss_mapping *maps;   /* largest first */
} vis_rss_peak;

/* The allocator's own account (memtime --allocator=program), from the
 * companion's "allocator:" and "alloc-stats:" lines: what jemalloc's mallctl,
 * tcmalloc's numeric properties, mimalloc's process info or glibc's
 * mallinfo2 said, read inside the program after resident-memory
 * readings. Each reading has the keys its allocator gives (the bit of each
 * key in 'have'); vis_alloc_stat_keys names them as the companion does. */
typedef enum {
    VIS_AS_ALLOCATED,        /* all: bytes the program holds (mimalloc:
                                memtime's count, mimalloc has none)      */
    VIS_AS_ACTIVE,           /* jemalloc: pages of active extents          */
    VIS_AS_RESIDENT,         /* jemalloc: its resident pages (at most)     */
    VIS_AS_MAPPED,           /* jemalloc: its mapped extents               */
    VIS_AS_RETAINED,         /* jemalloc: unmapped, address space kept     */
    VIS_AS_METADATA,         /* jemalloc, tcmalloc: their own bookkeeping  */
    VIS_AS_DIRTY,            /* jemalloc: freed pages not yet purged       */
    VIS_AS_MUZZY,            /* jemalloc: freed pages MADV_FREE'd          */
    VIS_AS_ARENA,            /* glibc: the arenas' size (sbrk and mmap)    */
    VIS_AS_MMAPPED,          /* glibc: blocks in their own mappings        */
    VIS_AS_FREE,             /* glibc: free chunks in the arenas           */
    VIS_AS_TOP_RELEASABLE,   /* glibc: free at the top, trimmable          */
    VIS_AS_ARENA_IN_USE,     /* glibc: chunks in use in the arenas         */
    VIS_AS_HEAP_SIZE,        /* tcmalloc: its page heap, unmapped included */
    VIS_AS_PAGEHEAP_FREE,    /* tcmalloc: free pages in it, still mapped   */
    VIS_AS_PAGEHEAP_UNMAPPED,/* tcmalloc: free pages released to the system */
    VIS_AS_CENTRAL_FREE,     /* tcmalloc: free bytes in its central cache  */
    VIS_AS_TRANSFER_FREE,    /* tcmalloc: free bytes in its transfer cache */
    VIS_AS_THREAD_FREE,      /* tcmalloc: free bytes in its thread caches  */
    VIS_AS_COMMITTED,        /* mimalloc: the memory it has committed      */
    VIS_AS_PEAK_COMMITTED,   /* mimalloc: the most it had committed        */
    VIS_AS_N
} vis_alloc_stat;
extern const char *const vis_alloc_stat_keys[VIS_AS_N];

typedef struct {
    uint64_t time;           /* in the profile's unit */
    uint32_t have;           /* bit k: v[k] was read */
    uint64_t v[VIS_AS_N];
    int has_rss;             /* the resident-memory reading it follows: */
    uint64_t rss_time, rss_B;
} vis_alloc_stats;

typedef struct {
    char name[16];           /* "jemalloc", "tcmalloc", "mimalloc", "glibc";
                                "" without the records */
    size_t n;
    vis_alloc_stats *stats;  /* in time order */
} vis_allocator;

static inline uint64_t vis_rss_total(const vis_rss *r)
{
    return r->anon_B + r->file_B + r->shmem_B;
}

/* memtime's per-site allocation counts, from the companion's "site:" lines. */
typedef struct {
    const char *label;       /* interned (vis_profile_intern): the same
                                pointer as the trees' vis_site.label */
    uint64_t allocs, temporary, alloc_bytes;
    uint64_t live_blocks, live_bytes;   /* at the companion's last write */
} vis_site_counts;

/* memtime --heap-limit, from the companion's "heap-limit:" line. */
typedef enum { VIS_LIMIT_KILL, VIS_LIMIT_FAIL, VIS_LIMIT_SNAPSHOT } vis_limit_action;
typedef struct {
    int present;             /* the run had --heap-limit */
    uint64_t bytes;          /* the limit */
    vis_limit_action action;
    int reached;             /* the limit was crossed (or an allocation refused) */
    uint64_t time;           /* when it was first, in the profile's unit */
    uint64_t refused;        /* allocations refused (action fail) */
} vis_heap_limit;
/* "kill", "fail" or "snapshot", as the option spells it. */
const char *vis_limit_action_name(vis_limit_action a);

/* memtime's exact outline of the run (the companion's "outline:", "o:" and
 * "o-rss:" lines, docs/file-format.md): the true lowest and highest memory in
 * every bucket of time, kept at every heap change, so a burst that fell
 * between two snapshots is still there at its full height. The reader expands
 * it into contiguous spans: b[i].end == b[i+1].start, b[0].start is the first
 * written bucket's start, b[n-1].end the outline's end; a span memtime did not
 * write (no change in it) is filled in flat at the previous span's last value,
 * so every moment from b[0].start to the end is covered exactly once. */
typedef struct {
    uint64_t start, end;             /* [start, end), in the profile's unit */
    uint64_t min_B, max_B, last_B;   /* total: heap + extra + stacks */
    uint64_t heap_min_B, heap_max_B, heap_last_B;   /* heap + extra */
    int filled;                      /* a flat span the reader filled in */
} vis_outline_span;

/* Resident memory read in one bucket (only buckets with a reading). */
typedef struct {
    uint64_t start, end;
    uint64_t min_B, max_B, last_B;   /* anon + file + shmem */
} vis_outline_rss;

typedef struct {
    int present;                     /* the companion had an "outline:" line */
    uint64_t width;                  /* bucket width, in the profile's unit */
    uint64_t end;                    /* the outline's end ("end=") */
    size_t n;
    vis_outline_span *spans;
    size_t n_rss;
    vis_outline_rss *rss;
} vis_outline;

/* memtime's unpruned detail of the trees (the companion's "detail:",
 * "frame:" and "dtree:" lines, docs/file-format.md): what Massif's
 * threshold merged into "in N places" lines, kept so the heap can be
 * regrouped after the fact (model/groups.h). A node is a pre-order entry:
 * depth 1 is a site (a child of the root), depth 2 one of its callers. */
typedef struct {            /* 16 bytes: a rustc profile has millions */
    uint64_t bytes;          /* with its children's */
    uint32_t frame;          /* index into vis_detail.frames (< 2^24) */
    uint16_t depth;          /* 1.. (<= VIS_MAX_TREE_DEPTH) */
} vis_dnode;

typedef struct {
    size_t snap;             /* index into vis_profile.snaps */
    size_t n;
    vis_dnode *nodes;
} vis_dtree;

typedef struct {
    int present;             /* the companion had a "detail:" line */
    unsigned depth;          /* "depth=": call levels kept (nodes of inlined
                                frames can be deeper) */
    size_t n_frames;
    const char **frames;     /* interned (vis_profile_intern) labels */
    size_t n_trees;
    vis_dtree *trees;        /* in snapshot order, at most one a snapshot */
} vis_detail;

/* An allocation wrapper found in the profile (groups.h): a function that
 * allocates on behalf of many callers. */
typedef struct {
    const char *label;       /* interned: the verbatim label of its frame
                                holding the most at the peak's tree */
    const char *fn;          /* interned: the function (vis_caller_key) */
    uint64_t bytes;          /* what it held at the peak's tree */
    uint64_t bytes_split;    /* of them, what went to its callers there */
    size_t n_callers;        /* distinct calling functions, where it held
                                the most (where its shape was judged) */
    double largest_share;    /* the largest caller's percent of it there */
    int by_name;             /* known by its name (else by its shape) */
    int split;               /* its callers became the sites */
} vis_wrapper;

/* What the regrouping did, for the summary and the JSON to say. */
typedef struct {
    int applied;             /* vis_profile_regroup ran and changed the sites */
    vis_group_by by;         /* never VIS_GROUP_AUTO once applied */
    int by_auto;             /* chosen by the default rule */
    const char *why;         /* the rule's reason (a static string), or NULL */
    unsigned ns_depth;
    double threshold;        /* percent of each snapshot's heap */
    int threshold_adapted;   /* lowered from the default by the view (groups.h) */
    int from_detail;         /* snapshots with detail were regrouped from it */
    size_t n_wrappers;
    vis_wrapper *wrappers;   /* largest first */
    vis_group_by fallback;   /* function and file groups below the threshold
                                fall back to this grouping's (groups.h);
                                VIS_GROUP_AUTO: they do not */
    const char *descend;     /* interned: the crate or namespace whose code
                                is grouped by function (groups.h), or NULL */
    double descend_share;    /* its percent of the peak's tree by by's keys
                                (0 when another profile's view chose it) */
} vis_grouping;

/* How a process ended: an exit status, a signal, or not known. */
typedef enum { VIS_END_UNKNOWN, VIS_END_EXIT, VIS_END_SIGNAL } vis_end_kind;

/* What a parent recorded about a child it reaped ("child-ended:"). */
typedef struct {
    long long pid;
    vis_end_kind kind;
    int code;                /* exit status or signal number */
} vis_child_end;

/* A child it forked ("fork:"). */
typedef struct {
    uint64_t time;
    long long pid;
} vis_fork;

/* Who the profiled process is and how it ended, from the companion's
 * process, command, title, fork, child-ended and ended records. */
typedef struct {
    long long pid, parent;   /* -1: no "process:" record */
    long long start;         /* its profile's start on its clock, -1: none */
    long long epoch_ms;      /* wall-clock ms of its clock's 0, -1: none */
    char *began;             /* "launched", "fork of N", "exec of PATH" or NULL */
    char *command;           /* "command:", NULL when not recorded */
    char *title;             /* the last "title:", NULL when none */
    vis_end_kind end_kind;   /* from "ended:": VIS_END_EXIT, else unknown */
    int end_code;
    size_t n_child_ends;
    vis_child_end *child_ends;
    size_t n_forks;
    vis_fork *forks;
} vis_process;

/* How the run ended, from the companion's "end:" line. */
typedef enum {
    VIS_END_RECORD_NONE,     /* no such line (no companion, or an older one) */
    VIS_END_RECORD_EXIT,     /* "end: exit" */
    VIS_END_RECORD_EXEC,     /* "end: exec": the process replaced its image */
    VIS_END_RECORD_RUNNING   /* "end: none": it had not ended (killed, or
                                still running) */
} vis_end_record;

typedef struct {
    char *path;              /* the profile's file name as given */
    char *desc;              /* text after "desc: " */
    char *cmd;               /* text after "cmd: " */
    vis_unit unit;
    size_t n_snaps;
    vis_snapshot *snaps;     /* file order; times are non-decreasing */
    size_t peak;             /* the peak: the snapshot the file marks as its
                                peak (heap_tree=peak), else the one with the
                                largest total (heap+extra+stacks), the first
                                of equals */
    size_t largest;          /* the snapshot with the largest total; ties: the
                                marked peak if it ties, else the first. Not
                                the peak when the file's peak was found within
                                Massif's --peak-inaccuracy */
    size_t peak_marked;      /* index of heap_tree=peak, or SIZE_MAX if none */
    vis_node *peak_tree;     /* tree of the detailed snapshot with the largest
                                total (the peak one if marked), or NULL;
                                precisely: the peak's tree if it has one, else
                                the marked peak's, else the largest detailed */
    size_t peak_tree_snap;   /* index of the snapshot peak_tree belongs to */
    size_t n_marks;
    vis_mark *marks;
    /* Where a profile converted from heap dumps came from, its sampling
     * and its clock (the companion's "source:" lines, read/dumps.h), for
     * the summary to say; none for memtime's and Massif's own files. */
    size_t n_sources;
    char **sources;
    size_t n_threads;
    vis_thread_stack *threads;
    int truncated;           /* the file ended inside a snapshot */
    size_t truncated_line;   /* line where it ended */
    char *companion;         /* path of the companion file read, or NULL */
    size_t n_detailed;       /* snapshots with a tree (detailed or peak) */
    char *truncated_msg;     /* when truncated: "PATH:LINE: expected ...,
                                found end of file", for the warning */
    size_t companion_cut_line;  /* the companion's last line stopped before
                                   its newline (0: it did not): that line */
    char *companion_cut_msg;    /* then "PATH:LINE: expected ..., found
                                   '...' unfinished at the end of the file",
                                   for the warning */
    struct vis_strpool *labels; /* interned site labels: every vis_site.label
                                   points into it, so never free one alone */
    /* Resident memory (memtime --rss=yes), from the companion: */
    vis_rss *rss;            /* n_snaps entries, or NULL when none was read */
    size_t n_rss;            /* snapshots with a reading */
    vis_rss_peak rss_peak;
    vis_allocator allocator; /* --allocator=program's statistics */
    /* From the companion (the counts growth.h reads): */
    size_t n_counts;
    vis_site_counts *counts; /* NULL when the companion has no "site:" line */
    vis_heap_limit limit;    /* zeroed when the run had no --heap-limit */
    vis_end_record end_record;   /* the companion's "end:" line */
    vis_process process;     /* the companion's process records */
    vis_outline outline;     /* the exact outline; present == 0 without one
                                (Massif's files, older memtime) */
    vis_detail detail;       /* the unpruned trees; present == 0 without */
    vis_grouping grouping;   /* what vis_profile_regroup did */
    /* The ranking of sites, by what each held at its largest over all
     * trees, ties by peak_B, then label. site_info[0..n_ranked) held at
     * least one byte at some point; the rest never did and take no slot in
     * any view. */
    size_t n_site_info;
    vis_site_info *site_info;
    struct vis_site_names *names; /* every site's names (sites.h: the lookups) */
    size_t n_ranked;
} vis_profile;

/* The end (exclusive) of node j's subtree in t. */
size_t vis_dtree_end(const vis_dtree *t, size_t j);
/* Snapshot snap's detailed tree, or NULL if it has none. */
const vis_dtree *vis_detail_tree(const vis_profile *p, size_t snap);

static inline uint64_t vis_snap_total(const vis_snapshot *s)
{
    return s->heap_B + s->heap_extra_B + s->stacks_B;
}

/* Frees everything the profile owns, including the profile itself. NULL ok. */
void vis_profile_free(vis_profile *p);

#endif
