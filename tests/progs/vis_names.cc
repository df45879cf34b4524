// vis_names.cc: C++ allocation sites whose names hold spaces, parentheses,
// commas, '<>' and operators (templates, an anonymous namespace, operator
// overloads), so the parser sees labels like "(anonymous namespace)::
// Pool<std::pair<int, long> >::operator()(unsigned long)". Used by t2*.sh.
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace {
template <typename T> struct Pool {
    std::vector<T *> items;
    T *operator()(unsigned long n)
    {
        T *p = new T[n];
        items.push_back(p);
        return p;
    }
    ~Pool()
    {
        for (T *p : items)
            delete[] p;
    }
};
}

struct Matrix {
    std::vector<double> cells;
    explicit Matrix(size_t n) : cells(n * n, 1.0) {}
    Matrix operator+(const Matrix &o) const
    {
        Matrix r(0);
        r.cells = cells;
        for (size_t i = 0; i < o.cells.size() && i < r.cells.size(); i++)
            r.cells[i] += o.cells[i];
        return r;
    }
};

int main()
{
    Pool<std::pair<int, long> > pairs;
    std::map<std::string, std::vector<int> > index;
    std::vector<Matrix> ms;
    for (int i = 0; i < 40; i++) {
        pairs(200 + 10 * (unsigned long)i);
        index["key number " + std::to_string(i)].resize(100 + 20 * (size_t)i);
        Matrix a(20), b(20);
        ms.push_back(a + b);
        if (ms.size() > 10)
            ms.erase(ms.begin());
    }
    return 0;
}
