#!/usr/bin/env bash
# t583: the tool's warnings fit the program (tests/progs/anon_maps.c).
# "Allocator probably invisible" counts only anonymous memory the program
# could use as a heap: not 320 MiB of MAP_SHARED (PostgreSQL's
# shared_buffers) nor of PROT_NONE reservations (rustc's start-up); 320 MiB
# of private read-write memory with no heap still warns, at exit, or while
# it runs once the gap has outlasted a rewrite. The stripped-executable
# check reads the file Valgrind loaded (found on PATH, not the ./name in the
# current directory), and its advice fits the binary: a C program gets
# debug symbols and --alloc-fn, a Rust one Cargo's strip/debug. Rust is
# recognised by std's source paths in .rodata, which is read in 64 KiB
# chunks (memtime/mt_warn.c): a C program whose .rodata carries that path
# across the first chunk boundary gets Rust's advice, one with the path
# broken by a byte gets the C advice.
. "$(dirname "$0")/lib.sh"
need rustc
plan 12

p=$(build_prog anon_maps.c) || { not_ok "build anon_maps.c"; exit 1; }
for mode in shared reserve; do
  memtime -q --memtime-out-file="$T/$mode.mt" "$p" $mode >/dev/null 2>"$T/$mode.err"
  is "$?" 0 "$mode: runs"
  check "$mode: no invisible-allocator warning" sh -c "! grep -q 'memtime: warning' '$T/$mode.err'"
done
memtime -q --memtime-out-file="$T/private.mt" "$p" private >/dev/null 2>"$T/private.err"
check "private: warns at exit" grep -qE 'memtime: warning: the program ended with 3[0-9][0-9] MiB of private anonymous memory but its heap never exceeded [0-9] KiB' "$T/private.err"

# The gap persists through a rewrite: warned while the program waits.
memtime_bg -q --memtime-out-file="$T/wait.mt" "$p" wait >"$T/wait.out" 2>"$T/wait.err"
pid=$!
wait_until 300 "$pid" grep -q "memtime: warning" "$T/wait.err"
kill_wait "$pid"
check "wait: warns while it runs, once the gap outlasted a rewrite" \
  grep -qE 'memtime: warning: the program has held 3[0-9][0-9] MiB of private anonymous memory but its heap never exceeded [0-9] KiB' "$T/wait.err"

# Found on PATH: the stripped copy in $T/bin is checked, not ./name.
mkdir -p "$T/bin" "$T/cwd"
cc -O0 -fPIE -pie -rdynamic -o "$T/bin/mt-probe" "$MT_SRC/tests/progs/stripped_palloc.c" \
  && strip --strip-unneeded "$T/bin/mt-probe" \
  && cc -O0 -g -o "$T/cwd/mt-probe" "$MT_SRC/tests/progs/stripped_palloc.c" \
  || { not_ok "build the probes"; exit 1; }
(cd "$T/cwd" && PATH="$T/bin:$PATH" memtime -q --memtime-out-file="$T/probe.mt" mt-probe) 2>"$T/probe.err"
check "the executable Valgrind loaded is checked ($T/bin/mt-probe)" \
  grep -qF "memtime: warning: $T/bin/mt-probe has no full symbol table (.symtab stripped; only its 5 exported functions keep their names)" "$T/probe.err"
check "C advice: debug symbols and --alloc-fn" \
  grep -q -- "-dbgsym.*--extra-debuginfo-path=DIR), or name its allocation wrappers with --alloc-fn" "$T/probe.err"
check "C advice: nothing about Cargo" sh -c "! grep -q Cargo '$T/probe.err'"

# blob.c: one array in .rodata holding "library/std/src/" so that it starts
# 5 bytes before .rodata's offset 65536 (the array's own offset is read from
# a first build; a second build with the same sizes keeps the layout).
blob() {   # OUT BREAK: BREAK=1 puts a '#' in the middle of the path
  local pos=$1 brk=$2 out=$3
  awk -v p="$pos" -v b="$brk" 'BEGIN { s = "library/std/src/"; printf "const char blob[70000] __attribute__((used)) = {"
    for (i = 0; i < length(s); i++) printf "[%d] = %c%s%c, ", p + i, 39, (b && i == 8 ? "#" : substr(s, i + 1, 1)), 39
    print "};"; print "int main(void) { return blob[0]; }" }' >"$out.c" \
    && cc -O0 -g0 -fPIE -pie -o "$out" "$out.c"
}
if blob 0 0 "$T/blob0"; then
  ro=$(readelf -SW "$T/blob0" | awk '$2 == ".rodata" { print $4 }')
  at=$(nm "$T/blob0" | awk '$3 == "blob" { print $1 }')
  pos=$(( 65536 - 5 - (0x$at - 0x$ro) ))
fi
if [ -n "${pos:-}" ] && [ "$pos" -gt 0 ] && blob "$pos" 0 "$T/blobR" && blob "$pos" 1 "$T/blobC" \
   && strip --strip-unneeded "$T/blobR" "$T/blobC"; then
  memtime -q --memtime-out-file="$T/blobR.mt" "$T/blobR" >/dev/null 2>"$T/blobR.err"
  check "a path across the 64 KiB chunk boundary of .rodata is found: Rust advice" \
    grep -q "Cargo.toml, \[profile.release\]: strip = false" "$T/blobR.err"
  memtime -q --memtime-out-file="$T/blobC.mt" "$T/blobC" >/dev/null 2>"$T/blobC.err"
  check "the same path broken by a byte: C advice" \
    sh -c "grep -q -- '--alloc-fn' '$T/blobC.err' && ! grep -q Cargo '$T/blobC.err'"
else
  not_ok "build the .rodata probes"; not_ok "build the .rodata probes"
fi

RUSTC=$(test_rustc)   # lib.sh: Debian's rustc first, as on a fresh machine
if [ -n "$RUSTC" ] && echo 'fn main() { let v = vec![1u8; 64]; println!("{}", v.len()); }' >"$T/r.rs" \
   && "$RUSTC" -C strip=symbols -o "$T/r" "$T/r.rs" 2>/dev/null; then
  memtime -q --memtime-out-file="$T/r.mt" "$T/r" >/dev/null 2>"$T/r.err"
  check "Rust advice: Cargo's strip and debug" grep -q "Cargo.toml, \[profile.release\]: strip = false, and debug = 1" "$T/r.err"
else
  not_ok "rustc builds a stripped Rust program"
fi
finish
