/* mt_tree.h: the allocation tree. Every heap block is charged to the call
   stack that allocated it, kept in memtime's stack table (one entry per
   distinct stack, with its live bytes). This module owns the stack
   filtering (allocation functions stripped from the top: the built-in
   list, --alloc-fn, and patterns added at run time, per inlined frame, see
   mt_frames.h; --ignore-fn; frames below main; --depth), the frozen copies
   detailed snapshots keep, and their printing in Massif's format
   (mt_msprint.h), byte-identical to Massif's trees for C and C++. */
#ifndef MT_TREE_H
#define MT_TREE_H

#include "pub_tool_basics.h"
#include "pub_tool_xtree.h"

#include "mt_file.h"

void  mt_tree_init(void);                    /* pre_clo_init */
/* Takes --alloc-fn and --ignore-fn into the filter, sizes the backtraces. */
void  mt_tree_post_clo_init(void);

/* A stack's handle (Xecu, the index of its table entry, as in the core's
   XTree). Charges req_szB to tid's current stack; exclude_first_entry
   drops the top frame unseen (the replacement function itself). */
Xecu  mt_tree_add(ThreadId tid, SizeT req_szB, Bool exclude_first_entry);
void  mt_tree_sub(Xecu where, SizeT req_szB);
/* True when the whole stack was filtered out (--ignore-fn): such blocks
   count nowhere. */
Bool  mt_tree_is_ignored(Xecu where);

/* The site a stack is shown under in the trees: its top kept frame
   (False for an ignored stack), and that site's label as the trees print
   it ("0x...: fn (file:line)", allocator plumbing inlined at its top
   hidden). The label is kept (made once per site, dropped when the debug
   info or the plumbing rules change): valid until the next call. */
Bool  mt_tree_site_ip(Xecu where, Addr* ip);
const HChar* mt_tree_site_label(Addr ip);

/* The live bytes of every stack now, for a detailed snapshot: O(stacks)
   memory. Freed by mt_tree_snap_delete (NULL is fine). */
typedef struct MtTreeSnap MtTreeSnap;
MtTreeSnap* mt_tree_snapshot(void);
void        mt_tree_snap_delete(MtTreeSnap* snap);
/* Writes one snapshot (header lines, and the tree when header->detailed,
   which requires snap) to fp. The heap
   total of a detailed snapshot is the sum of its stacks, as Massif's is;
   otherwise header->sz_B. The tree's text is made at the first print and
   kept in snap, for the rewrites that follow, until the debug info or the
   plumbing rules change. */
void  mt_tree_print(MtFile* fp, MtTreeSnap* snap, const Massif_Header* header);

/* Read access to a frozen snapshot, for the unpruned detail (mt_detail.h).
   serial: a number no other snapshot taken in this process has, so a
   reader may keep what it derived from a snapshot across rewrites. */
ULong mt_tree_snap_serial(const MtTreeSnap* snap);
UInt  mt_tree_snap_n_stacks(const MtTreeSnap* snap);
/* Stack i (< mt_tree_snap_n_stacks) of the snapshot: its kept IPs, top
   first, their number in *n_ips (0, and NULL returned, for a stack
   --ignore-fn filtered out: the trees leave it out), its live bytes then
   in *szB. */
const Addr* mt_tree_snap_stack(const MtTreeSnap* snap, UInt i,
                               UInt* n_ips, SizeT* szB);
/* The node labels the trees print for ip, one per inlined frame,
   innermost first, the real function last: fn(label, arg) for each (the
   label is the core's buffer, valid during the call). As a site (a child
   of the root) when 'site', its allocator plumbing hidden as the printer
   hides it; mt_tree_site_hidden(ip) says how many frames that hides, so
   a caller caching labels can tell when the rule changed. */
UInt  mt_tree_site_hidden(Addr ip);
/* Changes whenever mt_tree_site_hidden's answers (and the labels) may have
   changed (an allocator pattern added at run time). */
UInt  mt_tree_rules_generation(void);
/* How many stacks the table holds: Xecus 0 .. n - 1 exist. */
UInt  mt_tree_n_stacks(void);
void  mt_tree_ip_labels(Addr ip, Bool site,
                        void (*fn)(const HChar* label, void* arg), void* arg);

#endif /* MT_TREE_H */
