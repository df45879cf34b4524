/* stacks.h: one detailed snapshot's allocation tree as the exporters need it
 * (flamegraph SVG, collapsed stacks, pprof): a list of stacks, each a path
 * from an allocation site out to the outermost caller with its bytes, over a
 * table of parsed frames; and the caller-first tree (flame tree) that merges
 * those stacks by frame name, as flame graphs draw it.
 *
 * Massif's tree goes from the allocation site (the root's children) out to
 * main; a stack here keeps that order (frames[0] = the site), which is
 * pprof's; the flame tree turns it round (main at the bottom).
 *
 * The stacks' bytes add up exactly to the tree root's bytes, which must be
 * the snapshot's mem_heap_B; a tree whose children add up to more than their
 * parent is rejected (PATH:LINE: ...). A node whose children add up to less
 * than its own bytes (a file cut by --depth keeps the bytes on the deepest
 * frame) keeps the difference as a stack of its own. The last snapshot of
 * a file cut short (read/load.h) may have its tree cut: what the read part
 * does not account for is under VIS_STACKS_CUT_LABEL, as the outermost
 * frame of the path where the tree ends, so the bytes still add up and no
 * function is credited with what the file did not say. */
#ifndef MT_STACKS_H
#define MT_STACKS_H

#include <stdio.h>
#include "model/profile.h"

#define VIS_STACKS_CUT_LABEL "(the file is cut short: the rest of this tree is not in it)"

/* One distinct node label of the tree. */
typedef struct {
    const char *label;     /* verbatim: "0x4005E4: fn (file.c:12)" */
    const char *name;      /* without the address: "fn (file.c:12)" */
    uint64_t address;      /* 0 if the label has none */
    char *function;        /* "fn"; the whole name if it does not parse */
    char *file;            /* "file.c", the object "/lib/libc.so.6" for
                              "fn (in /lib/libc.so.6)", or "" */
    unsigned line;         /* 0 if none */
    int below_threshold;   /* Massif's "in N places, ... below ..." line */
    int is_group;          /* a group's key (stack_groups.h), not a frame
                              of the program: label, name and function
                              are the key, file is "" */
    size_t name_id;        /* frames with equal names share it */
} vis_frame;

typedef struct {
    uint64_t bytes;
    size_t depth;          /* number of frames; >= 1 */
    size_t *frames;        /* indices into frames[], the allocation site first */
} vis_stack;

/* A node of the caller-first tree. */
typedef struct {
    size_t name_id;        /* SIZE_MAX for the root ("all") */
    size_t parent;         /* SIZE_MAX for the root */
    size_t first_child, next_sibling;   /* SIZE_MAX: none; siblings by name */
    size_t depth;          /* root 0 */
    uint64_t total, self;  /* bytes under it, and on it as the innermost frame */
} vis_flame_node;

typedef struct {
    size_t snap;           /* index into the profile's snaps */
    uint64_t total;        /* the root's bytes = the snapshot's mem_heap_B */
    char *root_label;      /* "(heap allocation functions) malloc/new/..." */
    size_t n_frames;
    vis_frame *frames;
    size_t n_names;
    const char **names;    /* by name_id */
    size_t n_stacks;
    vis_stack *stacks;
    size_t n_flame;        /* built by vis_stacks_flame(); node 0 is the root */
    vis_flame_node *flame;
    size_t flame_depth;    /* deepest node's depth */
} vis_stacks;

/* Reads the tree of snapshot snaps[snap] (detailed or peak) from f, the
 * profile's file, and builds the flame tree. Returns the stacks (free with
 * vis_stacks_free), or NULL with a one-line message in err. */
vis_stacks *vis_stacks_read(FILE *f, const vis_profile *p, size_t snap,
                            char *err, size_t errsz);
void vis_stacks_free(vis_stacks *s);

/* (Re)builds s's flame tree from its stacks (after vis_stacks_group changed
 * them). Returns 0, or -1 when out of memory. */
int vis_stacks_flame(vis_stacks *s);

/* A flame tree node's path from the outermost frame to it, into path
 * (s->flame_depth entries); returns its length. */
size_t vis_flame_path(const vis_stacks *s, size_t node, size_t *path);

#endif
