/* mt_companion.h: the writer of memtime's companion file, "<profile>.memtime".

   The Massif-format profile must stay inside Massif's grammar (massif-visualizer
   rejects any other line), so what Massif's format cannot hold (phase marks,
   each thread's stack size at each snapshot, resident memory, allocation
   counts, the process's story) goes into a line-based text file next to it,
   rewritten atomically each time the profile is, companion first.

   This module only writes lines: every module keeps its own facts and
   writes its own records through it, and mt_output.c calls those writers
   in one fixed order (the order of MtRecord below). The writer never calls
   back into the modules whose records it carries. docs/file-format.md is
   the reference for readers, with the meaning of every field. */
#ifndef MT_COMPANION_H
#define MT_COMPANION_H

#include "pub_tool_basics.h"

#include "mt_file.h"

/* The record kinds after the header lines ("memtime-companion: 1",
   "profile: <name>", "time_unit: i|ms|B", written by mt_companion_open),
   in the order a rewrite writes them (but for stacks: and rss:, which
   take turns, snapshot by snapshot), with the module that writes each. */
typedef enum {
   MtRecThread,          /* thread: tid=<n> [name=<text>]          mt_stacks */
   MtRecMark,            /* mark: time=<T> <label>                  mt_marks */
   MtRecSite,            /* site: allocs=<n> temporary=<n> bytes=<n>
                            live_blocks=<n> live_bytes=<n> <label>  mt_counts */
   MtRecEnd,             /* end: exit|exec|none                     mt_counts */
   MtRecProcess,         /* process: pid=<P> parent=<PP> start=<T>
                            [epoch_ms=<E>] began=<how>             mt_process */
   MtRecCommand,         /* command: <text>                        mt_process */
   MtRecTitle,           /* title: time=<T> via=prctl|argv <title> mt_process */
   MtRecFork,            /* fork: time=<T> child=<PID>             mt_process */
   MtRecChildEnded,      /* child-ended: time=<T> pid=<PID>
                            exit=<N>|signal=<N>                    mt_process */
   MtRecEnded,           /* ended: time=<T> exit=<N>               mt_process */
   MtRecHeapLimit,       /* heap-limit: bytes=<n> action=<a>
                            time=<T>|none refused=<n>                mt_limit */
   MtRecStacks,          /* stacks: snapshot=<N> time=<T> <tid>=<bytes> ...
                                                   mt_snapshot, mt_stacks */
   MtRecRss,             /* rss: snapshot=<N> time=<T> anon=<B> file=<B>
                            shmem=<B>                 mt_snapshot, mt_rss */
   MtRecRssPeak,         /* rss-peak: time=<T> anon=<B> file=<B> shmem=<B>
                            heap=<B>                                  mt_rss */
   MtRecRssMapping,      /* rss-mapping: anon=<B> file=<B> shmem=<B>
                            mappings=<n> <name>                       mt_rss */
   MtRecRssMappingFrame, /* rss-mapping-frame: <frame>                mt_rss */
   MtRecAllocator,       /* allocator: name=jemalloc|glibc   mt_allocstats */
   MtRecAllocStats,      /* alloc-stats: time=<T> <key>=<B> ...
                                                           mt_allocstats */
   MtRecOutline,         /* outline: width=<W> end=<T>            mt_outline */
   MtRecOutlineBucket,   /* o: <start> <min> <max> <last> <heap_min>
                            <heap_max> <heap_last>                mt_outline */
   MtRecOutlineRss,      /* o-rss: <start> <min> <max> <last>     mt_outline */
   MtRecDetail,          /* detail: depth=<D> snapshots=<n> frames=<n>
                                                                mt_detail */
   MtRecFrame,           /* frame: <id> <label>                    mt_detail */
   MtRecDTree,           /* dtree: snapshot=<N> time=<T>
                            <depth>.<frame id>.<bytes> ...         mt_detail */
} MtRecord;

/* Opens a rewrite of the companion of the profile at 'profile_path' (to
   be committed with the profile, companion first: mt_file_commit) and
   writes its header lines. */
MtFile* mt_companion_open(const HChar* profile_path, const HChar* time_unit);
/* There is nothing to record for the profile at 'profile_path': removes a
   companion of that name left by an earlier run, so a stale one is never
   paired with the new profile. */
void    mt_companion_none(const HChar* profile_path);

/* Writes one record line "<kind>: <text>\n", the text from fmt (any
   length, no newline in it: a record is one line). Every function below
   accepts c == NULL and then does nothing. */
void    mt_companion_record(MtFile* c, MtRecord kind, const HChar* fmt, ...)
        __attribute__((format(printf, 3, 4)));
/* The same in pieces, for a record built in a loop: _begin writes
   "<kind>: ", _add appends, _end ends the line. */
void    mt_companion_begin(MtFile* c, MtRecord kind);
void    mt_companion_add(MtFile* c, const HChar* fmt, ...)
        __attribute__((format(printf, 2, 3)));
void    mt_companion_end(MtFile* c);

#endif /* MT_COMPANION_H */
