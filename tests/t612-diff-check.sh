#!/usr/bin/env bash
# t612-diff-check: memtime-vis diff and check on pairs of runs of
# tests/progs/grow_kinds.c with --time-unit=i (repeatable profiles). The NEW
# run is another build (code added above every function: other addresses,
# same lines) whose leak blocks are 40000 B instead of 24576: the diff
# matches every site by function and file:line (none new or gone), and only
# the leak changed, by exactly 100 x (40000 - 24576) B at the end and by its
# blocks so far at the peak. check: --max-peak and --baseline with
# --max-increase/--allow, exit 0 within, 3 with one line per broken limit,
# 1 for a bad file, 2 for usage errors.
. "$(dirname "$0")/lib.sh"
need python3
plan 26
A=$(build_prog grow_kinds.c) || { not_ok "build grow_kinds.c"; exit 1; }
B=$(build_prog grow_kinds.c '-DPAD=static volatile int pad_[64]; void pad_fn(int n); void pad_fn(int n) { for (int i = 0; i < n; i++) pad_[i % 64] += i * 3; }') \
  || { not_ok "build grow_kinds.c with PAD"; exit 1; }
memtime -q --time-unit=i --memtime-out-file="$T/old.out" "$A" 2>/dev/null
memtime -q --time-unit=i --memtime-out-file="$T/new.out" "$B" leak=40000 2>/dev/null
memtime -q --time-unit=i --memtime-out-file="$T/same.out" "$A" 2>/dev/null
addr() { grep -m1 -o '0x[0-9A-F]*: leak_tick' "$1"; }
check "the two builds put leak_tick at different addresses ($(addr "$T/old.out"), $(addr "$T/new.out"))" \
  test "$(addr "$T/old.out")" != "$(addr "$T/new.out")"

vis diff --json --at end "$T/old.out" "$T/new.out" >"$T/end.json"
is "$?" 0 "diff --json --at end: exit 0"
j() { python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); exec(sys.argv[2])' "$@"; }
is "$(j "$T/end.json" 'print(d["at"], sorted(d.keys())[:2])')" "end ['at', 'new']" "the document has at and sites"
is "$(j "$T/end.json" 'print([s["site"].split()[0] for s in d["sites"] if s["delta_bytes"] != 0])')" "['leak_tick']" \
  "at the end only the leak changed"
is "$(j "$T/end.json" 's=[s for s in d["sites"] if s["site"].startswith("leak_tick")][0]; print(s["old_bytes"], s["new_bytes"], s["delta_bytes"])')" \
  "2457600 4000000 1542400" "the leak: 2,457,600 -> 4,000,000 B (+100 x 15,424)"
is "$(j "$T/end.json" 'print(all(s["old_bytes"] and s["new_bytes"] for s in d["sites"]))')" "True" \
  "every site is in both (matched by name, not address)"
is "$(j "$T/end.json" 'print(d["sites"] == sorted(d["sites"], key=lambda s: (-abs(s["delta_bytes"]), s["site"])))')" "True" \
  "sorted by absolute difference"
vis diff --json "$T/old.out" "$T/new.out" >"$T/peak.json"
is "$(j "$T/peak.json" 'l=[s for s in d["sites"] if s["delta_bytes"]]; print(d["at"], len(l), l[0]["site"].split()[0], l[0]["delta_bytes"] % 15424)')" \
  "peak 1 leak_tick 0" "--at peak (default): the leak alone, by a whole number of blocks"
