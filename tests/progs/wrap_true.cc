// wrap_true.cc (t660): true allocation wrappers, every byte known by
// construction, held until the program exits. ROUNDS rounds; in each,
// every caller allocates a quarter of its bytes, so each grows steadily.
//   pool_get (a name nobody knows; by its shape): 8 callers, caller k of
//     the list below holding k * 10000 B (open_table 10000 .. send_reply
//     80000; 360000 B), the largest 22%.
//   make_array<char> (a C++ allocator template; by its shape): 8 callers,
//     k * 8000 B (lex_token 8000 .. cache_plan 64000; 288000 B).
//   my_malloc (MariaDB's name; known): conn_open 30000, conn_auth 20000,
//     conn_close 10000 (60000 B), under memtime --known-alloc-fns=no.
#include <cstddef>
#include <cstdlib>
#include <cstring>

#define NOINLINE __attribute__((noinline))
enum { ROUNDS = 4 };
static void *held[256];
static int n_held;

static void *keep(void *p, std::size_t n)
{
    std::memset(p, 1, n);
    held[n_held++] = p;
    return p;
}

NOINLINE void *pool_get(std::size_t n) { return keep(std::malloc(n), n); }
extern "C" NOINLINE void *my_malloc(std::size_t n) { return keep(std::malloc(n), n); }
template <typename T> NOINLINE T *make_array(std::size_t n)
{
    return static_cast<T *>(keep(std::malloc(n * sizeof(T)), n * sizeof(T)));
}

NOINLINE void open_table() { pool_get(2500); }
NOINLINE void read_row() { pool_get(5000); }
NOINLINE void sort_rows() { pool_get(7500); }
NOINLINE void build_index() { pool_get(10000); }
NOINLINE void join_rows() { pool_get(12500); }
NOINLINE void group_rows() { pool_get(15000); }
NOINLINE void write_log() { pool_get(17500); }
NOINLINE void send_reply() { pool_get(20000); }
NOINLINE void lex_token() { make_array<char>(2000); }
NOINLINE void parse_expr() { make_array<char>(4000); }
NOINLINE void plan_query() { make_array<char>(6000); }
NOINLINE void bind_params() { make_array<char>(8000); }
NOINLINE void eval_filter() { make_array<char>(10000); }
NOINLINE void fetch_page() { make_array<char>(12000); }
NOINLINE void encode_row() { make_array<char>(14000); }
NOINLINE void cache_plan() { make_array<char>(16000); }
NOINLINE void conn_open() { my_malloc(7500); }
NOINLINE void conn_auth() { my_malloc(5000); }
NOINLINE void conn_close() { my_malloc(2500); }

int main()
{
    for (int r = 0; r < ROUNDS; r++) {
        open_table();
        read_row();
        sort_rows();
        build_index();
        join_rows();
        group_rows();
        write_log();
        send_reply();
        lex_token();
        parse_expr();
        plan_query();
        bind_params();
        eval_filter();
        fetch_page();
        encode_row();
        cache_plan();
        conn_open();
        conn_auth();
        conn_close();
    }
    return n_held == ROUNDS * 19 ? 0 : 1;   /* all held at exit */
}
