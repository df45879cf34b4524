/* gen-big-profile.c: writes a large, valid Massif-format file for bench "vis".
   The file stays inside the grammar both ms_print and massif-visualizer
   accept (see docs/file-format.md): header, snapshots 0..N-1, every other one
   detailed, exactly one peak, trees with siblings sorted by bytes, parents
   never smaller than the sum of their children, sub-threshold siblings merged
   into one "in K places" line. Function names carry spaces, parentheses,
   commas, templates and "(in /lib...)"/"???" frames like real C++ traces.
   One call tree (the "master" tree) is built once and re-weighted per
   snapshot, as in a real program whose allocation sites persist over time.
   Usage: gen-big-profile OUT_FILE [TARGET_MB]   (default 100) */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DEPTH    28
#define N_NODES      9000
#define THRESHOLD    0.01      /* percent, written in the desc: line too */

typedef struct {
    int parent, depth, n_kids, *kids;
    unsigned long addr;
    int name;                  /* index into the generated label list */
    double weight;             /* leaves only: base bytes */
    unsigned long long bytes;  /* this snapshot's bytes */
} Node;

static Node nodes[N_NODES];
static char **labels;
static int n_labels;
static unsigned long long rng = 0x9E3779B97F4A7C15ULL;

static unsigned long long next_rand(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

static double uniform(void) { return (double)(next_rand() >> 11) / 9007199254740992.0; }

/* Labels look like what Valgrind prints: "fn(args) (file:line)", a frame
   without debug info "(in /usr/lib/...)", or "???". */
static void make_labels(void)
{
    static const char *ns[] = { "node", "rocksdb::DBImpl", "std::vector<Block, std::allocator<Block> >",
        "(anonymous namespace)", "p2p::Peer", "chain::State", "std::_Hashtable<Key, std::pair<Key const, Val>, Alloc>",
        "mempool", "rpc::Server", "leveldb::Arena" };
    static const char *fn[] = { "insert", "apply_block", "_M_realloc_insert", "worker_main", "decode",
        "Write", "handle_message", "validate", "compact", "AllocateNewBlock", "operator()", "grow" };
    static const char *args[] = { "()", "(void*)", "(Block const&, unsigned long)", "(std::string const&)",
        "(int, char**)", "(WriteOptions const&, WriteBatch*)", "(__gnu_cxx::__normal_iterator<Block*> , Block&&)" };
    static const char *files[] = { "state.cc", "db_impl.cc", "stl_vector.h", "peer.rs", "main.c", "arena.cc" };
    static const char *objs[] = { "/usr/lib/x86_64-linux-gnu/librocksdb.so.7.8", "/usr/lib/x86_64-linux-gnu/libc.so.6",
        "/opt/node (beta)/bin/node", "/usr/lib/x86_64-linux-gnu/libstdc++.so.6.0.30" };
    char buf[512];

    n_labels = 4000;
    labels = malloc(sizeof *labels * (size_t)n_labels);
    for (int i = 0; i < n_labels; i++) {
        unsigned long long r = next_rand();
        int kind = (int)(r % 20);
        if (kind == 0)
            snprintf(buf, sizeof buf, "???");
        else if (kind <= 3)
            snprintf(buf, sizeof buf, "??? (in %s)", objs[(r >> 8) % 4]);
        else
            snprintf(buf, sizeof buf, "%s::%s_%d%s (%s:%d)", ns[(r >> 8) % 10], fn[(r >> 16) % 12], i,
                     args[(r >> 24) % 7], files[(r >> 32) % 6], (int)((r >> 40) % 3000) + 1);
        labels[i] = strdup(buf);
    }
}

/* Each new node hangs off a recent node most of the time (deep chains) and
   off any node otherwise (wide fans). */
static void make_tree(void)
{
    int *cap = calloc(N_NODES, sizeof *cap);
    nodes[0].parent = -1;
    for (int i = 1; i < N_NODES; i++) {
        int p;
        do {
            if (uniform() < 0.6)
                p = i - 1 - (int)(next_rand() % (unsigned)(i < 8 ? i : 8));
            else
                p = (int)(next_rand() % (unsigned)i);
        } while (nodes[p].depth >= MAX_DEPTH);
        Node *pn = &nodes[p];
        if (pn->n_kids == cap[p]) {
            cap[p] = cap[p] ? cap[p] * 2 : 4;
            pn->kids = realloc(pn->kids, sizeof(int) * (size_t)cap[p]);
        }
        pn->kids[pn->n_kids++] = i;
        nodes[i].parent = p;
        nodes[i].depth = pn->depth + 1;
        nodes[i].addr = 0x4000000UL + next_rand() % 0x3000000UL;
        nodes[i].name = (int)(next_rand() % (unsigned)n_labels);
    }
    for (int i = 1; i < N_NODES; i++)
        if (nodes[i].n_kids == 0)
            nodes[i].weight = 200.0 * exp(4.0 * uniform());   /* heavy-tailed sizes */
    free(cap);
}

/* Bytes of snapshot s: leaves vary smoothly over time, internal nodes get
   their children's sum plus, sometimes, bytes allocated at that frame itself. */
static unsigned long long weigh(int i, int s)
{
    Node *n = &nodes[i];
    if (n->n_kids == 0) {
        double t = 1.0 + 0.5 * sin(0.07 * s + i) + 0.01 * s;
        n->bytes = (unsigned long long)(n->weight * t) + 1;
        return n->bytes;
    }
    unsigned long long sum = i % 7 == 0 ? (unsigned long long)(n->addr % 4096) : 0;
    for (int k = 0; k < n->n_kids; k++)
        sum += weigh(n->kids[k], s);
    n->bytes = sum;
    return sum;
}

static int by_bytes_desc(const void *a, const void *b)
{
    unsigned long long x = nodes[*(const int *)a].bytes, y = nodes[*(const int *)b].bytes;
    return x < y ? 1 : x > y ? -1 : 0;
}

static void write_merged(FILE *f, int depth, unsigned long long bytes, int places)
{
    fprintf(f, "%*sn0: %llu in %d place%s, %sbelow massif's threshold (%.2f%%)\n", depth, "",
            bytes, places, places == 1 ? "" : "s", places == 1 ? "" : "all ", THRESHOLD);
}

/* Writes node i at its depth; children under the threshold are merged into one
   line placed among their siblings by its bytes, as Massif does. */
static void write_node(FILE *f, int i, unsigned long long limit)
{
    Node *n = &nodes[i];
    int kept = 0, merged = 0;
    unsigned long long merged_bytes = 0;

    qsort(n->kids, (size_t)n->n_kids, sizeof(int), by_bytes_desc);
    for (int k = 0; k < n->n_kids; k++) {
        if (nodes[n->kids[k]].bytes >= limit)
            kept++;
        else {
            merged++;
            merged_bytes += nodes[n->kids[k]].bytes;
        }
    }
    fprintf(f, "%*sn%d: %llu ", n->depth, "", kept + (merged > 0), n->bytes);
    if (i == 0)
        fputs("(heap allocation functions) malloc/new/new[], --alloc-fns, etc.\n", f);
    else if (strncmp(labels[n->name], "???", 3) == 0 && labels[n->name][3] == '\0')
        fputs("???\n", f);
    else
        fprintf(f, "0x%lX: %s\n", n->addr, labels[n->name]);
    int placed = merged == 0;
    for (int k = 0; k < kept; k++) {
        if (!placed && merged_bytes > nodes[n->kids[k]].bytes) {
            write_merged(f, n->depth + 1, merged_bytes, merged);
            placed = 1;
        }
        write_node(f, n->kids[k], limit);
    }
    if (!placed)
        write_merged(f, n->depth + 1, merged_bytes, merged);
}

static void write_snapshot(FILE *f, int s, const char *kind)
{
    unsigned long long heap = weigh(0, s);
    unsigned long long extra = (unsigned long long)N_NODES * 8;
    fprintf(f, "#-----------\nsnapshot=%d\n#-----------\ntime=%d\nmem_heap_B=%llu\n"
               "mem_heap_extra_B=%llu\nmem_stacks_B=0\nheap_tree=%s\n",
            s, 1000 + s * 250, heap, extra, kind);
    if (strcmp(kind, "empty") != 0)
        write_node(f, 0, (unsigned long long)((double)(heap + extra) * THRESHOLD / 100.0));
}

int main(int argc, char **argv)
{
    if (argc < 2 || argc > 3) {
        fprintf(stderr, "usage: gen-big-profile OUT_FILE [TARGET_MB]\n");
        return 2;
    }
    double target_mb = argc == 3 ? atof(argv[2]) : 100.0;
    make_labels();
    make_tree();

    /* Size one detailed tree to know how many snapshots reach the target. */
    FILE *probe = tmpfile();
    if (!probe) { perror("tmpfile"); return 1; }
    write_snapshot(probe, 0, "detailed");
    double tree_b = (double)ftell(probe);
    fclose(probe);
    int n_detailed = (int)(target_mb * 1e6 / tree_b + 0.5);
    if (n_detailed < 1) n_detailed = 1;
    int n_snap = 2 * n_detailed;

    /* The peak is the snapshot with the largest total, known in advance. */
    int peak = 0;
    unsigned long long best = 0;
    for (int s = 0; s < n_snap; s++) {
        unsigned long long h = weigh(0, s);
        if (h > best) { best = h; peak = s; }
    }
    FILE *f = fopen(argv[1], "w");
    if (!f) { perror(argv[1]); return 1; }
    fprintf(f, "desc: --threshold=%.2f (generated by bench/gen-big-profile)\n", THRESHOLD);
    fprintf(f, "cmd: ./node --datadir /var/lib/node (test net) --dbcache=450\ntime_unit: ms\n");
    for (int s = 0; s < n_snap; s++)
        write_snapshot(f, s, s == peak ? "peak" : s % 2 == 0 ? "detailed" : "empty");
    if (fclose(f) != 0) { perror(argv[1]); return 1; }
    return 0;
}
