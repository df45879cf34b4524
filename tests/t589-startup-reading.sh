#!/usr/bin/env bash
# t589: what memtime leaves out of the start-up, and that nothing a profile
# needs goes with it.
# 1. Interceptions of allocators linked into the executable are switched on
#    per family, only for an executable that defines that family's symbols
#    (memtime/mt_redirect.c): tests/progs/exe_families.c defines one entry
#    point of each family over a private arena, so its 15,000 bytes are seen
#    only through them; a plain C program gets none of those redirections
#    (--trace-redir lists what the core was given), and the user's own
#    --soname-synonyms stay in force beside memtime's.
# 2. With --time-unit=ms (the default) the C library's inlined frames are
#    not read (memtime/mt_debuginfo.c): libc's stdout buffer is charged to
#    libc's real functions (no "outstring_func", the helper vfprintf inlines
#    at that call, which Massif names with Debian's libc6-dbg), while a
#    library loaded after libc keeps its inlined frames; --libc-inline-info=yes
#    and --time-unit=B read libc's as Massif does.
. "$(dirname "$0")/lib.sh"
plan 14

FAM=$(build_prog exe_families.c) || { echo "Bail out! cannot build exe_families.c"; exit 1; }
PLAIN=$(build_prog heap_c.c) || { echo "Bail out! cannot build heap_c.c"; exit 1; }
DL=$(build_prog inline_dlopen.c -ldl) || { echo "Bail out! cannot build inline_dlopen.c"; exit 1; }
LIB="$MT_PROGS/libinline_lib.so"
if [ ! -f "$LIB" ] || [ "$MT_SRC/tests/progs/inline_lib.c" -nt "$LIB" ]; then
  cc -O2 -g -shared -fPIC -o "$LIB.tmp.$$" "$MT_SRC/tests/progs/inline_lib.c" && mv -f "$LIB.tmp.$$" "$LIB" \
    || { echo "Bail out! cannot build inline_lib.c"; exit 1; }
fi
B="--time-unit=B --detailed-freq=1 --threshold=0.0 --heap-admin=0"

# --- 1. executable families
memtime $B -v --memtime-out-file="$T/fam.out" "$FAM" >/dev/null 2>"$T/fam.err"
last_heap=$(awk -F= '/^mem_heap_B=/{h=$2} END{print h}' "$T/fam.out")
is "$last_heap" 15000 "exe_families: the five families' 15000 bytes are on the heap"
sizes=$(grep -o 'n0: [0-9]* 0x[0-9A-F]*: main (exe_families.c:[0-9]*)' "$T/fam.out" | awk '{print $2}' | sort -n | uniq | tr '\n' ' ')
is "$sizes" "1000 2000 3000 4000 5000 " "exe_families: each family's block charged to main"
check "exe_families: -v names the synonyms memtime set" \
  grep -q 'memtime: soname synonyms for the executable: mtrjem=NONE,mtjex=NONE,mtje=NONE,mttc=NONE,mtmi=NONE$' "$T/fam.err"

memtime $B --trace-redir=yes --memtime-out-file="$T/plain.out" "$PLAIN" >/dev/null 2>"$T/plain.err"
check "plain C program: the trace lists memtime's library families (the trace is real)" \
  grep -Eq '^--[0-9]+-- +libmimalloc\* +mi_malloc ' "$T/plain.err"
n=$(grep -Ec '^--[0-9]+-- +NONE +(_rjem_|je_|tc_|mi_|mallocx|dallocx)' "$T/plain.err")
is "$n" 0 "plain C program: no executable-family redirection given to the core"
memtime $B --trace-redir=yes --memtime-out-file="$T/fam2.out" "$FAM" >/dev/null 2>"$T/fam2.err"
n=$(grep -Eo '^--[0-9]+-- +NONE +(_rjem_malloc|je_malloc|mallocx|tc_malloc|mi_malloc) ' "$T/fam2.err" | awk '{print $3}' | sort -u | wc -l)
is "$n" 5 "exe_families: the core was given each family's redirections for NONE"

memtime $B -v --soname-synonyms=somalloc=NONE --memtime-out-file="$T/syn.out" "$FAM" >/dev/null 2>"$T/syn.err"
last_heap=$(awk -F= '/^mem_heap_B=/{h=$2} END{print h}' "$T/syn.out")
is "$last_heap" 15000 "with the user's --soname-synonyms: the families are still seen"
check "with the user's --soname-synonyms: theirs come first, unchanged" \
  grep -q 'soname synonyms for the executable: somalloc=NONE,mtrjem=NONE,' "$T/syn.err"

# --- 2. libc's inlined frames
massif --time-unit=B --detailed-freq=1 --threshold=0.0 --massif-out-file="$T/dl.ms" "$DL" "$LIB" >/dev/null 2>&1
check "oracle: Massif names outstring_func inlined in libc (libc6-dbg installed)" \
  grep -q ': outstring_func (vfprintf-internal.c:' "$T/dl.ms"
memtime --detailed-freq=1 --threshold=0.0 --memtime-out-file="$T/dl.mt" "$DL" "$LIB" >/dev/null 2>&1
check "ms (default): the library loaded after libc keeps its inlined frame" \
  grep -q ': lib_make (inline_lib.c:' "$T/dl.mt"
if grep -q ': printf (printf.c:' "$T/dl.mt" && ! grep -q 'outstring_func' "$T/dl.mt"; then
  ok "ms (default): libc's buffer charged to printf without libc's inlined helper"
else not_ok "ms (default): libc's buffer charged to printf without libc's inlined helper"; grep -n 'printf\|outstring' "$T/dl.mt" | diag "$(cat)"; fi
memtime --libc-inline-info=yes --detailed-freq=1 --threshold=0.0 --memtime-out-file="$T/dl.yes" "$DL" "$LIB" >/dev/null 2>&1
check "ms with --libc-inline-info=yes: libc's inlined helper named" \
  grep -q ': outstring_func (vfprintf-internal.c:' "$T/dl.yes"
memtime --time-unit=B --detailed-freq=1 --threshold=0.0 --memtime-out-file="$T/dl.b" "$DL" "$LIB" >/dev/null 2>&1
check "--time-unit=B: libc's inlined helper named, as Massif" \
  grep -q ': outstring_func (vfprintf-internal.c:' "$T/dl.b"
if memtime --libc-inline-info=maybe --memtime-out-file="$T/bad.out" "$PLAIN" >/dev/null 2>"$T/bad.err"; then
  not_ok "--libc-inline-info=maybe is refused"
else check "--libc-inline-info=maybe is refused" grep -q 'libc-inline-info' "$T/bad.err"; fi
finish
