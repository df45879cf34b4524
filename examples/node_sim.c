/* node_sim: a small stand-in for a long-running node (the program the README's
 * Quick start profiles). It goes through the phases that make memory bugs in
 * real nodes hard to read without a timeline:
 *   1. sync:     a block cache grows steadily (blocks of varying size);
 *   2. mempool:  a burst of many small transactions, most dropped quickly;
 *   3. verify:   a compute phase that allocates nothing;
 *   4. prune:    half of the cache is released, the state index is rebuilt;
 *   5. serve:    steady state, computing until exit.
 * Through every phase it also keeps a record of peer activity that nothing
 * ever trims: a slow leak, about 1 KiB now and then, that the growth views
 * (memtime-vis --growth, the summary's "Growing") single out; the user
 * guide's "Finding a leak" (docs/guide.md) walks through it.
 * Build: cc -g -O1 -o node_sim node_sim.c   Run: node_sim [scale]  (default 1) */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef MEMTIME_EXAMPLE_MARKS
#include <memtime.h>
#define PHASE(label) MEMTIME_MARK(label)
#else
#define PHASE(label) ((void)0)
#endif

struct block {
    uint64_t height;
    size_t n_tx;
    unsigned char *body;
};

struct tx {
    struct tx *next;
    size_t len;
    unsigned char payload[];
};

static struct block **cache;
static size_t cache_len, cache_cap;
static uint64_t *state_index;
static size_t state_len;

/* Peer activity records, kept in a list that is never trimmed: the leak. */
struct peer_stat {
    struct peer_stat *next;
    uint64_t at;
    unsigned char detail[1000];
};
static struct peer_stat *peer_stats;

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;
static uint64_t rng(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

/* Allocation failure ends the run; a macro, not a wrapper function, so each
 * call site stays its own entry in the allocation tree. */
#define CHECK(p) do { if (!(p)) { fprintf(stderr, "node_sim: out of memory\n"); exit(1); } } while (0)

/* The cache's index array grows by doubling: realloc shows up as its own site. */
static void cache_insert(struct block *b)
{
    if (cache_len == cache_cap) {
        cache_cap = cache_cap ? cache_cap * 2 : 64;
        struct block **n = realloc(cache, cache_cap * sizeof *cache);
        CHECK(n);
        cache = n;
    }
    cache[cache_len++] = b;
}

static struct block *decode_block(uint64_t height)
{
    struct block *b = malloc(sizeof *b);
    CHECK(b);
    b->height = height;
    b->n_tx = 20 + rng() % 200;
    size_t body = 2048 + (rng() % 8192);
    b->body = malloc(body);
    CHECK(b->body);
    /* "Verify" the block as it arrives, so the cache grows over time, not at once. */
    uint64_t sum = height;
    for (size_t i = 0; i < body; i++) {
        b->body[i] = (unsigned char)(sum >> 7);
        sum = sum * 1099511628211ull + i;
    }
    b->n_tx ^= sum & 1;
    return b;
}

static void note_peer_activity(uint64_t at)
{
    struct peer_stat *s = malloc(sizeof *s);
    CHECK(s);
    s->at = at;
    memset(s->detail, (int)(at & 0xff), sizeof s->detail);
    s->next = peer_stats;
    peer_stats = s;
}

static void sync_blocks(uint64_t from, uint64_t n)
{
    for (uint64_t h = from; h < from + n; h++) {
        cache_insert(decode_block(h));
        if (h % 8 == 0)
            note_peer_activity(h);
    }
}

static struct tx *receive_tx(size_t len)
{
    struct tx *t = malloc(sizeof *t + len);
    CHECK(t);
    t->len = len;
    memset(t->payload, 0xab, len);
    return t;
}

/* A burst: many transactions arrive, 70% are dropped as duplicates. */
static void mempool_burst(size_t n)
{
    struct tx *kept = NULL;
    for (size_t i = 0; i < n; i++) {
        struct tx *t = receive_tx(200 + rng() % 600);
        if (i % 500 == 0)
            note_peer_activity(i);
        if (rng() % 10 < 3) {
            t->next = kept;
            kept = t;
        } else {
            free(t);
        }
    }
    while (kept) {
        struct tx *next = kept->next;
        free(kept);
        kept = next;
    }
}

/* Pure computation: nothing is allocated, so Massif's clock would not move. */
static uint64_t verify_chain(unsigned rounds)
{
    uint64_t acc = 0;
    for (unsigned r = 0; r < rounds; r++)
        for (size_t i = 0; i < cache_len; i++)
            acc = acc * 31 + cache[i]->body[r % 2048] + cache[i]->height;
    return acc;
}

static void rebuild_state_index(void)
{
    free(state_index);
    state_len = cache_len * 200;
    state_index = calloc(state_len, sizeof *state_index);
    CHECK(state_index);
    for (size_t i = 0; i < state_len; i++)
        state_index[i] = rng();
}

static void prune_cache(void)
{
    size_t keep = cache_len / 2;
    for (size_t i = 0; i < keep; i++) {
        free(cache[i]->body);
        free(cache[i]);
    }
    memmove(cache, cache + keep, (cache_len - keep) * sizeof *cache);
    cache_len -= keep;
}

int main(int argc, char **argv)
{
    unsigned scale = argc > 1 ? (unsigned)atoi(argv[1]) : 1;
    if (scale == 0) scale = 1;

    PHASE("sync");
    sync_blocks(0, 1500 * scale);
    rebuild_state_index();
    PHASE("mempool burst");
    mempool_burst(20000 * scale);
    sync_blocks(1500 * scale, 500 * scale);
    PHASE("verify");
    uint64_t h = 0;
    for (unsigned step = 0; step < 20; step++) {
        h = h * 31 + verify_chain(5000);
        note_peer_activity(step);
    }
    PHASE("prune");
    prune_cache();
    rebuild_state_index();
    sync_blocks(2000 * scale, 300 * scale);
    PHASE("serve");
    for (unsigned step = 0; step < 40; step++) {   /* steady state: serving */
        h = h * 31 + verify_chain(2000);
        note_peer_activity(step);
    }
    printf("node_sim: %zu blocks cached, state %zu entries, digest %016llx\n",
           cache_len, state_len, (unsigned long long)h);
    return 0;
}
