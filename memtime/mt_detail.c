/* mt_detail.c: the unpruned detail of the trees (see mt_detail.h).

   What it costs, and why it is built this way:
   - A detailed snapshot already freezes every stack's live bytes
     (mt_tree.c), and a frozen snapshot never changes. Its detail is
     derived once, at the first rewrite that finds it, and kept (by the
     snapshot's serial number) until the snapshot leaves the profile
     (culled, or a forked child's fresh start): each rewrite derives only
     the snapshots taken since the previous one.
   - Deriving is one pass over the snapshot's stacks: each stack adds its
     bytes to the node of each of its first --detail-depth IPs, found by
     hashing (parent node, IP), so O(stacks x depth), never a sort of the
     stacks; then each node's children are sorted by bytes (the profile's
     order: largest first, ties by the lower IP).
   - The tree is kept as IPs. Labels are made at write time, as the
     profile's are, so both say the same thing at the same rewrite: one
     describe_IP per inlined frame per distinct IP, cached across
     rewrites, and the cache dropped when the debug info changes (a new
     DiEpoch: dlopen, dlclose) or, for a site, when the number of
     plumbing frames the trees hide at its top changed (an allocator
     pattern added at run time).
   - Labels are interned: the "frame:" table holds each label once, in
     the order the "dtree:" lines first use it, and only the labels used.

   Depth: --detail-depth counts call levels (IPs), not lines. An IP with
   inlined frames is one node per frame in the profile's trees, the
   innermost first, and so it is here (the labels must match the
   profile's node for node), so a node's depth in a "dtree:" line is its
   depth in the profile's tree and may exceed --detail-depth: with the
   default 2, the sites and their real callers are always there, whatever
   was inlined into them.

   Unnamed paths: past --detail-depth, a stack goes on while its last level
   kept has no function name (mt_frames_unnamed, cached per IP), to its
   first named frame or its end. Code of a stripped library (rustc's
   librustc_driver, LLVM) is often several unnamed levels deep; without its
   named callers a reader could only pool it by object. Named paths, the
   common case, cost nothing more. On rustc (bench/b-rust.sh) the
   companion grows from about 4 MB to about 10 MB, memtime's CPU time by
   about 1.6% (bench/README.md, detail and rust). */
#include "pub_tool_basics.h"
#include "pub_tool_debuginfo.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_xarray.h"

#include "mt_companion.h"
#include "mt_detail.h"
#include "mt_file.h"
#include "mt_frames.h"
#include "mt_options.h"
#include "mt_snapshot.h"
#include "mt_tree.h"

/*------------------------------------------------------------*/
/*--- Small helpers                                         ---*/
/*------------------------------------------------------------*/

static UWord hash_key(UWord a, UWord b)
{
   UWord h = a * 0x9E3779B97F4A7C15ULL;
   h ^= b * 0xC2B2AE3D27D4EB4FULL;
   h ^= h >> 29;
   h *= 0xBF58476D1CE4E5B9ULL;
   return h ^ (h >> 32);
}

/* Grows *arr (elements of size sz) to hold at least n. */
static void ensure(void** arr, UInt* cap, UInt n, SizeT sz, const HChar* cc)
{
   UInt new_cap;
   if (n <= *cap)
      return;
   new_cap = *cap < 64 ? 64 : *cap;
   while (new_cap < n)
      new_cap *= 2;
   *arr = VG_(realloc)(cc, *arr, (SizeT)new_cap * sz);
   *cap = new_cap;
}

/*------------------------------------------------------------*/
/*--- A snapshot's tree, as IPs                             ---*/
/*------------------------------------------------------------*/

/* One node of a snapshot's detail, in pre-order. */
typedef struct {
   Addr   ip;
   ULong  szB;
   UShort level;    /* call level: 1 a site, 2 its caller, ... */
} DNode;

typedef struct {
   ULong  serial;   /* the snapshot's (mt_tree_snap_serial) */
   DNode* nodes;    /* NULL when n_nodes == 0 */
   UInt   n_nodes;
} DTree;

/* A node while the tree is built. */
typedef struct {
   Addr  ip;
   ULong szB;
   UInt  parent;
   UInt  level;
} BNode;

/* The builder's scratch, kept between snapshots (its size follows the
   largest tree seen). */
static BNode* b_nodes;
static UInt   b_nodes_cap;
static UInt   b_n;
static UInt*  b_slots;        /* node index + 1, 0: empty */
static UInt   b_slots_cap;    /* a power of 2 */
static UInt*  b_kids;         /* children grouped by parent */
static UInt   b_kids_cap;
static UInt*  b_first;        /* per node: start of its children in b_kids */
static UInt   b_first_cap;

