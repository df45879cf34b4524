/* mt_msprint.c: one snapshot in Massif's format (see mt_msprint.h).

   The tree rules, as Valgrind 3.19's Massif writes them (checked against
   real Massif files by tests t100, t102 and t406):
   - The stacks are sorted by their IPs, compared one by one from the top
     (a stack that is a prefix of another sorts first); so at any depth the
     stacks sharing a node are adjacent.
   - A node at depth d groups the stacks that share their IPs 0..d; its
     bytes are their sum. Its children are the groups at depth d+1 of those
     stacks that are longer than d+1 (a node may thus hold more bytes than
     its children).
   - A child holding fewer bytes than the significance threshold (a share
     of the snapshot's heap + extra + stacks, 1 byte when the heap is empty
     and the threshold is not 0) is merged with its insignificant siblings
     into one line "n0: <bytes> in <K> places, all below massif's threshold
     (<t>%)", or "in 1 place, below ...".
   - Children are sorted by bytes, largest first; ties by IP, lowest first,
     the merged line counting as IP 0.
   - A node's IP is printed as its inlined frames, innermost first, each on
     its own line with the node's bytes, one more space of indent per line;
     the inlined lines say n1 and the last (the real function) says how
     many children follow. The children are indented one more space than
     that last line. The root has no indent, its children one space.
   memtime's addition: for a top-level node only, n_hidden(ip) inlined
   frames are skipped (allocator plumbing inlined into the program's own
   function). With n_hidden NULL the output is the core's, byte for byte.

   Cost: the caller gives the stacks already in that order (mt_tree keeps
   it across snapshots, since a stack's IPs never change: sorting every
   tree at every rewrite was the largest part of a rewrite on a program of
   many deep stacks, such as rustc); each stack is then visited once per
   depth; every printed line costs one describe_IP, like the core's. */
#include "pub_tool_basics.h"
#include "pub_tool_clientstate.h"
#include "pub_tool_debuginfo.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_vki.h"
#include "pub_tool_xarray.h"

#include "mt_file.h"
#include "mt_msprint.h"

#define FP(...) mt_file_printf(pr->fp, __VA_ARGS__)

typedef struct {
   MtFile* fp;
   ULong   sig_szB;
   double  threshold;
   UInt  (*n_hidden)(Addr ip);
   DiEpoch ep;
} Printer;

/* Children of one node: stacks[0 .. n-1] share an IP at depth, or (first
   NULL) n insignificant siblings merged. */
typedef struct {
   const MtMsStack* first;
   UInt       n;
   Addr       ip;
   ULong      szB;
} Group;

Int mt_ms_stack_cmp(const Addr* a_ips, UInt a_n, const Addr* b_ips, UInt b_n)
{
   UInt i, n = a_n < b_n ? a_n : b_n;
   for (i = 0; i < n; i++) {
      if (a_ips[i] != b_ips[i])
         return a_ips[i] < b_ips[i] ? -1 : 1;
   }
   if (a_n != b_n)
      return a_n < b_n ? -1 : 1;
   return 0;
}

static Int cmp_groups(const void* va, const void* vb)
{
   const Group* a = va;
   const Group* b = vb;
   if (a->szB != b->szB)
      return a->szB > b->szB ? -1 : 1;
   if (a->ip != b->ip)
      return a->ip < b->ip ? -1 : 1;
   return 0;
}

/* The children at depth of the (sorted) stacks[0 .. n-1]: returns their
   number and a VG_(malloc)ed array in *out (NULL when none), in print
   order. */
static UInt make_groups(const Printer* pr, UInt depth,
                        const MtMsStack* stacks, UInt n, Group** out)
{
   UInt i, n_groups = 0, n_sig = 0, n_insig = 0;
   ULong insig_szB = 0;
   Group* groups;

   for (i = 0; i < n; i++) {
      if (stacks[i].n_ips > depth
          && (n_groups == 0
              || stacks[i].ips[depth] != stacks[i - 1].ips[depth]
              || stacks[i - 1].n_ips <= depth))
         n_groups++;
   }
   *out = NULL;
   if (n_groups == 0)
      return 0;

   /* Significant groups are compacted in place; the insignificant ones are
      only counted and summed. */
   groups = VG_(malloc)("mt.msprint.groups", n_groups * sizeof(Group));
   i = 0;
   while (i < n) {
      Group g;
      if (stacks[i].n_ips <= depth) {
         i++;
         continue;
      }
      g.first = &stacks[i];
      g.ip    = stacks[i].ips[depth];
      g.n     = 0;
      g.szB   = 0;
      while (i < n && stacks[i].n_ips > depth && stacks[i].ips[depth] == g.ip) {
         g.szB += stacks[i].szB;
         g.n++;
         i++;
      }
      if (g.szB < pr->sig_szB) {
         n_insig++;
         insig_szB += g.szB;
      } else {
         groups[n_sig++] = g;
      }
   }
   if (n_insig > 0) {
      Group* merged = &groups[n_sig++];
      merged->first = NULL;
      merged->n     = n_insig;
      merged->ip    = 0;
      merged->szB   = insig_szB;
   }
   tl_assert(n_sig <= n_groups);
   VG_(ssort)(groups, n_sig, sizeof(Group), cmp_groups);
   *out = groups;
   return n_sig;
}

