#!/usr/bin/env bash
# t595-rss: resident memory beside the heap (--rss=yes, the default), checked
# against the kernel's own figures for the same program run natively
# (tests/progs/rss_phases.c prints VmRSS, RssAnon, RssFile, RssShmem from
# /proc/self/status at each phase; under memtime it marks the phase and asks
# for a snapshot, which reads the resident memory there).
# - map: N MiB of anonymous memory, then of a mapped file, then of shared
#   anonymous memory, then all unmapped: each class and the total within 10%
#   of the native figure (or 256 KiB, for the ~1.5 MiB a bare C program
#   holds), the mappings named at the RSS peak (the file's path; [anon] with
#   the stack of its mmap). The file is made in the scratch directory, whose
#   file system decides how the kernel counts it: file pages on a disk,
#   shared memory on a tmpfs (a TMPDIR in /dev/shm, a /tmp mounted so); the
#   native run says which, and memtime must agree.
# - frag: many small blocks, every other one freed: the heap halves, RSS
#   stays; both within 10% of the native VmRSS, the gap in the summary.
# - a jemalloc that really runs (renamed API, blocks reported to memtime)
#   with purging off: its retained pages show as RSS far above the heap.
# - pages only read and a calloc'd block never touched: memtime counts both
#   as resident (the zero page shows in the page map; its calloc clears the
#   block), never less than the kernel does natively. What the kernel counts
#   natively depends on the kernel (most map the shared zero page for a
#   read and count nothing; some fill a page per read): it is measured,
#   never assumed.
# - --rss=no records nothing; the Massif file never holds any of it.
. "$(dirname "$0")/lib.sh"
. "$MT_SRC/tests/progs/jemalloc_build.sh"
need file:libjemalloc_pic.a objcopy
plan 27

N=32
P=$(build_prog rss_phases.c) || { not_ok "build rss_phases.c"; exit 1; }

# native FILE PHASE FIELD: kB from the native run's line for PHASE.
native() { sed -n "s/^phase $2 .*\\b$3=\\([0-9]*\\).*/\\1/p" "$1"; }
# mt_at COMPANION PHASE: "anon file shmem" in kB of the first reading at or
# after the mark of PHASE.
mt_at() {
  awk -v ph="$2" '
    /^mark: / { split($2, a, "="); if ($3 == ph) t = a[2] + 0 }
    /^rss: / && t != "" && !done {
      split($3, tm, "="); if (tm[2] + 0 < t) next
      split($4, x, "="); split($5, y, "="); split($6, z, "=")
      print int(x[2] / 1024), int(y[2] / 1024), int(z[2] / 1024); done = 1 }' "$1"
}
# close_to GOT_KB WANT_KB: within 10% of WANT, or 256 KiB.
close_to() {
  local d=$(( $1 > $2 ? $1 - $2 : $2 - $1 ))
  [ "$d" -le $(( $2 / 10 )) ] || [ "$d" -le 256 ]
}
# compare WHAT GOT_KB WANT_KB
compare() {
  if close_to "$2" "$3"; then ok "$1: memtime $2 kB, native $3 kB"
  else not_ok "$1: memtime $2 kB, native $3 kB (more than 10% apart)"; fi
}

# --- map: anonymous, file, shared, unmapped --------------------------------
mkdir -p "$T/nat" "$T/mt"
"$P" map $N "$T/nat" >"$T/map.native" || not_ok "native run"
memtime -q --time-unit=i --memtime-out-file="$T/map.out" "$P" map $N "$T/mt" >/dev/null 2>"$T/map.err"
C=$T/map.out.memtime
for ph in anon file shared unmapped; do
  read -r a f s <<<"$(mt_at "$C" $ph)"
  compare "map, phase $ph: RSS" $(( ${a:-0} + ${f:-0} + ${s:-0} )) "$(native "$T/map.native" $ph VmRSS)"
done
read -r a f s <<<"$(mt_at "$C" shared)"
compare "map, phase shared: anonymous" "${a:-0}" "$(native "$T/map.native" shared RssAnon)"
compare "map, phase shared: file" "${f:-0}" "$(native "$T/map.native" shared RssFile)"
compare "map, phase shared: shared memory" "${s:-0}" "$(native "$T/map.native" shared RssShmem)"
# How the kernel counted the file natively: as file pages, or (on a tmpfs)
# as shared memory.
if [ $(( $(native "$T/map.native" file RssShmem) - $(native "$T/map.native" anon RssShmem) )) -gt $(( N * 1024 / 2 )) ]; then
  fkind=shmem fline="anon=0 file=0 shmem=$((N << 20))" fsum=shared
  fsplit="file [0-9.]+ [KM]iB, shared 4[0-9.]+ MiB"