static UInt b_lookup_slot(UInt parent, Addr ip)
{
   UInt mask = b_slots_cap - 1;
   UInt s = (UInt)hash_key(ip, parent) & mask;
   while (b_slots[s] != 0) {
      const BNode* n = &b_nodes[b_slots[s] - 1];
      if (n->ip == ip && n->parent == parent)
         break;
      s = (s + 1) & mask;
   }
   return s;
}

static void b_rehash(UInt new_cap)
{
   UInt i;
   if (b_slots != NULL)
      VG_(free)(b_slots);
   b_slots_cap = new_cap;
   b_slots = VG_(calloc)("mt.detail.slots", b_slots_cap, sizeof(UInt));
   for (i = 1; i < b_n; i++)
      b_slots[b_lookup_slot(b_nodes[i].parent, b_nodes[i].ip)] = i + 1;
}

/* The child of parent for ip, made if new. */
static UInt b_child(UInt parent, Addr ip)
{
   UInt s = b_lookup_slot(parent, ip);
   if (b_slots[s] != 0)
      return b_slots[s] - 1;
   ensure((void**)&b_nodes, &b_nodes_cap, b_n + 1, sizeof(BNode),
          "mt.detail.bnodes");
   b_nodes[b_n].ip = ip;
   b_nodes[b_n].szB = 0;
   b_nodes[b_n].parent = parent;
   b_nodes[b_n].level = b_nodes[parent].level + 1;
   b_slots[s] = b_n + 1;
   b_n++;
   /* At most half full, so probes stay short. */
   if (2 * b_n > b_slots_cap)
      b_rehash(2 * b_slots_cap);
   return b_n - 1;
}

/* Siblings in the profile's order: largest first, ties by the lower IP. */
static Int cmp_kids(const void* va, const void* vb)
{
   const BNode* a = &b_nodes[*(const UInt*)va];
   const BNode* b = &b_nodes[*(const UInt*)vb];
   if (a->szB != b->szB)
      return a->szB > b->szB ? -1 : 1;
   if (a->ip != b->ip)
      return a->ip < b->ip ? -1 : 1;
   return 0;
}

static void build_tree(const MtTreeSnap* snap, DTree* t)
{
   UInt i, n = mt_tree_snap_n_stacks(snap);
   UInt depth = (UInt)clo_detail_depth;
   UInt* stack;
   UInt sp, out;

   t->serial = mt_tree_snap_serial(snap);
   t->nodes = NULL;
   t->n_nodes = 0;

   /* The root is node 0. */
   ensure((void**)&b_nodes, &b_nodes_cap, 1, sizeof(BNode),
          "mt.detail.bnodes");
   b_n = 1;
   b_nodes[0].ip = 0;
   b_nodes[0].szB = 0;
   b_nodes[0].parent = 0;
   b_nodes[0].level = 0;
   if (b_slots_cap == 0)
      b_rehash(1024);
   else
      VG_(memset)(b_slots, 0, b_slots_cap * sizeof(UInt));

   for (i = 0; i < n; i++) {
      UInt n_ips, l, cur = 0;
      SizeT szB;
      const Addr* ips = mt_tree_snap_stack(snap, i, &n_ips, &szB);
      if (n_ips == 0 || szB == 0)
         continue;
      /* Past --detail-depth, on while the last level kept has no name:
         a reader names an unnamed frame by its first named caller, so
         that caller must be in the detail. */
      for (l = 0; l < n_ips
                  && (l < depth || (l > 0 && mt_frames_unnamed(ips[l - 1])));
           l++) {
         cur = b_child(cur, ips[l]);
         b_nodes[cur].szB += szB;
      }
   }
   if (b_n == 1)
      return;

   /* Children grouped by parent (a counting sort), each group sorted. */
   ensure((void**)&b_first, &b_first_cap, b_n + 1, sizeof(UInt),
          "mt.detail.first");
   ensure((void**)&b_kids, &b_kids_cap, b_n, sizeof(UInt),
          "mt.detail.kids");
   VG_(memset)(b_first, 0, (b_n + 1) * sizeof(UInt));
   for (i = 1; i < b_n; i++)
      b_first[b_nodes[i].parent + 1]++;
   for (i = 1; i <= b_n; i++)
      b_first[i] += b_first[i - 1];
   {
      /* b_first[p] .. b_first[p+1]-1: p's children. Filled through a
         moving cursor, then the cursors put back. */
      for (i = 1; i < b_n; i++)
         b_kids[b_first[b_nodes[i].parent]++] = i;
      for (i = b_n; i > 0; i--)
         b_first[i] = b_first[i - 1];
      b_first[0] = 0;
   }
   for (i = 0; i < b_n; i++) {
      UInt k = b_first[i + 1] - b_first[i];
      if (k > 1)
         VG_(ssort)(&b_kids[b_first[i]], k, sizeof(UInt), cmp_kids);
   }

   /* Pre-order, with an explicit stack of nodes still to visit (pushed in
      reverse so the largest child comes out first). */
   t->n_nodes = b_n - 1;
   t->nodes = VG_(malloc)("mt.detail.tree", t->n_nodes * sizeof(DNode));
   stack = VG_(malloc)("mt.detail.dfs", b_n * sizeof(UInt));
   sp = 0;
   out = 0;
   for (i = b_first[1]; i > b_first[0]; i--)
      stack[sp++] = b_kids[i - 1];
   while (sp > 0) {
      UInt k = stack[--sp];
      t->nodes[out].ip = b_nodes[k].ip;
      t->nodes[out].szB = b_nodes[k].szB;
      t->nodes[out].level = (UShort)b_nodes[k].level;
      out++;
      for (i = b_first[k + 1]; i > b_first[k]; i--)
         stack[sp++] = b_kids[i - 1];
   }
   tl_assert(out == t->n_nodes);
   VG_(free)(stack);
}

