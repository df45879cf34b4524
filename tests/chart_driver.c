/* tests/chart_driver.c: a development driver for the chart code that builds a
 * vis_profile by hand (no parser needed) and renders it:
 *   chart_driver OUT.png|OUT.svg|OUT.gp [WIDTH HEIGHT [TOP_N]]
 * The profile mimics a node-like program: three growing sites (one freed at
 * 70% of the run), small ones, extra heap, stacks, and two phase marks. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chart.h"

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: chart_driver OUT [W H [TOP]]\n");
        return 2;
    }
    vis_chart_opts o;
    vis_chart_opts_default(&o);
    if (argc >= 4) {
        o.width = atoi(argv[2]);
        o.height = atoi(argv[3]);
    }
    if (argc >= 5)
        o.top_n = atoi(argv[4]);

    enum { N = 60 };
    static vis_snapshot snaps[N];
    static vis_site sites[N][6];
    static char names[6][300] = {
        "0x4011A6: tx_pool_add (node.c:42)",
        "0x4012B0: add_block (chain.c:118)",
        "0x401300: std::vector<state_trie::node, std::allocator<state_trie::node> >::_M_realloc_insert(__gnu_cxx::__normal_iterator<state_trie::node*, std::vector<state_trie::node> >, state_trie::node const&) (stl_vector.h:1198)",
        "0x401400: ??? (in /usr/lib/x86_64-linux-gnu/libcrypto.so.3)",
        "0x401500: peer_connect (net.c:77)",
        "in 12 places, all below massif's threshold (1.00%)",
    };
    vis_profile p;
    memset(&p, 0, sizeof p);
    p.path = "massif.out.driver";
    p.cmd = "./node --datadir /var/lib/node --sync full";
    p.desc = "--stacks=yes";
    p.unit = VIS_UNIT_MS;
    p.n_snaps = N;
    p.snaps = snaps;
    size_t peak = 0;
    for (int i = 0; i < N; i++) {
        vis_snapshot *s = &snaps[i];
        s->index = i;
        s->time = (uint64_t)i * 23;
        uint64_t a = (uint64_t)i * 150000, b = (uint64_t)i * 90000, c = (uint64_t)i * 60000;
        if (i > 42)
            a /= 5;                                /* the pool is flushed */
        uint64_t d = 300000 + (i % 7) * 10000, e = 100000, rest = 50000 + i * 1000;
        s->heap_B = a + b + c + d + e + rest;
        s->heap_extra_B = s->heap_B / 20;
        s->stacks_B = 40000 + (i % 5) * 2000;
        s->line = 1 + i * 10;
        if (i % 5 == 0 || i == 42) {
            s->kind = i == 42 ? VIS_TREE_PEAK : VIS_TREE_DETAILED;
            uint64_t v[6] = { a, b, c, d, e, rest };
            s->n_sites = 6;
            s->sites = sites[i];
            for (int k = 0; k < 6; k++) {
                sites[i][k].bytes = v[k];
                sites[i][k].label = names[k];
                sites[i][k].is_below_threshold = k == 5;
            }
        }
        if (vis_snap_total(s) > vis_snap_total(&snaps[peak]))
            peak = i;
    }
    p.peak = peak;
    p.peak_marked = 42;
    vis_mark marks[2] = { { 300, "sync: headers" }, { 800, "sync: state download" } };
    p.marks = marks;
    p.n_marks = 2;

    char err[512];
    const char *out = argv[1];
    size_t n = strlen(out);
    int rc;
    if (n > 3 && !strcmp(out + n - 3, ".gp"))
        rc = vis_chart_write_gnuplot(&p, &o, out, NULL, err, sizeof err);
    else if (n > 4 && (!strcmp(out + n - 4, ".svg") || !strcmp(out + n - 4, ".pdf")))
        rc = vis_chart_render_gnuplot(&p, &o, out, err, sizeof err);
    else
        rc = vis_chart_write_png(&p, &o, out, err, sizeof err);
    if (rc) {
        fprintf(stderr, "chart_driver: %s\n", err);
        return 1;
    }
    return 0;
}