vis diff --at end "$T/old.out" "$T/new.out" >"$T/end.txt"
check "text: the leak's line" grep -qE '^ +\+1\.47 MiB +2\.34 MiB +3\.81 MiB  leak_tick \(grow_kinds\.c:[0-9]+\)$' "$T/end.txt"
check "text: the total's line" grep -qE '^  Total: .* -> .* \(\+1\.47 MiB, \+[0-9.]+%\)$' "$T/end.txt"
vis diff "$T/old.out" "$T/same.out" >"$T/same.txt"
check "a run against its repeat: no site changed" grep -qx '  (no site changed)' "$T/same.txt"
vis diff --at nonsense "$T/old.out" "$T/new.out" >/dev/null 2>&1; is "$?" 2 "diff --at nonsense: usage error"
# -o diff.png: both totals (OLD grey 7F7F7F, NEW orange FF7F0E) and the
# leak's bar in the "grew" red (D62728).
PNGCHECK=$(build_pngcheck) || { not_ok "build tests/pngcheck.c"; exit 1; }
vis diff --at end -o "$T/diff.png" "$T/old.out" "$T/new.out"
is "$? $("$PNGCHECK" "$T/diff.png" size)" "0 1400 900" "diff -o diff.png: exit 0, a 1400x900 PNG"
check "  ... with both totals' lines and a red bar" sh -c \
  "test \$('$PNGCHECK' '$T/diff.png' count 7F7F7F) -gt 500 && test \$('$PNGCHECK' '$T/diff.png' count FF7F0E) -gt 500 && test \$('$PNGCHECK' '$T/diff.png' count D62728) -gt 500"
vis diff -o "$T/diff.svg" "$T/old.out" "$T/new.out" >/dev/null 2>&1; is "$?" 2 "diff -o x.svg: usage error (PNG only)"
vis diff -o "$T/a.png" --align nomark "$T/old.out" "$T/new.out" >/dev/null 2>"$T/err"; rc=$?
is "$rc $(cat "$T/err")" "2 memtime-vis: --align: no phase mark 'nomark' in $T/old.out" "--align with a mark neither has: exit 2, named"
check "  ... and no image left" test ! -e "$T/a.png"

# check
vis check --max-peak 20MiB "$T/new.out" >"$T/c.txt"; is "$? $(cat "$T/c.txt")" "0 " "check --max-peak above the peak: exit 0, silent"
vis check --max-peak 10MiB "$T/new.out" >"$T/c.txt"; rc=$?
is "$rc $(wc -l <"$T/c.txt")" "3 1" "check --max-peak below the peak: exit 3, one line"
# memtime's profile has the exact outline: the gate is its true maximum.
check "  ... naming the true peak (exact outline) and the limit" grep -qE "^true peak [0-9.]+ MiB \([0-9,]+ B\) by the exact outline \(the snapshots' peak is snapshot [0-9]+\) is over --max-peak 10\.0 MiB \(10,485,760 B\)\$" "$T/c.txt"
vis check --baseline "$T/old.out" --max-increase 10 --allow 100KiB "$T/new.out" >"$T/c.txt"; rc=$?
is "$rc $(wc -l <"$T/c.txt")" "3 1" "baseline: the leak grew > 10% and > 100 KiB at the peak: exit 3, one line"
check "  ... naming the site and both numbers" grep -qE '^site leak_tick \(grow_kinds\.c:[0-9]+\) at the peak grew from .* \([0-9,]+ B\) to .* \([0-9,]+ B\): \+.*; limits: --max-increase 10% and --allow 100 KiB$' "$T/c.txt"
vis check --baseline "$T/old.out" --max-increase 10 --allow 10MiB "$T/new.out" >/dev/null; is "$?" 0 "baseline: within --allow 10MiB: exit 0"
vis check --baseline "$T/old.out" --max-increase 1000 "$T/new.out" >/dev/null; is "$?" 0 "baseline: within --max-increase 1000%: exit 0"
printf 'desc: x\n' >"$T/bad.out"
vis check --max-peak 1MiB "$T/bad.out" >/dev/null 2>&1; is "$?" 1 "check on a bad file: exit 1"
vis check --max-increase 5 "$T/new.out" >/dev/null 2>&1; is "$?" 2 "--max-increase without --baseline: exit 2"
finish
