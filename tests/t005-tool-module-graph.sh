#!/usr/bin/env bash
# t005-tool-module-graph: the tool's modules call downward. The call graph
# comes from the build's object files (scripts/module-graph.sh, itself
# checked first on objects whose calls are known by construction);
# mt_main.c's map names every module in the order of memtime/Makefile.am,
# and every call goes down that order: no cycle at all. memtime-vis: no
# cycle, and every call from one stage into another is one that
# visualizer/README.md lists (its "Cross-stage calls"), each entry a call.
. "$(dirname "$0")/lib.sh"
plan 12
G="$MT_SRC/scripts/module-graph.sh"

# a -> b -> c, and c -> a closes a cycle of three.
mkdir -p "$T/cyc" "$T/acyc"
printf 'int b(void);\nint a(void) { return b(); }\n' >"$T/a.c"
printf 'int c(void);\nint b(void) { return c(); }\n' >"$T/b.c"
printf 'int a(void);\nint c(void) { return a(); }\n' >"$T/c.c"
printf 'int c(void) { return 0; }\n' >"$T/c0.c"
cc -c -o "$T/cyc/a.o" "$T/a.c" && cc -c -o "$T/cyc/b.o" "$T/b.c" && cc -c -o "$T/cyc/c.o" "$T/c.c"
cp "$T/cyc/a.o" "$T/cyc/b.o" "$T/acyc/" && cc -c -o "$T/acyc/c.o" "$T/c0.c"
sh "$G" "$T/cyc" >"$T/cyc.txt"; rc=$?
is "$rc $(grep '^cycle:' "$T/cyc.txt" | tr ' ' '\n' | grep -v '^cycle:$' | grep . | sort | tr '\n' ' ')" \
   "1 a b c " "module-graph.sh finds a cycle of three and exits 1"
sh "$G" "$T/acyc" >"$T/acyc.txt"; rc=$?
is "$rc $(tr '\n' '|' <"$T/acyc.txt")" "0 a -> b|b -> c|cycles: none|" \
   "module-graph.sh prints the edges of an acyclic graph, no cycle, exits 0"

# The tool.
sh "$G" "$MT_BUILD/memtime" >"$T/tool.txt"
diag "$(cat "$T/tool.txt")"
check "the tool's modules have no cycle" grep -qx 'cycles: none' "$T/tool.txt"
check "the heap model drives the kill's write (mt_heap -> mt_output, mt_limit)" \
  sh -c "grep -q '^mt_heap -> .*mt_limit' '$T/tool.txt' && grep -q '^mt_heap -> .*mt_output' '$T/tool.txt' && ! grep -q '^mt_limit -> .*mt_output' '$T/tool.txt'"

# The order of the sources in Makefile.am, and the map's entries.
awk '/^memtime_amd64_linux_SOURCES/{f=1} f{print} f&&!/\\$/{exit}' "$MT_SRC/memtime/Makefile.am" \
  | grep -o 'mt_[a-z_]*\.c' >"$T/order.txt"
awk '/^\/\* memtime profiles/{c=1} c{print} c&&/\*\//{exit}' "$MT_SRC/memtime/mt_main.c" \
  | sed -n 's/^   - \(mt_[a-z_]*\.c\).*/\1/p' >"$T/map.txt"
is "$(tr '\n' ' ' <"$T/map.txt")" "$(tr '\n' ' ' <"$T/order.txt")" \
   "the map names every module of Makefile.am, in its order"
check "the map names the preload's source too" \
  grep -q '^   - mt_alloc_api\.c + mt_preload\.c' "$MT_SRC/memtime/mt_main.c"
# Every object is a module of the list (or the preload's).
missing=$(sed -n 's/^\(mt_[a-z_]*\) ->.*/\1/p' "$T/tool.txt" | while read -r m; do
  grep -qx "$m.c" "$T/order.txt" || [ "$m" = mt_preload ] || echo "$m"; done)
