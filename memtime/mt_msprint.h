/* mt_msprint.h: memtime's own writer of one Massif-format snapshot (its
   header lines and its allocation tree), byte-identical to what the core's
   VG_(XT_massif_print) writes for the same stacks, with one addition: the
   caller may hide some inlined frames at the top of each top-level node
   (allocator plumbing inlined into the program's own function), which the
   core's printer cannot do. */
#ifndef MT_MSPRINT_H
#define MT_MSPRINT_H

#include "pub_tool_basics.h"
#include "pub_tool_xarray.h"
#include "pub_tool_xtree.h"   /* Massif_Header */

#include "mt_file.h"

/* One allocation stack as the tree shows it. */
typedef struct {
   const Addr* ips;     /* the kept frames, innermost call first */
   UInt        n_ips;   /* > 0 */
   ULong       szB;     /* live bytes charged to it (0 is allowed) */
} MtMsStack;

/* The file's three header lines, as the core's VG_(XT_massif_open) writes
   them ("desc:" with each of desc_args, HChar* each, or " (none)"; "cmd:"
   with the client's executable and arguments; "time_unit:"), with one
   difference: control characters and backslashes in desc: and cmd: are
   escaped ("\n", "\t", "\r", "\\", others "\xHH") so each stays one line
   (Massif writes them raw, and a newline in an argument breaks every
   reader). */
void mt_ms_print_file_header(MtFile* f, const XArray* desc_args,
                             const HChar* time_unit);
/* The order the printer wants its stacks in: by IPs, compared one by one
   from the top, a prefix first (<0, 0, >0 as for a sort). */
Int mt_ms_stack_cmp(const Addr* a_ips, UInt a_n, const Addr* b_ips, UInt b_n);
/* A snapshot in two parts, so that the tree, which never changes once
   taken, can be made once and kept (mt_tree.c), while the header holds
   the snapshot's number, which culling changes.
   The header lines (snapshot=, time=, mem_heap_B=, ..., heap_tree=),
   with mem_heap_B = heap_szB: for a detailed snapshot the sum of its
   stacks' bytes (mt_ms_heap_szB), as Massif's is, otherwise h->sz_B. */
ULong mt_ms_heap_szB(const MtMsStack* stacks, UInt n_stacks);
void mt_ms_print_header(MtFile* fp, const Massif_Header* h, ULong heap_szB);
/* The tree of a detailed snapshot, from stacks[0 .. n_stacks-1], which
   must be in mt_ms_stack_cmp order (a stack's order never changes, so the
   caller keeps it rather than sorting each tree), heap_szB their sum.
   n_hidden(ip) tells how many of ip's inlined frames, innermost first, to
   leave out when ip is a top-level node (NULL: none); it must leave at
   least the outermost frame. */
void mt_ms_print_tree(MtFile* fp, const Massif_Header* h, ULong heap_szB,
                      const MtMsStack* stacks, UInt n_stacks,
                      UInt (*n_hidden)(Addr ip));

#endif /* MT_MSPRINT_H */