static void free_tree(DTree* t)
{
   if (t->nodes != NULL)
      VG_(free)(t->nodes);
   t->nodes = NULL;
}

/* The trees of the snapshots at the last rewrite, by increasing serial
   (the profile's order: a later snapshot was taken later). */
static XArray* trees;   /* DTree */

/*------------------------------------------------------------*/
/*--- Labels                                                ---*/
/*------------------------------------------------------------*/

/* An interned label. */
typedef struct {
   HChar* s;
   UInt   stamp;   /* the rewrite that last used it */
   UInt   out;     /* its frame id in that rewrite */
} Label;

static Label* labels;
static UInt   n_labels, labels_cap;
static UInt*  label_slots;        /* label index + 1 */
static UInt   label_slots_cap;

/* Each IP's labels as a node (site or not): a run of label indexes. */
typedef struct {
   Addr ip;
   Bool site;
   UInt hide;      /* for a site: the hidden frames when made */
   UInt rules;     /* mt_tree_rules_generation when hide was checked */
   UInt first;     /* in pool */
   UInt n;
} IpLabels;

static IpLabels* ipl;
static UInt      n_ipl, ipl_cap;
static UInt*     ipl_slots;       /* ipl index + 1 */
static UInt      ipl_slots_cap;
static UInt*     pool;
static UInt      n_pool, pool_cap;

static UInt  cache_epoch;         /* the DiEpoch the labels were made in */
static Bool  cache_valid = False;

static UWord hash_str(const HChar* s)
{
   UWord h = 1469598103934665603ULL;
   for (; *s != '\0'; s++)
      h = (h ^ (UChar)*s) * 1099511628211ULL;
   return h;
}

static void label_rehash(UInt new_cap)
{
   UInt i;
   if (label_slots != NULL)
      VG_(free)(label_slots);
   label_slots_cap = new_cap;
   label_slots = VG_(calloc)("mt.detail.lslots", new_cap, sizeof(UInt));
   for (i = 0; i < n_labels; i++) {
      UInt s = (UInt)hash_str(labels[i].s) & (new_cap - 1);
      while (label_slots[s] != 0)
         s = (s + 1) & (new_cap - 1);
      label_slots[s] = i + 1;
   }
}

static UInt intern(const HChar* s)
{
   UInt mask = label_slots_cap - 1;
   UInt slot = (UInt)hash_str(s) & mask;
   while (label_slots[slot] != 0) {
      if (VG_(strcmp)(labels[label_slots[slot] - 1].s, s) == 0)
         return label_slots[slot] - 1;
      slot = (slot + 1) & mask;
   }
   ensure((void**)&labels, &labels_cap, n_labels + 1, sizeof(Label),
          "mt.detail.labels");
   labels[n_labels].s = VG_(strdup)("mt.detail.label", s);
   labels[n_labels].stamp = 0;
   labels[n_labels].out = 0;
   label_slots[slot] = n_labels + 1;
   n_labels++;
   if (2 * n_labels > label_slots_cap)
      label_rehash(2 * label_slots_cap);
   return n_labels - 1;
}

