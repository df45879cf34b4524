// dumps_cxx.cc: a C++ program on jemalloc linked into the executable,
// profiled by jemalloc's sampler for t704: store::Cache::put (inlined into
// store::fill, always, whatever the optimisation level) keeps N strings of
// 1000 characters through operator new, and store::Index::grow keeps a
// vector of N doubles growing by push_back. Both live to the end.
#include <cstdio>
#include <string>
#include <vector>

namespace store {
struct Cache {
    std::vector<std::string *> items;
    __attribute__((always_inline)) inline void put(std::size_t n)
    {
        items.push_back(new std::string(n, 'x')); // PUT_LINE
    }
};

void fill(Cache &c, int n)
{
    for (int i = 0; i < n; i++)
        c.put(1000); // FILL_LINE
}

struct Index {
    std::vector<double> v;
    void grow(int n)
    {
        for (int i = 0; i < n; i++)
            v.push_back(i);
    }
};
} // namespace store

int main()
{
    store::Cache c;
    store::Index x;
    for (int round = 0; round < 8; round++) {
        store::fill(c, 1000);
        x.grow(60000);
    }
    std::printf("%zu %zu\n", c.items.size(), x.v.size());
    return 0;
}
