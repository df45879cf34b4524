#!/usr/bin/env python3
"""tests/data/gen/names.py: a profile whose site names are known by
construction, for t617 (names a person can read, never two sites alike).

    names.py OUT [--new]

writes OUT (Massif's format) and OUT.memtime (memtime's companion with the
counts). The sites are the hard cases of big Rust and C++ programs: Rust
legacy symbols with their hashes (two instances of one generic that read
the same once the hashes go), a legacy mangled name that leaked through, a
v0 crate disambiguator, deep generics, libstdc++'s vector internals, a
qualified path, libraries with build hashes, five stripped sites in
libLLVM (two with one caller, two with no named caller at all), two in
mariadbd called by one function, and counts for sites no tree shows. Each
site grows over five detailed snapshots (so every section lists it);
--new changes the sizes (the NEW side of a diff).
"""
import sys

LLVM = "/usr/lib/x86_64-linux-gnu/libLLVM-14.so.1"
DRV = "/usr/lib/x86_64-linux-gnu/librustc_driver-4c3beb7552356b6f.so"
PUI = "std::unique_ptr<llvm::PassInfo const, std::default_delete<llvm::PassInfo const> >"

# (address, function, location, callers: [(address, label)] top-down)
SITES = [
    ("0x4A1000", "alloc::vec::Vec<core::option::Option<alloc::boxed::Box<rustc_middle::ty::TyS>>>::push::h0123456789abcdef", "in " + DRV, []),
    ("0x4A1100", "alloc::vec::Vec<core::option::Option<alloc::boxed::Box<rustc_middle::mir::Body>>>::push::h1111111111111111", "in " + DRV, []),
    ("0x4A1200", "void std::vector<%s, std::allocator<%s > >::_M_realloc_insert<%s >(__gnu_cxx::__normal_iterator<%s*, std::vector<%s, std::allocator<%s > > >, %s&&)" % ((PUI,) * 7), "in " + LLVM, []),
    ("0x4A1300", "<rustc_arena::DroplessArena>::grow::h2222222222222222", "in " + DRV, []),
    ("0x4A1400", "std[8a7e3d1a2b3c4d5e]::rt::lang_start_internal::{closure#2}", "in /usr/bin/rustc", []),
    ("0x4A1500", "_ZN4core3ptr13drop_in_place17h3333333333333333E", "in /tmp/prog", []),
    ("0x4A1600", "core::ptr::drop_in_place::h4444444444444444", "in /tmp/prog", []),
    ("0x4A1700", "<alloc::vec::Vec<T,A> as core::ops::drop::Drop>::drop::h5555555555555555", "vec.rs:3011", []),
    ("0x4A1800", "rustc_middle::ty::context::CtxtInterners::intern_ty::{closure#0}::h6666666666666666", "in " + DRV, []),
    ("0x500010", "???", "in " + LLVM, [("0x510010", "llvm::legacy::PassManagerImpl::run(llvm::Module&) (in %s)" % LLVM)]),
    ("0x500020", "???", "in " + LLVM, [("0x510020", "llvm::FPPassManager::runOnFunction(llvm::Function&) (in %s)" % LLVM)]),
    ("0x500030", "???", "in " + LLVM, [("0x510030", "llvm::FPPassManager::runOnFunction(llvm::Function&) (in %s)" % LLVM)]),
    ("0x500040", "???", "in " + LLVM, [("0x510040", "??? (in %s)" % LLVM)]),
    ("0x500050", "???", "in " + LLVM, []),
    ("0x600010", "???", "in /usr/sbin/mariadbd", [("0x610010", "ha_initialize_handlerton(void*) (in /usr/sbin/mariadbd)")]),
    ("0x600020", "???", "in /usr/sbin/mariadbd", [("0x610010", "ha_initialize_handlerton(void*) (in /usr/sbin/mariadbd)")]),
    ("0x4A1900", "HashMap<u64, Vec<Option<Box<ThisIsALongTypeNameForTestingOnly>>>>::insert", "in /tmp/prog", []),
    ("0x4A1A00", "hashbrown::HashMap<u64, Vec<Option<Box<ThisIsALongTypeName>>>>::insert", "in /tmp/prog", []),
    ("0x4A2000", "main", "prog.c:10", []),
]
# Sites only the counts know (below the threshold in every tree).
COUNT_ONLY = [("0x700010", "???", "in " + LLVM), ("0x700020", "???", "in " + LLVM),
              ("0x700030", "???", "in " + LLVM)]


def label(s):
    return "%s: %s (%s)" % (s[0], s[1], s[2])


def main():
    out = sys.argv[1]
    new = "--new" in sys.argv[2:]
    unit = 1024
    lines = ["desc: --time-unit=ms (tests/data/gen/names.py)", "cmd: ./names", "time_unit: ms"]
    snaps = []
    for i in range(6):
        sizes = [(k + 1) * unit * i * (2 if new and k % 3 == 0 else 1) for k in range(len(SITES))]
        snaps.append(sizes)
    for i, sizes in enumerate(snaps):
        heap = sum(sizes) + (4096 if i else 0)     # 4096: the "in N places" line
        lines += ["#-----------", "snapshot=%d" % i, "#-----------", "time=%d" % (i * 100),
                  "mem_heap_B=%d" % heap, "mem_heap_extra_B=0", "mem_stacks_B=0"]
        if i == 0:
            lines.append("heap_tree=empty")
            continue
        lines.append("heap_tree=%s" % ("peak" if i == 5 else "detailed"))
        order = sorted(range(len(SITES)), key=lambda k: -sizes[k])
        lines.append("n%d: %d (heap allocation functions) malloc/new/new[], --alloc-fns, etc."
                     % (len(SITES) + 1, heap))
        for k in order:
            s = SITES[k]
            lines.append(" n%d: %d %s" % (1 if s[3] else 0, sizes[k], label(s)))
            for depth, (a, l) in enumerate(s[3]):
                lines.append("%sn0: %d %s: %s" % (" " * (depth + 2), sizes[k], a, l))
        lines.append(" n0: 4096 in 3 places, all below massif's threshold (1.00%)")
    with open(out, "w") as f:
        f.write("\n".join(lines) + "\n")
    with open(out + ".memtime", "w") as f:
        f.write("memtime-companion: 1\n")
        for k, s in enumerate(SITES):
            n = 10 * (k + 1)
            f.write("site: allocs=%d temporary=%d bytes=%d live_blocks=%d live_bytes=%d %s\n"
                    % (n, k, snaps[5][k], 1 + k % 4, snaps[5][k], "%s: %s (%s)" % s[:3]))
        for k, s in enumerate(COUNT_ONLY):
            f.write("site: allocs=%d temporary=%d bytes=%d live_blocks=1 live_bytes=64 %s\n"
                    % (5 + k, 1 + k, 64 * (k + 1), label(s + ([],))))
        f.write("end: exit\n")


main()