else
  fkind=file fline="anon=0 file=$((N << 20)) shmem=0" fsum="file  "
  fsplit="file 3[0-9.]+ MiB, shared 16.0 MiB"
fi
check "map: the file is named at the RSS peak, as $fkind (as the kernel counts it here)" \
  grep -q "^rss-mapping: $fline mappings=1 $T/mt/rss_phases.data\$" "$C"
check "map: the anonymous mapping is named by its mmap's stack (libc's mmap left out)" \
  sh -c "grep -A1 '^rss-mapping: anon=$((N << 20)) .* \[anon\]\$' '$C' | grep -q '^rss-mapping-frame: 0x[0-9A-F]*: map (rss_phases.c:'"
check "map: the Massif file stays inside its grammar, with no resident memory in it" \
  sh -c "perl '$MT_SRC/tests/check-strict-grammar.pl' '$T/map.out' && ! grep -qi '^rss' '$T/map.out' && ms_print '$T/map.out' >/dev/null"
vis --summary-only "$T/map.out" >"$T/map.sum" 2>&1
check "map: the summary gives the peak RSS and its split" \
  grep -Eq "^  Peak RSS:   8[0-9.]+ MiB at .*: anonymous 3[0-9.]+ MiB, $fsplit\$" "$T/map.sum"
check "map: the summary names the file among the largest mappings" \
  grep -Eq "^   [0-9]\\.   32\\.0 MiB  $fsum $T/mt/rss_phases.data\$" "$T/map.sum"

# --- frag: the heap halves, RSS stays --------------------------------------
"$P" frag $N >"$T/frag.native" || not_ok "native run"
memtime -q --time-unit=B --memtime-out-file="$T/frag.out" "$P" frag $N >/dev/null 2>"$T/frag.err"
C=$T/frag.out.memtime
peak_kb=$(awk '/^rss-peak: /{ split($3,a,"="); split($4,b,"="); split($5,c,"="); print int((a[2]+b[2]+c[2])/1024) }' "$C")
compare "frag: the RSS peak (all allocated)" "${peak_kb:-0}" "$(native "$T/frag.native" allocated VmRSS)"
read -r a f s <<<"$(mt_at "$C" half-freed)"
compare "frag: RSS after freeing every other block" $(( ${a:-0} + ${f:-0} + ${s:-0} )) \
  "$(native "$T/frag.native" half-freed VmRSS)"
heap_peak=$(sed -n 's/^mem_heap_B=//p' "$T/frag.out" | sort -n | tail -1)
heap_last=$(sed -n 's/^mem_heap_B=//p' "$T/frag.out" | tail -1)
check "frag: the heap halves ($heap_last of $heap_peak B)" \
  test $(( heap_last * 100 / heap_peak )) -ge 45 -a $(( heap_last * 100 / heap_peak )) -le 55
vis --summary-only "$T/frag.out" >"$T/frag.sum" 2>&1
check "frag: the summary shows the heap explaining most of the RSS peak" \
  grep -Eq '^              heap \(with extra\) 3[0-9.]+ MiB there: it explains (8[5-9]|9[0-9])\.[0-9]% of the RSS' "$T/frag.sum"
check "frag: ... and half of it at the end (the gap)" \
  grep -Eq '^  Last reading \(snapshot [0-9]+, .*\): RSS 3[0-9.]+ MiB, heap 1[0-9.]+ MiB \(4[0-9]\.[0-9]%\)$' "$T/frag.sum"

