// ns_fallback.cc: a C++ program whose heap at its peak is known by
// function, most of it in functions each below 1% of the heap (t629): the
// fallback groups of --group-by=function take those by namespace, then
// what is left by object. Each function allocates with new[] and keeps its
// block until main frees everything at the end.
//   big::hold                 500000 B (a group of its own)
//   many::f00 .. f39     40 x   5000 = 200000 B ("other functions in many")
//   mid::g0 .. g9        10 x   3000 =  30000 B ("other functions in mid")
//   x0::h .. x3::h        4 x   2500 =  10000 B (each namespace alone below
//   few::k0 .. k2         3 x   2000 =   6000 B  1%: by object, with main's
//                                               vector's 512 B)
// With libstdc++'s 72704 B pool the heap is about 819 KB, 1% about 8.2 KB.
#include <cstddef>
#include <vector>

static std::vector<char *> held;

#define KEEP(n) held.push_back(new char[n])

namespace big {
__attribute__((noinline)) void hold() { KEEP(500000); }
}  // namespace big

namespace many {
#define F(i) __attribute__((noinline)) void f##i() { KEEP(5000); }
F(00) F(01) F(02) F(03) F(04) F(05) F(06) F(07) F(08) F(09)
F(10) F(11) F(12) F(13) F(14) F(15) F(16) F(17) F(18) F(19)
F(20) F(21) F(22) F(23) F(24) F(25) F(26) F(27) F(28) F(29)
F(30) F(31) F(32) F(33) F(34) F(35) F(36) F(37) F(38) F(39)
#undef F
}  // namespace many

namespace mid {
#define G(i) __attribute__((noinline)) void g##i() { KEEP(3000); }
G(0) G(1) G(2) G(3) G(4) G(5) G(6) G(7) G(8) G(9)
#undef G
}  // namespace mid

namespace x0 { __attribute__((noinline)) void h() { KEEP(2500); } }
namespace x1 { __attribute__((noinline)) void h() { KEEP(2500); } }
namespace x2 { __attribute__((noinline)) void h() { KEEP(2500); } }
namespace x3 { __attribute__((noinline)) void h() { KEEP(2500); } }

namespace few {
__attribute__((noinline)) void k0() { KEEP(2000); }
__attribute__((noinline)) void k1() { KEEP(2000); }
__attribute__((noinline)) void k2() { KEEP(2000); }
}  // namespace few

int main()
{
    held.reserve(64);
    big::hold();
    using namespace many;
    f00(); f01(); f02(); f03(); f04(); f05(); f06(); f07(); f08(); f09();
    f10(); f11(); f12(); f13(); f14(); f15(); f16(); f17(); f18(); f19();
    f20(); f21(); f22(); f23(); f24(); f25(); f26(); f27(); f28(); f29();
    f30(); f31(); f32(); f33(); f34(); f35(); f36(); f37(); f38(); f39();
    mid::g0(); mid::g1(); mid::g2(); mid::g3(); mid::g4();
    mid::g5(); mid::g6(); mid::g7(); mid::g8(); mid::g9();
    x0::h(); x1::h(); x2::h(); x3::h();
    few::k0(); few::k1(); few::k2();
    for (char *p : held)
        delete[] p;
    return 0;
}
