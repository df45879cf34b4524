// long_names.cc: allocation sites whose demangled names run to millions of
// characters. P<L, L> doubles its argument's text at each level while the
// mangled name stays short (substitutions), so grow<L20> demangles to about
// 6 million characters and grow<L16> to about 400 thousand.
#include <cstdlib>
struct Z {};
template <class A, class B> struct P {};
typedef P<Z, Z> L1;   typedef P<L1, L1> L2;   typedef P<L2, L2> L3;
typedef P<L3, L3> L4; typedef P<L4, L4> L5;   typedef P<L5, L5> L6;
typedef P<L6, L6> L7; typedef P<L7, L7> L8;   typedef P<L8, L8> L9;
typedef P<L9, L9> L10; typedef P<L10, L10> L11; typedef P<L11, L11> L12;
typedef P<L12, L12> L13; typedef P<L13, L13> L14; typedef P<L14, L14> L15;
typedef P<L15, L15> L16; typedef P<L16, L16> L17; typedef P<L17, L17> L18;
typedef P<L18, L18> L19; typedef P<L19, L19> L20;

template <class T> __attribute__((noinline)) void *grow(size_t n)
{
    return malloc(n);
}

int main()
{
    void *keep[8];
    for (int i = 0; i < 4; i++) {
        keep[2 * i] = grow<L20>(100000);
        keep[2 * i + 1] = grow<L16>(50000);
    }
    for (int i = 0; i < 8; i++)
        free(keep[i]);
    return 0;
}
