#!/usr/bin/env bash
# t613-example-leak: the user guide's "Finding a leak" (docs/guide.md) on
# the bundled example (examples/node_sim.c, built as scripts/quickstart.sh
# builds it): the summary's Growing section and --growth (whole run, and
# --from prune --to end) rank note_peer_activity first as steady; it holds
# exactly 388 blocks at exit (288 sync + 40 mempool + 20 verify + 40 serve
# records, by construction); the mempool's receive_tx has 20000
# allocations; --growth -o tags its band; --json says the same. Then the
# guide's CI recipe: two --time-unit=i runs diff to no change and pass both
# gates. Last, every memtime-vis command of the guide's examples that reads
# these three profiles (node.out, base.out, pr.out) runs as written and
# succeeds, so the guide cannot drift from the options.
. "$(dirname "$0")/lib.sh"
need python3
plan 15
d=$T/ex; mkdir -p "$d"
cc -g -O1 -Wall -I"$MT_SRC/memtime" -DMEMTIME_EXAMPLE_MARKS -o "$d/node_sim" "$MT_SRC/examples/node_sim.c" \
  || { not_ok "build examples/node_sim.c"; exit 1; }
memtime -q --memtime-out-file="$d/node.out" "$d/node_sim" >/dev/null 2>&1
is "$?" 0 "the example runs under memtime"
vis "$d/node.out" --summary-only >"$T/sum.txt"
check "summary: Growing starts with note_peer_activity, steady" \
  sh -c "sed -n '/^Growing/,/^\$/p' '$T/sum.txt' | sed -n 3p | grep -qE '^  steady .* note_peer_activity \(node_sim\.c:[0-9]+\)\$'"
check "summary: still live at exit, 388 blocks of note_peer_activity" \
  grep -qE '^ +[0-9.]+ KiB in +388 blocks  note_peer_activity ' "$T/sum.txt"
check "summary: receive_tx's temporaries out of 20000 calls" \
  grep -qE '^ +[0-9]+ of +20000 calls  receive_tx ' "$T/sum.txt"
first_row() { sed -n 3p "$1" | sed -E 's/^  ([a-z]+) .*  ([A-Za-z_]+) \(node_sim\.c:[0-9]+\)$/\1 \2/'; }
vis "$d/node.out" --growth >"$T/g.txt"
is "$(first_row "$T/g.txt")" "steady note_peer_activity" "--growth: the leak first, steady"
# After the prune the leak still grows (its kind over so short a window
# depends on how many detailed snapshots the run took there).
vis "$d/node.out" --json --growth --from prune --to end >/dev/null 2>&1; is "$?" 2 "--json excludes --growth"
vis "$d/node.out" --json --from prune --to end >"$T/gp.json"
is "$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); m=[x["time"] for x in d["marks"] if x["label"]=="prune"][0]; g=[x for x in d["growth"] if x["site"].startswith("note_peer_activity ")][0]; print(d["window"]["from_time"] <= m, g["growth_bytes"] > 0)' "$T/gp.json")" \
  "True True" "--from prune --to end: the window starts at the prune mark, the leak grows in it"
PNGCHECK=$(build_pngcheck) || { not_ok "build tests/pngcheck.c"; exit 1; }
vis "$d/node.out" --growth -o "$T/growth.png"
check "--growth -o growth.png: the tag is drawn" test "$("$PNGCHECK" "$T/growth.png" count B22222)" -gt 100
vis "$d/node.out" --json >"$T/node.json"
is "$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); g=d["growth"][0]; print(g["kind"], g["site"].split()[0], g["rate_per_s"] > 0)' "$T/node.json")" \
  "steady note_peer_activity True" "--json: the same first row, a rate per second"

# The CI recipe.
memtime -q --time-unit=i --memtime-out-file="$d/base.out" "$d/node_sim" >/dev/null 2>&1
memtime -q --time-unit=i --memtime-out-file="$d/pr.out" "$d/node_sim" >/dev/null 2>&1
vis diff "$d/base.out" "$d/pr.out" >"$T/diff.txt"
check "two --time-unit=i runs: no site changed" grep -qx '  (no site changed)' "$T/diff.txt"
vis diff -o "$T/diff.png" --align sync "$d/base.out" "$d/pr.out"
is "$? $("$PNGCHECK" "$T/diff.png" size)" "0 1400 900" "diff -o diff.png --align sync: the chart"
vis check --baseline "$d/base.out" --max-increase 5 --allow 256KiB "$d/pr.out" >"$T/c.txt"
is "$? $(cat "$T/c.txt")" "0 " "check --baseline ... --max-increase 5 --allow 256KiB: exit 0, silent"
vis check --max-peak 512MiB "$d/pr.out" >/dev/null; is "$?" 0 "check --max-peak 512MiB: exit 0"
vis check --max-peak 1MiB "$d/pr.out" >/dev/null; is "$?" 3 "check --max-peak 1MiB: exit 3"

# The guide's commands, as written: the lines of its fenced blocks that run
# memtime-vis on these profiles, the trailing comment dropped, run from the
# directory that holds them with memtime-vis the build tree's (a sample
# of output that starts like a command, "memtime-vis summary of", is not one).
mkdir -p "$T/bin"
printf '#!/bin/sh\nexec "%s" "$@"\n' "$MT_VIS" >"$T/bin/memtime-vis"; chmod +x "$T/bin/memtime-vis"
awk '/^```/ {f = !f; next} f && /^memtime-vis / && !/^memtime-vis summary of / && / (node|base|pr)\.out/' "$MT_SRC/docs/guide.md" \
  | sed -E 's/[[:space:]]+#[[:space:]].*$//' >"$T/guide-cmds.txt"
n=0; failed=
while IFS= read -r cmd; do
  n=$((n + 1))
  (cd "$d" && PATH="$T/bin:$PATH" bash -c "$cmd" </dev/null >"$T/guide-out.txt" 2>&1) || failed="$failed [$cmd]"
done <"$T/guide-cmds.txt"
check "the guide's $n memtime-vis commands on node.out, base.out and pr.out succeed${failed:+:$failed}" \
  test "$n" -ge 20 -a -z "$failed"
finish
