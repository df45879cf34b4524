// ns_wrapped.cc: a C++ program shaped like a database server (t618): deep
// namespaces and classes whose every allocation goes through one of two
// wrappers of its own, so the heap at the peak is known by construction
// per function, per namespace at every depth, and per wrapper.
//   my_malloc (MariaDB's name: memtime strips it by --known-alloc-fns):
//     db::engine::buf::Pool::grow      4 x 100000 = 400000 B
//     db::engine::log::Writer::reserve 150000 B
//     db::sql::exec::Join::buffer      3 x 40000  = 120000 B
//     net::vio::Socket::read_buf       90000 B
//   pool_take (a name nobody knows: 8 callers, none above 50%, nothing of
//   its own, a wrapper by its shape):
//     db::sql::parse::Lexer::token     10000 B
//     db::sql::parse::Parser::node     20000 B
//     db::sql::exec::Sort::keys        30000 B
//     db::engine::buf::Page::frame     40000 B
//     db::engine::log::Rec::body       50000 B
//     net::vio::Ssl::state             60000 B
//     net::proto::Packet::alloc        70000 B
//     (anonymous namespace)::scratch   80000 B
// Everything is held until main frees it at the end; the blocks are kept
// in a static array, so no other allocation of the program's is live.
#include <cstddef>
#include <cstdlib>
#include <cstring>

static void *held[64];
static int n_held;

static void *keep(void *p)
{
    std::memset(p, 1, 16);
    held[n_held++] = p;
    return p;
}

extern "C" __attribute__((noinline)) void *my_malloc(std::size_t n)
{
    return keep(std::malloc(n));
}

extern "C" __attribute__((noinline)) void *pool_take(std::size_t n)
{
    return keep(std::malloc(n));
}

#define NOINLINE __attribute__((noinline))

namespace db {
namespace engine {
namespace buf {
struct Pool {
    NOINLINE static void grow(std::size_t n) { my_malloc(n); }
};
struct Page {
    NOINLINE static void frame(std::size_t n) { pool_take(n); }
};
}  // namespace buf
namespace log {
struct Writer {
    NOINLINE void reserve(std::size_t n) { my_malloc(n); }
};
struct Rec {
    NOINLINE static void body(std::size_t n) { pool_take(n); }
};
}  // namespace log
}  // namespace engine
namespace sql {
namespace parse {
struct Lexer {
    NOINLINE static void token(std::size_t n) { pool_take(n); }
};
struct Parser {
    NOINLINE static void node(std::size_t n) { pool_take(n); }
};
}  // namespace parse
namespace exec {
struct Join {
    NOINLINE static void buffer(std::size_t n) { my_malloc(n); }
};
struct Sort {
    NOINLINE static void keys(std::size_t n) { pool_take(n); }
};
}  // namespace exec
}  // namespace sql
}  // namespace db

namespace net {
namespace vio {
struct Socket {
    NOINLINE static void read_buf(std::size_t n) { my_malloc(n); }
};
struct Ssl {
    NOINLINE static void state(std::size_t n) { pool_take(n); }
};
}  // namespace vio
namespace proto {
struct Packet {
    NOINLINE static void alloc(std::size_t n) { pool_take(n); }
};
}  // namespace proto
}  // namespace net

namespace {
NOINLINE void scratch(std::size_t n) { pool_take(n); }
}  // namespace

int main()
{
    for (int i = 0; i < 4; i++)
        db::engine::buf::Pool::grow(100000);
    db::engine::log::Writer w;
    w.reserve(150000);
    for (int i = 0; i < 3; i++)
        db::sql::exec::Join::buffer(40000);
    net::vio::Socket::read_buf(90000);
    db::sql::parse::Lexer::token(10000);
    db::sql::parse::Parser::node(20000);
    db::sql::exec::Sort::keys(30000);
    db::engine::buf::Page::frame(40000);
    db::engine::log::Rec::body(50000);
    net::vio::Ssl::state(60000);
    net::proto::Packet::alloc(70000);
    scratch(80000);
    while (n_held > 0)
        std::free(held[--n_held]);
    return 0;
}