is "$missing" "" "every module that calls another is in Makefile.am's list"
# Every call goes down the order.
up=$(awk 'NR==FNR { sub(/\.c$/, ""); pos[$0] = NR; next }
          /^cycle/ { next }
          { for (i = 3; i <= NF; i++)
              if (pos[$i] <= pos[$1])
                print $1 " -> " $i }' "$T/order.txt" "$T/tool.txt")
is "$up" "" "every call goes down the map"

# memtime-vis: no cycle between its modules either (visualizer/README.md).
# Only the objects of today's sources: a build tree made before a source
# moved keeps the old object, which would read as a module of its own.
mkdir -p "$T/vis"
(cd "$MT_SRC/visualizer" && find . -name '*.c' | sed 's|^\./||') | while read -r src; do
  d=$(dirname "$src"); b=$(basename "$src" .c)
  o="$MT_BUILD/visualizer/$d/memtime_vis-$b.o"
  mkdir -p "$T/vis/$d"
  [ -f "$o" ] && cp "$o" "$T/vis/$d/$b.o"
done
sh "$G" "$T/vis" >"$T/vis.txt"
check "memtime-vis's modules have no cycle" grep -qx 'cycles: none' "$T/vis.txt" || diag "$(grep '^cycle' "$T/vis.txt")"

# unlisted GRAPH LIST: the cross-stage calls of GRAPH (module-graph.sh's
# lines, modules named stage/file, the top level without a stage) that
# LIST (lines "caller callee") does not hold. Free: the top level calling
# anything, anything calling base/, render/ calling model/, and read/
# filling the model through model/profile (profile_build.h).
unlisted() {
  awk 'NR == FNR { ok[$1 " " $2] = 1; next }
       /^cycle/ { next }
       function stage(m) { return m ~ /\// ? substr(m, 1, index(m, "/") - 1) : "main" }
       { a = stage($1)
         for (i = 3; i <= NF; i++) {
           b = stage($i)
           if (a == b || a == "main" || (b == "base" && a != "base") ||
               (a == "render" && b == "model") || (a == "read" && $i == "model/profile"))
             continue
           if (!(($1 " " $i) in ok)) print $1 " -> " $i
         } }' "$2" "$1"
}
# The rule itself, on calls known by construction: a renderer reading a
# file, a reader naming sites, base calling up, the model calling a
# renderer; the one listed call and the free ones pass.
printf '%s\n' 'render/a -> base/x model/b read/c render/d' 'read/c -> base/x model/profile model/sites' \
  'base/x -> model/b' 'model/b -> read/c render/d' 'main -> read/c render/d' 'cycles: none' >"$T/fake.txt"
echo 'model/b read/c' >"$T/fake-list.txt"
is "$(unlisted "$T/fake.txt" "$T/fake-list.txt" | tr '\n' '|')" \
   "render/a -> read/c|read/c -> model/sites|base/x -> model/b|model/b -> render/d|" \
   "the cross-stage rule finds exactly the unlisted calls of a known graph"

# visualizer/README.md's list: "- `caller` -> `callee`: reason" under
# "## Cross-stage calls".
awk '/^## /{f = ($0 == "## Cross-stage calls")} f' "$MT_SRC/visualizer/README.md" \
  | sed -n 's/^- `\([a-z_/]*\)` -> `\([a-z_/]*\)`:.*/\1 \2/p' >"$T/listed.txt"
diag "listed cross-stage calls: $(wc -l <"$T/listed.txt")"
is "$(unlisted "$T/vis.txt" "$T/listed.txt")" "" \
   "every cross-stage call of memtime-vis is listed in visualizer/README.md"
stale=$(while read -r a b; do
  grep -q "^$a -> \(.* \)\?$b\( \|\$\)" "$T/vis.txt" || echo "$a -> $b"; done <"$T/listed.txt")
is "$stale" "" "every call listed in visualizer/README.md is a call of the build"
finish
