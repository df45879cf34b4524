/* massif.h: the streaming reader of Massif-format files (Massif's own and
 * memtime's). It owns the grammar; profile.c owns the model it fills.
 *
 * Never the whole file in memory:
 *   pass 1, vis_massif_read(): checks every line and keeps every
 *     snapshot's numbers, each detailed snapshot's root children (the
 *     allocation sites), and the full tree of one snapshot (the peak, or the
 *     largest detailed one, re-read from its offset); it can also hand each
 *     snapshot and node on as it reads them (vis_massif_read_sink), for a
 *     renderer whose output follows the file's order (the ms_print report's
 *     table and trees), so that it needs no second read;
 *   pass 2, vis_massif_walk_tree() and the walker: re-read any detailed
 *     snapshot's tree from its offset, node by node, for a renderer that
 *     wants it, parsing only the nodes the renderer does not prune
 *     (VIS_WALK_PRUNE).
 * Both take a seekable FILE* (a file, or fmemopen() for the fuzzer).
 *
 * Errors are one line "PATH:LINE: expected <what>, found '<text>'" written to
 * err. A file cut short at its end is not an error: the profile keeps what was
 * complete and sets truncated/truncated_line. */
#ifndef MT_MASSIF_H
#define MT_MASSIF_H

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include "model/profile.h"

/* Deepest tree accepted. Massif's --depth stops at 200 frames (plus inlined
 * frames); the limit keeps a hostile file from making the report's output
 * quadratic or the tree recursion deep. */
#define VIS_MAX_TREE_DEPTH 4096

/* Writes the one shape of both readers' errors (this one's and the
 * companion's) to err: "PATH:LINE: expected <what>, found '<line>'", what
 * from fmt and ap, the line shown in at most 60 characters (control
 * characters as '?', "..." after a longer one); "found end of file" when
 * line is NULL; unfinished adds that the line was the file's last, cut
 * before its '\n'. */
void vis_expected(char *err, size_t errsz, const char *path, size_t lineno, const char *line,
                  size_t len, int unfinished, const char *fmt, va_list ap);

/* Called for each node of a tree in preorder. depth 0 is the root. label is
 * the text after "nK: <bytes> " and is only valid during the call. Return 0 to
 * go on, a positive value to stop the walk, or VIS_WALK_PRUNE to go on past
 * the node's descendants: the walk skips their lines unparsed (pass 1 checked
 * them) and calls fn for none of them. */
typedef int (*vis_node_fn)(void *ctx, unsigned depth, uint64_t bytes,
                           const char *label, size_t n_children);
#define VIS_WALK_PRUNE (-1)

/* Reads a whole profile (pass 1). path names the file in messages. Returns
 * the profile (free with vis_profile_free) or NULL with a message in err. */
vis_profile *vis_massif_read(FILE *f, const char *path, char *err, size_t errsz);

/* What pass 1 hands on while it reads, in file order: each snapshot as soon
 * as its header is read (p holds the file's header and snaps[0..i], i the
 * last), then, for a detailed one, each node of its tree in preorder, then
 * tree_end, after the tree's last node or where the end of the file cut it.
 * node returns 0, or VIS_WALK_PRUNE to be spared the node's descendants
 * while none of them holds more than its parent (pass 1 still reads and
 * checks them all): under a node that holds too little to matter, so do
 * they, in a nested tree. From a node that holds more than its parent to
 * the end of its tree, node is given every node. Nothing comes after a
 * line pass 1 rejects: the read then fails, and whatever the sink made of
 * the file must be dropped. */
typedef struct {
    void (*snapshot)(void *ctx, const vis_profile *p, size_t i);
    vis_node_fn node;
    void (*tree_end)(void *ctx);
    void *ctx;
} vis_massif_sink;

/* vis_massif_read, handing the file to sink (NULL: to nothing) as it goes. */
vis_profile *vis_massif_read_sink(FILE *f, const char *path, const vis_massif_sink *sink,
                                  char *err, size_t errsz);

/* Pass 2: walks the tree of snapshot snaps[snap] (detailed or peak) of a
 * profile read from the same file. Returns 0 when the walk is done (a tree cut
 * short by the end of the file ends early, silently: the profile already
 * says so), the callback's non-zero value if it stopped, or -1 with err if
 * the file changed under us or cannot be read. */
int vis_massif_walk_tree(FILE *f, const vis_profile *p, size_t snap,
                         vis_node_fn fn, void *ctx, char *err, size_t errsz);
/* The same, and *node_line holds the file's line number of the node passed
 * to fn during each call, for a reader's own "PATH:LINE:" messages. */
int vis_massif_walk_tree_lines(FILE *f, const vis_profile *p, size_t snap,
                               vis_node_fn fn, void *ctx, size_t *node_line,
                               char *err, size_t errsz);

/* Pass 2 over many trees (the ms_print report walks every one): one reader
 * kept across the walks, so trees taken in file order are read straight on,
 * without a seek or a refill per tree. Same results as vis_massif_walk_tree;
 * err (given to _new) holds the message of a failed walk. */
typedef struct vis_massif_walker vis_massif_walker;
vis_massif_walker *vis_massif_walker_new(FILE *f, const vis_profile *p, char *err, size_t errsz);
int vis_massif_walker_tree(vis_massif_walker *w, size_t snap, vis_node_fn fn, void *ctx,
                           size_t *node_line);
void vis_massif_walker_free(vis_massif_walker *w);

#endif