static void add_label(const HChar* label, void* arg)
{
   (void)arg;
   ensure((void**)&pool, &pool_cap, n_pool + 1, sizeof(UInt),
          "mt.detail.pool");
   pool[n_pool++] = intern(label);
}

static void ipl_rehash(UInt new_cap)
{
   UInt i;
   if (ipl_slots != NULL)
      VG_(free)(ipl_slots);
   ipl_slots_cap = new_cap;
   ipl_slots = VG_(calloc)("mt.detail.islots", new_cap, sizeof(UInt));
   for (i = 0; i < n_ipl; i++) {
      UInt s = (UInt)hash_key(ipl[i].ip, ipl[i].site) & (new_cap - 1);
      while (ipl_slots[s] != 0)
         s = (s + 1) & (new_cap - 1);
      ipl_slots[s] = i + 1;
   }
}

/* Drops every label when the debug info changed since they were made. */
static void check_epoch(void)
{
   UInt i, epoch = VG_(current_DiEpoch)().n;
   if (cache_valid && epoch == cache_epoch)
      return;
   for (i = 0; i < n_labels; i++)
      VG_(free)(labels[i].s);
   n_labels = n_ipl = n_pool = 0;
   label_rehash(1024);
   ipl_rehash(1024);
   cache_epoch = epoch;
   cache_valid = True;
}

/* ip's labels as a node of the trees (a site when 'site'). */
static const IpLabels* ip_labels(Addr ip, Bool site)
{
   UInt mask = ipl_slots_cap - 1;
   UInt s = (UInt)hash_key(ip, site) & mask;
   UInt rules = mt_tree_rules_generation();
   UInt hide;
   IpLabels* e;
   while (ipl_slots[s] != 0) {
      e = &ipl[ipl_slots[s] - 1];
      if (e->ip == ip && e->site == site) {
         /* Only a new pattern can change what the trees hide: asking
            for every site at every rewrite was a hash lookup per site
            node per detailed snapshot (about a million on rustc). */
         if (site && e->rules != rules) {
            hide = mt_tree_site_hidden(ip);
            if (e->hide != hide) {
               /* A pattern added since changed what the trees hide. */
               e->first = n_pool;
               mt_tree_ip_labels(ip, site, add_label, NULL);
               e->n = n_pool - e->first;
               e->hide = hide;
            }
         }
         e->rules = rules;
         return e;
      }
      s = (s + 1) & mask;
   }
   hide = site ? mt_tree_site_hidden(ip) : 0;
   ensure((void**)&ipl, &ipl_cap, n_ipl + 1, sizeof(IpLabels),
          "mt.detail.ipl");
   e = &ipl[n_ipl];
   e->ip = ip;
   e->site = site;
   e->hide = hide;
   e->rules = rules;
   e->first = n_pool;
   mt_tree_ip_labels(ip, site, add_label, NULL);
   e->n = n_pool - e->first;
   tl_assert(e->n > 0);
   ipl_slots[s] = n_ipl + 1;
   n_ipl++;
   if (2 * n_ipl > ipl_slots_cap)
      ipl_rehash(2 * ipl_slots_cap);
   return &ipl[n_ipl - 1];
}

/*------------------------------------------------------------*/
/*--- Writing                                               ---*/
/*------------------------------------------------------------*/

/* Brings 'trees' to the detailed snapshots the profile holds now: keeps
   the trees of those still there, builds the new ones, frees the rest. */
static void update_trees(void)
{
   XArray* now = VG_(newXA)(VG_(malloc), "mt.detail.trees", VG_(free),
                            sizeof(DTree));
   Word old_i = 0, n_old = trees != NULL ? VG_(sizeXA)(trees) : 0;
   Int i, n = mt_snapshot_count();
   for (i = 0; i < n; i++) {
      Time time;
      const MtTreeSnap* xt = mt_snapshot_tree(i, &time);
      ULong serial;
      DTree t;
      if (xt == NULL)
         continue;
      serial = mt_tree_snap_serial(xt);
      while (old_i < n_old
             && ((DTree*)VG_(indexXA)(trees, old_i))->serial < serial)
         free_tree(VG_(indexXA)(trees, old_i++));
      if (old_i < n_old
          && ((DTree*)VG_(indexXA)(trees, old_i))->serial == serial)
         t = *(DTree*)VG_(indexXA)(trees, old_i++);
      else
         build_tree(xt, &t);
      VG_(addToXA)(now, &t);
   }
   while (old_i < n_old)
      free_tree(VG_(indexXA)(trees, old_i++));
   if (trees != NULL)
      VG_(deleteXA)(trees);
   trees = now;
}

