/* groups-unit.c: the group keys of memtime-vis (visualizer/model/groups.h)
 * on labels whose answers are known, one TAP line each. Built by
 * t615-group-by.sh against the visualizer's own sources. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/group_cut.h"
#include "model/groups.h"
#include "model/label.h"
#include "model/names.h"
#include "model/sites.h"
#include "model/wrappers.h"

static int n_test, n_fail;

static void expect(const char *what, char *got, const char *want)
{
    n_test++;
    int ok = got && !strcmp(got, want);
    if (!ok)
        n_fail++;
    printf("%s %d - %s: '%s'%s%s%s\n", ok ? "ok" : "not ok", n_test, what, got ? got : "(null)",
           ok ? "" : " (wanted '", ok ? "" : want, ok ? "" : "')");
    free(got);
}

/* A part of a label as a new string ("(none)" when absent). */
static char *part(const char *s, size_t n)
{
    char *o = s ? strndup(s, n) : strdup("(none)");
    return o;
}

static void expect_int(const char *what, int got, int want)
{
    n_test++;
    if (got != want)
        n_fail++;
    printf("%s %d - %s: %d (wanted %d)\n", got == want ? "ok" : "not ok", n_test, what, got, want);
}

int main(void)
{
    /* function */
    expect("function: C with a line", vis_key_function("0x4005E4: make_node (tree.c:12)"), "make_node");
    expect("function: Rust hash dropped",
           vis_key_function("0x1: alloc::raw_vec::finish_grow::h0123456789abcdef (in /usr/lib/librustc_driver-4c3beb7552356b6f.so)"),
           "alloc::raw_vec::finish_grow");
    expect("function: unnamed keeps its label",
           vis_key_function("0x6DADBF: ??? called by f (in /usr/bin/postgres)"),
           "0x6DADBF: ??? called by f (in /usr/bin/postgres)");
    expect("function: C++ arguments kept", vis_key_function("0x2: llvm::foo(int) (in /usr/lib/x86_64-linux-gnu/libLLVM-14.so.1)"),
           "llvm::foo(int)");
    /* object */
    expect("object: Rust build hash", vis_key_object("0x1: f (in /usr/lib/librustc_driver-4c3beb7552356b6f.so)"),
           "librustc_driver.so");
    expect("object: so version", vis_key_object("0x1: f (in /usr/lib/x86_64-linux-gnu/libLLVM-14.so.1)"), "libLLVM-14.so");
    expect("object: libc", vis_key_object("0x1: malloc (in /usr/lib/x86_64-linux-gnu/libc.so.6)"), "libc.so");
    expect("object: executable", vis_key_object("0x1: my_malloc (in /usr/sbin/mariadbd)"), "mariadbd");
    expect("object: source line only", vis_key_object("0x1: main (prog.c:3)"), "(in prog.c)");
    expect("object: nothing", vis_key_object("0x1: main"), "(\?\?\?)");
    /* file */
    expect("file", vis_key_file("0x1: main (prog.c:3)"), "prog.c");
    expect("file: object instead", vis_key_file("0x1: f (in /lib/libz.so.1)"), "(in libz.so)");
    /* crate */
    expect("crate: plain path", vis_key_crate("0x1: rustc_middle::ty::context::TyCtxt::mk_ty (in /x/librustc_driver-1234567890abcdef.so)"),
           "rustc_middle");
    expect("crate: inherent impl", vis_key_crate("0x1: <rustc_arena::DroplessArena>::grow (in /x/a.so)"), "rustc_arena");
    expect("crate: trait impl, self type's crate",
           vis_key_crate("0x1: <rustc_middle::ty::Ty as core::fmt::Display>::fmt::h0123456789abcdef (in /x/a.so)"),
           "rustc_middle");
    expect("crate: trait impl on a primitive, the trait's",
           vis_key_crate("0x1: <u8 as alloc::slice::hack::ConvertVec>::to_vec (in /x/a.so)"), "alloc");
    expect("crate: trait impl on a slice, the trait's",
           vis_key_crate("0x1: <[T] as alloc::borrow::ToOwned>::to_owned (in /x/a.so)"), "alloc");
    expect("crate: reference looked through",
           vis_key_crate("0x1: <&mut serde_json::ser::Serializer<W> as serde::Serializer>::serialize_str (in /x/a)"),
           "serde_json");
    expect("crate: generic self type",
           vis_key_crate("0x1: <alloc::vec::Vec<T,A> as core::clone::Clone>::clone (in /x/a)"), "alloc");
    expect("crate: closure", vis_key_crate("0x1: rustc_interface::passes::analysis::{{closure}} (in /x/a)"), "rustc_interface");
    expect("crate: v0 disambiguator", vis_key_crate("0x1: hashbrown[5e2a1b7c]::raw::RawTable<T>::reserve_rehash (in /x/a)"),
           "hashbrown");
    expect("crate: generic args in first segment",
           vis_key_crate("0x1: smallvec::SmallVec<A>::try_grow (in /x/a)"), "smallvec");
    expect("crate: C++ outermost namespace",
           vis_key_crate("0x1: llvm::PassManager::run(llvm::Module&) (in /usr/lib/x86_64-linux-gnu/libLLVM-14.so.1)"), "llvm");
    expect("crate: C function: its object", vis_key_crate("0x1: xmlStrdup (in /usr/lib/libxml2.so.2)"), "(in libxml2.so)");
    expect("crate: unnamed: its object, without symbols",
           vis_key_crate("0x1: ??? (in /usr/lib/libLLVM-14.so.1)"), "libLLVM-14.so (no symbols)");
    expect("crate: unnamed in a stripped Rust library: its object, no hash",
           vis_key_crate("0x1: ??? (in /usr/lib/x86_64-linux-gnu/librustc_driver-4c3beb7552356b6f.so)"),
           "librustc_driver.so (no symbols)");
    expect("crate: unnamed without an object", vis_key_crate("0x1: ???"), "(?\?\?)");
    expect("namespace: unnamed: its object, without symbols",
           vis_key_namespace("0x1: ??? (in /usr/lib/libLLVM-14.so.1)", 2), "libLLVM-14.so (no symbols)");
    expect("crate: unnamed told by its caller: the caller's",
           vis_key_crate("0x1: ??? called by <rustc_middle::ty::context::TyCtxt>::get_attrs (in /usr/lib/librustc_driver-4c3beb7552356b6f.so)"),
           "rustc_middle");
    expect("crate: unnamed told by a C caller: the object",
           vis_key_crate("0x1: ??? called by foo_open (in /usr/lib/libfoo.so.2)"), "(in libfoo.so)");
    expect("namespace: unnamed told by its caller",
           vis_key_namespace("0x1: ??? called by llvm::FPPassManager::runOnFunction(llvm::Function&) (in /l/libLLVM-14.so.1)", 1),
           "llvm");
    expect_int("kind: unnamed told by a C++ caller",
               vis_symbol_kind("0x1: ??? called by llvm::A::b(int) (in /l/libLLVM-14.so.1)"), VIS_SYM_CXX);
    /* namespace */
    expect("namespace depth 1", vis_key_namespace("0x1: llvm::sys::Memory::allocate(unsigned long) (in /l.so)", 1), "llvm");
    expect("namespace depth 2", vis_key_namespace("0x1: llvm::sys::Memory::allocate(unsigned long) (in /l.so)", 2), "llvm::sys");
    expect("namespace: return type and templates",
           vis_key_namespace("0x1: void std::vector<int, std::allocator<int> >::_M_realloc_insert<int const&>(int const&) (vec.h:4)", 2),
           "std::vector");
    expect("namespace: deeper than the symbol",
           vis_key_namespace("0x1: app::net::Conn::read() (conn.cc:5)", 9), "app::net::Conn");
    expect("namespace: anonymous",
           vis_key_namespace("0x1: (anonymous namespace)::Parser::parse() (p.cc:5)", 1), "(anonymous namespace)");
    expect("namespace: C function", vis_key_namespace("0x1: main (prog.c:3)", 1), "(in prog.c)");
    expect("namespace: operator new", vis_key_namespace("0x1: operator new(unsigned long) (in /usr/lib/libstdc++.so.6.0.30)", 1),
           "(in libstdc++.so)");
    expect("namespace: Rust impl",
           vis_key_namespace("0x1: <rustc_arena::DroplessArena>::grow (in /x/a.so)", 2), "rustc_arena::DroplessArena");
    /* A mangled name that leaked through groups with its demangled twin
     * (model/demangle.h): the same key as the demangled label. */
    expect("mangled Rust legacy: function",
           vis_key_function("0x1: _ZN5alpha5store5Store6insert17h0123456789abcdefE (in /opt/app/bin/noded)"),
           "alpha::store::Store::insert");
    expect("mangled Rust legacy: crate",
           vis_key_crate("0x1: _ZN5alpha5store5Store6insert17h0123456789abcdefE (in /opt/app/bin/noded)"), "alpha");
    expect("mangled Rust legacy: namespace depth 2",
           vis_key_namespace("0x1: _ZN5alpha5store5Store6insert17h0123456789abcdefE (in /opt/app/bin/noded)", 2),
           "alpha::store");
    expect("mangled Rust legacy with an .llvm. suffix",
           vis_key_function("0x1: _ZN4core3ptr13drop_in_place17h0123456789abcdefE.llvm.8155 (in /x/a.so)"),
           "core::ptr::drop_in_place");
    expect("mangled Rust legacy, escapes: a trait impl",
           vis_key_crate("0x1: _ZN59_$LT$rustc_middle..ty..Ty$u20$as$u20$core..fmt..Display$GT$3fmt17h0123456789abcdefE (in /x/a.so)"),
           "rustc_middle");
    expect("mangled Rust v0: function",
           vis_key_function("0x1: _RNvNtNtCs1a2b3c4d_5gamma3net4Peer4recv (in /opt/app/bin/noded)"),
           "gamma::net::Peer::recv");
    expect("mangled Rust v0: crate",
           vis_key_crate("0x1: _RNvNtNtCs1a2b3c4d_5gamma3net4Peer4recv (in /opt/app/bin/noded)"), "gamma");
    expect("mangled C++: function, arguments as Valgrind writes them",
           vis_key_function("0x1: _ZN3app3net4Conn4readEi (in /usr/lib/libsvc.so.3)"), "app::net::Conn::read(int)");
    expect("mangled C++: namespace depth 2",
           vis_key_namespace("0x1: _ZNSt6vectorIiSaIiEE9push_backERKi (vec.h:4)", 2), "std::vector");
    expect("mangled C++ with a line: function",
           vis_key_function("0x1: _ZN5store4Disk4fillEm (disk.cc:7)"), "store::Disk::fill(unsigned long)");
    expect("not mangled though it starts so: kept",
           vis_key_function("0x1: _Rf_allocVector (in /usr/lib/libR.so)"), "_Rf_allocVector");
    expect("a mangled name the demangler refuses: kept",
           vis_key_function("0x1: _ZN3foo (in /x/a.so)"), "_ZN3foo");
    expect("an unnamed function is not demangled",
           vis_key_function("0x1: ??? (in /x/a.so)"), "0x1: ??? (in /x/a.so)");
    expect_int("kind: mangled C++", vis_symbol_kind("0x1: _ZN3app3net4Conn4readEi (in /l.so)"), VIS_SYM_CXX);
    expect_int("kind: mangled Rust", vis_symbol_kind("0x1: _ZN5alpha5store5Store6insert17h0123456789abcdefE (in /x)"),
               VIS_SYM_RUST);
    expect_int("kind: mangled C++, global function", vis_symbol_kind("0x1: _Z4growPvm (a.cc:3)"), VIS_SYM_CXX);
    /* kinds and wrappers */
    expect_int("kind: C", vis_symbol_kind("0x1: main (prog.c:3)"), VIS_SYM_C);
    expect_int("kind: C++", vis_symbol_kind("0x1: a::b(int) (x.cc:1)"), VIS_SYM_CXX);
    expect_int("kind: Rust", vis_symbol_kind("0x1: a::b (x.rs:1)"), VIS_SYM_RUST);
    expect_int("kind: Rust impl", vis_symbol_kind("0x1: <a::B as c::D>::f (x.rs:1)"), VIS_SYM_RUST);
    expect_int("kind: unnamed", vis_symbol_kind("0x1: ??? (in /x)"), VIS_SYM_UNNAMED);
    expect_int("wrapper: my_malloc", vis_wrapper_name("0x1: my_malloc (in /usr/sbin/mariadbd)"), 1);
    expect_int("wrapper: g_malloc", vis_wrapper_name("0x1: g_malloc (in /lib/libglib-2.0.so.0)"), 1);
    expect_int("wrapper: arena grow", vis_wrapper_name("0x1: <rustc_arena::DroplessArena>::grow (in /x)"), 1);
    expect_int("wrapper: Vec grow is not an arena", vis_wrapper_name("0x1: alloc::vec::Vec<T>::grow (in /x)"), 0);
    expect_int("wrapper: main is not", vis_wrapper_name("0x1: main (prog.c:3)"), 0);
    printf("1..%d\n", n_test);
    /* --alloc-fn patterns for the summary's hint */
    expect("alloc pattern: a short name as it is",
           vis_wrapper_alloc_pattern("0x1: my_malloc (in /usr/sbin/mariadbd)"), "my_malloc");
    expect("alloc pattern: a long C++ name, template and argument lists as globs",
           vis_wrapper_alloc_pattern("0x2: llvm::AnalysisManager<llvm::Function>::getResultImpl("
                                     "llvm::AnalysisKey*, llvm::Function&) (in /usr/lib/libLLVM-14.so.1)"),
           "llvm::AnalysisManager<*>::getResultImpl(*)");
    expect("alloc pattern: nested lists are one glob each",
           vis_wrapper_alloc_pattern("0x3: std::_Rb_tree_iterator<std::pair<int const, std::string> > "
                                     "std::_Rb_tree<int, std::pair<int const, std::string> >::_M_insert_unique_<"
                                     "std::pair<int const, std::string> const&>(std::pair<int const, std::string> const&) (in /x)"),
           "std::_Rb_tree_iterator<*> std::_Rb_tree<*>::_M_insert_unique_<*>(*)");
    expect("alloc pattern: an operator keeps its whole name",
           vis_wrapper_alloc_pattern("0x4: bool std::operator<<std::vector<int, std::allocator<int> > >(std::vector<int> const&) (in /x)"),
           "bool std::operator<<std::vector<int, std::allocator<int> > >(std::vector<int> const&)");
    /* the view's cut (vis_group_cut), at 100 bytes */
    {
        vis_cut c[] = {
            { "big", 500, 0, { "a", "f.c" }, 0 },
            { "a1", 60, 0, { "a", "f.c" }, 0 },   /* a: 60 + 50, one line */
            { "a2", 50, 0, { "a", "f.c" }, 0 },
            { "b1", 40, 0, { "b", "f.c" }, 0 },   /* b: 40 + 30 below; with c1 by f.c */
            { "b2", 30, 0, { "b", "f.c" }, 0 },
            { "c1", 35, 0, { "c", "f.c" }, 0 },
            { "d1", 20, 0, { "d", "g.c" }, 0 },   /* alone everywhere: the rest */
            { "e1", 10, 0, { "e", "h.c" }, 0 },
            { "in 3 places", 5, 1, { NULL, NULL }, 0 },   /* Massif's line: kept */
        };
        size_t n_rest = 0;
        expect_int("cut: runs", vis_group_cut(c, 9, 100, &n_rest), 0);
        char fates[16];
        for (int i = 0; i < 9; i++)
            fates[i] = "01KR"[c[i].fate];
        fates[9] = 0;
        expect("cut: kept, first level, second level, the rest", strdup(fates), "K00111RRK");
        expect_int("cut: two in the remainder", (int)n_rest, 2);
        vis_cut one[] = {
            { "x", 500, 0, { "a", NULL }, 0 },
            { "y", 60, 0, { "a", NULL }, 0 },
            { "z", 50, 0, { "a", NULL }, 0 },
            { "w", 30, 0, { "b", NULL }, 0 },
        };
        n_rest = 9;
        vis_group_cut(one, 4, 100, &n_rest);
        expect("cut: the one group left below stays itself, no line",
               strdup((char[]){ "01KR"[one[1].fate], "01KR"[one[2].fate], "01KR"[one[3].fate], 0 }), "00K");
        expect_int("cut: no remainder", (int)n_rest, 0);
    }

    /* One function the compiler cloned or split is one function. */
    expect("function: GCC's constprop clone", vis_key_function("0x3: lru_insert.constprop.0 (cache.c:9)"), "lru_insert");
    expect("function: clones of clones", vis_key_function("0x3: parse.isra.0.part.1 (p.c:2)"), "parse");
    expect("function: the cold part", vis_key_function("0x3: make_node.cold (tree.c:12)"), "make_node");
    expect("function: C++ clone as the demangler writes it",
           vis_key_function("0x3: foo::bar(int) [clone .constprop.0] [clone .isra.0] (x.cc:4)"), "foo::bar(int)");
    expect("function: LLVM's suffix", vis_key_function("0x3: app::run.llvm.123456 (in /usr/bin/app)"), "app::run");
    expect("function: a name that only looks like one stays",
           vis_key_function("0x3: cold (x.c:1)"), "cold");
    expect("function: a dot in a Rust closure stays",
           vis_key_function("0x3: app::main::{{closure}} (main.rs:3)"), "app::main::{{closure}}");
    /* A caller: its function, or where no name is known, its location. */
    expect("caller: a function", vis_caller_key("0x10907D: main (cache.c:17)"), "main");
    expect("caller: the same function at another address",
           vis_caller_key("0x1090CD: main (cache.c:17)"), "main");
    expect("caller: an inlined copy", vis_caller_key("0x10930D: new_rec (wrap_false.c:57)"), "new_rec");
    expect("caller: unnamed, by its location", vis_caller_key("0x5: ??? (in /usr/lib/libx.so.1)"),
           "??? (in /usr/lib/libx.so.1)");
    expect_int("wrapper name: a clone of my_malloc", vis_wrapper_name("0x1: my_malloc.constprop.0 (in /usr/sbin/mariadbd)"), 1);
    expect_int("wrapper name: RawVec's grow_amortized",
               vis_wrapper_name("0x1: alloc::raw_vec::RawVec<T,A>::grow_amortized (raw_vec.rs:400)"), 1);
    expect_int("wrapper name: lru_insert is not one", vis_wrapper_name("0x1: lru_insert (cache.c:9)"), 0);
    /* The one label grammar (model/label.h) every reader goes through. */
    vis_label l = vis_label_parse("0x4005D3: fn (file.c:12)");
    expect("label: address", part(l.addr, l.addr_len), "0x4005D3");
    expect("label: function", part(l.fn, l.fn_len), "fn");
    expect("label: file", part(l.file, l.file_len), "file.c");
    expect_int("label: line", (int)l.line, 12);
    l = vis_label_parse("0x1: ??? (in /lib/x.so)");
    expect("label: object", part(l.obj, l.obj_len), "/lib/x.so");
    expect_int("label: ??? is unnamed", l.unnamed, 1);
    l = vis_label_parse("0x1: ??? called by g(int) (in prog)");
    expect("label: the caller, without the location", part(l.caller, l.caller_len), "g(int)");
    expect_int("label: told by a caller, still unnamed", l.unnamed, 1);
    l = vis_label_parse("(heap allocation functions) malloc/new/new[], --alloc-fns, etc.");
    expect("label: Massif's root has no address", part(l.addr, l.addr_len), "(none)");
    expect("label: Massif's root has no location", part(l.loc, l.loc ? strlen(l.loc) : 0), "(none)");
    l = vis_label_parse("in 3 places, all below massif's threshold (1.00%)");
    expect_int("label: Massif's merged line", l.below, 1);
    l = vis_label_parse("0x2: std::function<void ()>::operator()(int (*)(int))");
    expect("label: a C++ argument list is no location", part(l.fn, l.fn_len),
           "std::function<void ()>::operator()(int (*)(int))");
    l = vis_label_parse("0x2: f (:12)");
    expect("label: a location names a file", part(l.fn, l.fn_len), "f (:12)");
    l = vis_label_parse("0x2: f (in )");
    expect("label: a location names an object", part(l.fn, l.fn_len), "f (in )");
    l = vis_label_parse("0x2: f (a.c:12345678901)");
    expect("label: a line has at most 9 digits", part(l.fn, l.fn_len), "f (a.c:12345678901)");
    l = vis_label_parse("0x2: ???x (in /lib/a.so)");
    expect_int("label: ???x is a name", l.unnamed, 0);
    /* Its readers agree with it. */
    expect("by caller: the caller's function up to its location only",
           vis_site_label_by_caller("0x5: ??? (in prog)", "0x6: f(int (*)(int))"), "0x5: ??? called by f(int (*)(int)) (in prog)");
    expect("short name: the same location", vis_name_short("0x2: f (in )", NULL, 80), "f (in )");
    return n_fail != 0;
}
