// ns_layers.cc: a C++ program whose heap at its peak is known by
// namespace (t616): each function allocates a known number of bytes with
// new[] and keeps them until main frees everything at the end.
//   store::disk::Page::alloc     3 x 100000 = 300000 B
//   store::cache::Lru::grow      200000 B
//   net::http::Parser::buffer    8 x 15000  = 120000 B
//   net::tls::Session::key       80000 B
//   (anonymous namespace)::scratch  60000 B
//   plain_c_style                40000 B (no namespace: its object/file)
#include <cstddef>
#include <vector>

static std::vector<char *> held;

namespace store {
namespace disk {
struct Page {
    static void alloc(std::size_t n) { held.push_back(new char[n]); }
};
}  // namespace disk
namespace cache {
struct Lru {
    void grow(std::size_t n) { held.push_back(new char[n]); }
};
}  // namespace cache
}  // namespace store

namespace net {
namespace http {
class Parser {
public:
    void buffer(std::size_t n) { held.push_back(new char[n]); }
};
}  // namespace http
namespace tls {
struct Session {
    static void key(std::size_t n) { held.push_back(new char[n]); }
};
}  // namespace tls
}  // namespace net

namespace {
void scratch(std::size_t n) { held.push_back(new char[n]); }
}  // namespace

extern "C" void plain_c_style(std::size_t n) { held.push_back(new char[n]); }

int main()
{
    held.reserve(64);
    for (int i = 0; i < 3; i++)
        store::disk::Page::alloc(100000);
    store::cache::Lru lru;
    lru.grow(200000);
    net::http::Parser p;
    for (int i = 0; i < 8; i++)
        p.buffer(15000);
    net::tls::Session::key(80000);
    scratch(60000);
    plain_c_style(40000);
    for (char *c : held)
        delete[] c;
    return 0;
}