static void print_group(const Printer* pr, UInt depth, UInt indent,
                        const Group* g)
{
   Group* kids;
   UInt n_kids, hide = 0, i;
   InlIPCursor* iipc;

   if (g->first == NULL) {
      FP("%*sn0: %llu in %u place%s below massif's threshold (%.2f%%)\n",
         (Int)(indent + 1), "", g->szB, g->n,
         g->n == 1 ? "," : "s, all", pr->threshold);
      return;
   }

   n_kids = make_groups(pr, depth + 1, g->first, g->n, &kids);
   if (depth == 0 && pr->n_hidden != NULL)
      hide = pr->n_hidden(g->ip);

   iipc = VG_(new_IIPC)(pr->ep, g->ip);
   for (i = 0; i < hide; i++) {
      Bool more = VG_(next_IIPC)(iipc);
      tl_assert(more);   /* n_hidden leaves the outermost frame */
   }
   while (True) {
      const HChar* desc = VG_(describe_IP)(pr->ep, g->ip, iipc);
      Bool inlined = VG_(next_IIPC)(iipc);
      FP("%*sn%u: %llu %s\n", (Int)(indent + 1), "",
         inlined ? 1 : n_kids, g->szB, desc);
      if (!inlined)
         break;
      indent++;
   }
   VG_(delete_IIPC)(iipc);

   for (i = 0; i < n_kids; i++)
      print_group(pr, depth + 1, indent + 1, &kids[i]);
   if (kids != NULL)
      VG_(free)(kids);
}

/* " " and s, escaped (see mt_msprint.h). */
static void put_arg(MtFile* f, const HChar* s)
{
   static const HChar hex[] = "0123456789abcdef";
   SizeT i;
   mt_file_puts(f, " ");
   for (i = 0; s[i] != '\0'; i++) {
      UChar c = (UChar)s[i];
      HChar e[4];
      if (c == '\\' || c == '\n' || c == '\t' || c == '\r') {
         e[0] = '\\';
         e[1] = c == '\n' ? 'n' : c == '\t' ? 't' : c == '\r' ? 'r' : '\\';
         mt_file_write(f, e, 2);
      } else if (c < 0x20 || c == 0x7f) {
         e[0] = '\\';
         e[1] = 'x';
         e[2] = hex[c >> 4];
         e[3] = hex[c & 15];
         mt_file_write(f, e, 4);
      } else {
         mt_file_write(f, &s[i], 1);
      }
   }
}

void mt_ms_print_file_header(MtFile* f, const XArray* desc_args,
                             const HChar* time_unit)
{
   Word i, n = desc_args != NULL ? VG_(sizeXA)(desc_args) : 0;
   mt_file_puts(f, "desc:");
   for (i = 0; i < n; i++)
      put_arg(f, *(const HChar**)VG_(indexXA)(desc_args, i));
   if (n == 0)
      mt_file_puts(f, " (none)");
   mt_file_puts(f, "\ncmd:");
   put_arg(f, VG_(args_the_exename));
   for (i = 0; i < VG_(sizeXA)(VG_(args_for_client)); i++)
      put_arg(f, *(const HChar**)VG_(indexXA)(VG_(args_for_client), i));
   mt_file_printf(f, "\ntime_unit: %s\n", time_unit);
}

ULong mt_ms_heap_szB(const MtMsStack* stacks, UInt n_stacks)
{
   ULong heap_szB = 0;
   UInt i;
   for (i = 0; i < n_stacks; i++)
      heap_szB += stacks[i].szB;
   return heap_szB;
}

void mt_ms_print_header(MtFile* fp, const Massif_Header* h, ULong heap_szB)
{
   Printer printer;
   Printer* pr = &printer;
   pr->fp = fp;
   FP("#-----------\n");
   FP("snapshot=%d\n", h->snapshot_n);
   FP("#-----------\n");
   FP("time=%lld\n", h->time);
   FP("mem_heap_B=%llu\n", heap_szB);
   FP("mem_heap_extra_B=%llu\n", h->extra_B);
   FP("mem_stacks_B=%llu\n", h->stacks_B);
   FP("heap_tree=%s\n",
      h->detailed ? (h->peak ? "peak" : "detailed") : "empty");
}

void mt_ms_print_tree(MtFile* fp, const Massif_Header* h, ULong heap_szB,
                      const MtMsStack* stacks, UInt n_stacks,
                      UInt (*n_hidden)(Addr ip))
{
   Printer printer;
   Printer* pr = &printer;
   UInt i;

   pr->fp = fp;
   pr->threshold = h->sig_threshold;
   pr->n_hidden = n_hidden;
   pr->ep = VG_(current_DiEpoch)();

   /* Computed as the core does, in double then truncated, so the same
      sites fall below the threshold. */
   if (heap_szB == 0 && h->sig_threshold != 0)
      pr->sig_szB = 1;
   else
      pr->sig_szB = ((heap_szB + h->extra_B + h->stacks_B)
                     * h->sig_threshold) / 100;

   {
      Group* top;
      UInt n_top = make_groups(pr, 0, stacks, n_stacks, &top);
      FP("n%u: %llu %s\n", n_top, heap_szB, h->top_node_desc);
      for (i = 0; i < n_top; i++)
         print_group(pr, 0, 0, &top[i]);
      if (top != NULL)
         VG_(free)(top);
   }
}
