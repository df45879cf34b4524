# bench/b-rust.sh: Rust at full speed: Debian's rustc (LLVM
# inside: deep stacks of long, mangled, inlined Rust and C++ names, and
# about a million allocations) compiling the small crate progs/rust_crate
# (main.rs, words.rs, stats.rs) at opt-level=2, under Massif (the
# reference), memtime and --tool=none, each in its default mode as users run
# them (Massif --time-unit=i, memtime ms with its samples, rewrites, tree
# detail and resident-memory readings). The compiled program is never run.
# Targets, on median user+sys CPU seconds: memtime <= 0.90x Massif and
# <= 1.15x --tool=none. Not available without /usr/bin/rustc (Debian's
# rustc package; a rustup toolchain's rustc is a different program).
bench_rust() {
  local cmd na=
  group_begin rust "rustc, a small crate"
  if [ ! -x /usr/bin/rustc ]; then
    na="no /usr/bin/rustc (apt-get install rustc)"
    group_tool massif "" "$na"; group_tool memtime "" "$na"; group_tool none "" "$na"
  else
    cmd="/usr/bin/rustc --edition 2021 -C opt-level=2 -o $BENCH_WORK/rust_crate $BENCH_SRC/progs/rust_crate/main.rs"
    group_heap_tools "" "$cmd"
  fi
  group_run
  group_target "memtime/massif cpu" memtime massif 0.90 cpu
  group_target "memtime/none cpu" memtime none 1.15 cpu
  _rust_named_notes
}

# Every byte named: memtime's last profile of rustc grouped by
# crate and by function; a note per grouping gives the peak's top groups and
# the shares of the peak in remainders ("in N groups below the view's
# threshold", groups past --top) and in code without symbols ("OBJECT (no
# symbols)"). Target, by crate and by function: remainders at most 5% of
# the peak (by function, the fallback groups, "other functions in llvm",
# are named groups: only the one line of what is left counts).
_rust_named_notes() {
  local prof=$BENCH_WORK/memtime.prof g line
  if [ -n "$VIS_NA" ] || [ ! -f "$prof" ]; then return; fi
  note rust sizes "profile $(stat -c %s "$prof") bytes, companion $(stat -c %s "$prof.memtime" 2>/dev/null || echo 0) bytes ($(grep -m1 '^detail:' "$prof.memtime" 2>/dev/null || echo 'no detail: line'))"
  for g in crate function; do
    line=$( { "$VIS" --group-by=$g --json "$prof" && "$VIS" --group-by=$g --threshold=0 --json "$prof"; } 2>/dev/null | python3 -c '
import json, sys
dec = json.JSONDecoder()
text = sys.stdin.read()
p, end = dec.raw_decode(text)
every, _ = dec.raw_decode(text[end:].lstrip())   # every group: --threshold=0
p, every = p["peak"], every["peak"]["sites"]
peak = p["total_bytes"] or 1   # as the summary: shares of the peak total
sites = p["sites"]
listed = sum(s["bytes"] for s in sites)
rest = sum(s["bytes"] for s in sites if s["site"].startswith("in ")) + max(p["heap_bytes"] - listed, 0)
nosym = sum(s["bytes"] for s in every if s["site"].endswith(" (no symbols)"))
top = ", ".join("%s %.1f%%" % (s["name"], 100.0 * s["bytes"] / peak)
                for s in [s for s in sites if not s["site"].startswith("in ")][:8])
print("%.1f\t%.1f\t%s" % (100.0 * rest / peak, 100.0 * nosym / peak, top))') || continue
    note rust "by $g" "remainders $(cut -f1 <<<"$line")% of the peak, no symbols $(cut -f2 <<<"$line")%; top: $(cut -f3 <<<"$line")"
    printf '%s\t%s\t%s\t%s\t%s\t%s\n' rust "by $g" "remainder % of peak" "$(cut -f1 <<<"$line")" "<= 5" \
      "$(awk -v v="$(cut -f1 <<<"$line")" 'BEGIN { print (v <= 5) ? "met" : "NOT MET" }')" >>"$BENCH_TARGETS"
  done
}