Bool mt_detail_any(void)
{
   Int i, n = mt_snapshot_count();
   if (clo_detail_depth == 0)
      return False;
   for (i = 0; i < n; i++) {
      Time time;
      if (mt_snapshot_tree(i, &time) != NULL)
         return True;
   }
   return False;
}

/* Decimal digits of v, written backwards from end; returns the start. */
static HChar* put_ulong(HChar* end, ULong v)
{
   do {
      *--end = (HChar)('0' + v % 10);
      v /= 10;
   } while (v != 0);
   return end;
}

/* A buffer of one dtree: line, written out in pieces. */
typedef struct {
   MtFile* c;
   HChar   buf[4096];
   UInt    used;
} LineBuf;

static void lb_node(LineBuf* lb, UInt depth, UInt id, ULong szB)
{
   HChar tmp[80];
   HChar* end = tmp + sizeof tmp;
   HChar* p = put_ulong(end, szB);
   *--p = '.';
   p = put_ulong(p, id);
   *--p = '.';
   p = put_ulong(p, depth);
   *--p = ' ';
   if (lb->used + (UInt)(end - p) > sizeof lb->buf) {
      mt_file_write(lb->c, lb->buf, lb->used);
      lb->used = 0;
   }
   VG_(memcpy)(lb->buf + lb->used, p, end - p);
   lb->used += end - p;
}

void mt_detail_companion(MtFile* c)
{
   static UInt stamp = 0;
   UInt* order = NULL;      /* label indexes in frame id order */
   UInt n_order = 0, order_cap = 0;
   Word t_i, n_trees;
   Int i, n;
   LineBuf* lb;

   if (c == NULL || !mt_detail_any())
      return;
   check_epoch();
   update_trees();
   n_trees = VG_(sizeXA)(trees);

   /* The frame ids: labels in the order the dtree: lines use them. */
   stamp++;
   for (t_i = 0; t_i < n_trees; t_i++) {
      const DTree* t = VG_(indexXA)(trees, t_i);
      UInt k, j;
      for (k = 0; k < t->n_nodes; k++) {
         const IpLabels* e = ip_labels(t->nodes[k].ip, t->nodes[k].level == 1);
         for (j = 0; j < e->n; j++) {
            Label* l = &labels[pool[e->first + j]];
            if (l->stamp == stamp)
               continue;
            l->stamp = stamp;
            l->out = n_order;
            ensure((void**)&order, &order_cap, n_order + 1, sizeof(UInt),
                   "mt.detail.order");
            order[n_order++] = pool[e->first + j];
         }
      }
   }

   mt_companion_record(c, MtRecDetail, "depth=%d snapshots=%ld frames=%u",
                       clo_detail_depth, (long)n_trees, n_order);
   for (i = 0; (UInt)i < n_order; i++) {
      mt_companion_begin(c, MtRecFrame);
      mt_companion_add(c, "%d ", i);
      mt_file_puts(c, labels[order[i]].s);
      mt_companion_end(c);
   }

   lb = VG_(malloc)("mt.detail.line", sizeof(LineBuf));
   lb->c = c;
   n = mt_snapshot_count();
   t_i = 0;
   for (i = 0; i < n; i++) {
      Time time;
      const MtTreeSnap* xt = mt_snapshot_tree(i, &time);
      const DTree* t;
      /* base[l]: the depth, in lines, of the last line of the last node
         seen at call level l. */
      UInt base[MT_MAX_DEPTH + 1];
      UInt k, j;
      if (xt == NULL)
         continue;
      t = VG_(indexXA)(trees, t_i++);
      tl_assert(t->serial == mt_tree_snap_serial(xt));
      mt_companion_begin(c, MtRecDTree);
      mt_companion_add(c, "snapshot=%d time=%lld", i, (Long)time);
      base[0] = 0;
      lb->used = 0;
      for (k = 0; k < t->n_nodes; k++) {
         const DNode* d = &t->nodes[k];
         const IpLabels* e = ip_labels(d->ip, d->level == 1);
         UInt depth = base[d->level - 1];
         for (j = 0; j < e->n; j++)
            lb_node(lb, ++depth, labels[pool[e->first + j]].out, d->szB);
         base[d->level] = depth;
      }
      mt_file_write(c, lb->buf, lb->used);
      mt_companion_end(c);
   }
   tl_assert(t_i == n_trees);
   VG_(free)(lb);
   if (order != NULL)
      VG_(free)(order);
}