# --- jemalloc's retained pages ----------------------------------------------
# jemalloc under its own names is replaced by memtime's allocator (so its
# retention cannot show); renamed, it runs, and the program reports its blocks.
if a=$(je_pic_archive); then
  map=$MT_PROGS/xje.map
  je_public_symbols | awk '{print $1, "_xje_" $1}' >"$map"
  objcopy --redefine-syms="$map" "$a" "$MT_PROGS/libjemalloc_xje.a"
  J=$(build_prog rss_phases.c -DJE_PREFIX=_xje_ "$MT_PROGS/libjemalloc_xje.a" -lm -ldl) \
    || not_ok "build rss_phases.c with jemalloc"
  "$J" retain $N >"$T/je.native"
  memtime -q --time-unit=i --memtime-out-file="$T/je.out" "$J" retain $N >/dev/null 2>"$T/je.err"
  C=$T/je.out.memtime
  read -r a f s <<<"$(mt_at "$C" freed)"
  compare "jemalloc: RSS after freeing everything" $(( ${a:-0} + ${f:-0} + ${s:-0} )) \
    "$(native "$T/je.native" freed VmRSS)"
  heap_last=$(sed -n 's/^mem_heap_B=//p' "$T/je.out" | tail -1)
  check "jemalloc: the heap is empty then ($heap_last B), RSS stays above $((N - 4)) MiB" \
    test "$heap_last" -lt 1048576 -a "${a:-0}" -gt $(( (N - 4) * 1024 ))
  check "jemalloc: its retained extents are named by their mmap's stack" \
    grep -q '^rss-mapping-frame: 0x[0-9A-F]*: je_pages_map ' "$C"
  vis --summary-only "$T/je.out" >"$T/je.sum" 2>&1
  check "jemalloc: the summary shows the gap at the end" \
    grep -Eq '^  Last reading \(snapshot [0-9]+, .*\): RSS 3[0-9.]+ MiB, heap [0-9.]+ KiB \([0-9]\.[0-9]%\)$' "$T/je.sum"
else
  for i in 1 2 3 4; do not_ok "jemalloc: cannot read libjemalloc_pic.a"; done
fi

# --- pages only read, a calloc'd block never touched --------------------------
"$P" untouched $N >"$T/un.native"
memtime -q --time-unit=i --memtime-out-file="$T/un.out" "$P" untouched $N >/dev/null 2>"$T/un.err"
read -r a0 f s <<<"$(mt_at "$T/un.out.memtime" start)"
read -r a1 f s <<<"$(mt_at "$T/un.out.memtime" read)"
read -r a2 f s <<<"$(mt_at "$T/un.out.memtime" calloc)"
n0=$(native "$T/un.native" start RssAnon) n1=$(native "$T/un.native" read RssAnon)
n2=$(native "$T/un.native" calloc RssAnon)
# memtime's own behaviour: all N MiB resident in both phases. The native
# figure is this kernel's, shown, and memtime must count at least as much
# (256 KiB for the program's own pages).
check "pages only read count as resident under memtime: +$(( (a1 - a0) / 1024 )) MiB (natively +$(( (n1 - n0) / 1024 )) MiB on this kernel)" \
  test $(( a1 - a0 )) -ge $(( (N - 1) * 1024 )) -a $(( n1 - n0 )) -le $(( a1 - a0 + 256 ))
check "calloc clears its block under memtime: +$(( (a2 - a1) / 1024 )) MiB (natively +$(( (n2 - n1) / 1024 )) MiB on this kernel)" \
  test $(( a2 - a1 )) -ge $(( (N - 1) * 1024 )) -a $(( n2 - n1 )) -le $(( a2 - a1 + 256 ))

# --- --rss=no ----------------------------------------------------------------
memtime -q --rss=no --time-unit=i --memtime-out-file="$T/no.out" "$P" map 1 "$T/mt" >/dev/null 2>&1
check "--rss=no: no resident memory in the companion (only the marks)" \
  sh -c "grep -q '^mark: ' '$T/no.out.memtime' && ! grep -q '^rss' '$T/no.out.memtime'"
vis --summary-only "$T/no.out" >"$T/no.sum" 2>&1
check "--rss=no: the summary has no RSS section" sh -c "! grep -q 'Resident memory' '$T/no.sum'"

# --- the reader ---------------------------------------------------------------
cp "$T/map.out" "$T/bad.out"
{ sed -n '1,/^rss-peak: /p' "$T/map.out.memtime" | sed '$d'; echo 'rss-mapping-frame: 0x1: f (a.c:1)'; } >"$T/bad.out.memtime"
vis --summary-only "$T/bad.out" >/dev/null 2>"$T/bad.err"
line=$(grep -n '^rss-mapping-frame' "$T/bad.out.memtime" | cut -d: -f1)
is "$(cat "$T/bad.err")" "memtime-vis: $T/bad.out.memtime:$line: expected 'rss-mapping:' before 'rss-mapping-frame:', found 'rss-mapping-frame: 0x1: f (a.c:1)' (use --no-companion to ignore it)" \
  "a frame with no mapping: one line naming file and line"
{ grep -v '^rss' "$T/map.out.memtime"; echo 'rss: snapshot=0 time=999999999 anon=1 file=2 shmem=3'; } >"$T/bad.out.memtime"
vis --summary-only "$T/bad.out" >"$T/bad.sum" 2>&1
check "an rss: line one rewrite apart (time differs) is ignored" \
  sh -c "! grep -q 'Resident memory' '$T/bad.sum'"
finish
