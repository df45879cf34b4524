#!/bin/sh
# Prints the call graph between the modules of a program, taken from its
# object files, and the cycles in it: module X -> Y when X's object uses a
# symbol Y's object defines (nm: U in X, T/D/B/R/... in Y). A module is an
# object file named without automake's per-target prefix ("memtime_vis-").
# Symbols from libraries (defined by no object given) are left out.
#
#   scripts/module-graph.sh DIR [DIR...]   every *.o below each DIR
#
# Output: one line "X -> Y Z ..." per module that uses others, sorted, then
# "cycles: none", or one line "cycle: A B C" per strongly connected set of
# two or more modules. Exit status 0 without a cycle, 1 with one, 2 on a
# usage error, so a test can run it as the claim it checks.
set -eu
[ $# -ge 1 ] || { echo "usage: $0 DIR [DIR...]" >&2; exit 2; }
for dir in "$@"; do
    objs=$(cd "$dir" && find . -name '*.o' | sort)
    [ -n "$objs" ] || { echo "$0: no object files under $dir" >&2; exit 2; }
    for o in $objs; do
        m=$(basename "$o" .o)
        case $m in *-*) m=${m#*-} ;; esac
        sub=$(dirname "${o#./}")
        [ "$sub" = . ] || m=$sub/$m
        nm "$dir/$o" | awk -v m="$m" '$1 == "U" { print "U", m, $2; next }
                                     NF == 3 && $2 ~ /^[TDBRCGSV]$/ { print "D", m, $3 }'
    done
done | awk '
$1 == "D" { def[$3] = $2; mods[$2] = 1; next }
          { use[++n] = $2 " " $3; mods[$2] = 1 }
END {
    for (i = 1; i <= n; i++) {
        split(use[i], u, " ")
        if ((u[2] in def) && def[u[2]] != u[1])
            edge[u[1], def[u[2]]] = 1
    }
    nm_ = 0
    for (m in mods) name[++nm_] = m
    # sort module names (insertion sort: a few dozen at most)
    for (i = 2; i <= nm_; i++) {
        v = name[i]
        for (j = i - 1; j > 0 && name[j] > v; j--) name[j + 1] = name[j]
        name[j + 1] = v
    }
    for (i = 1; i <= nm_; i++) {
        line = ""
        for (j = 1; j <= nm_; j++)
            if ((name[i], name[j]) in edge) { line = line " " name[j]; nout[name[i]]++ }
        if (line != "") print name[i] " ->" line
    }
    # Tarjan strongly connected components
    idx = 0; sp = 0; ncyc = 0
    for (i = 1; i <= nm_; i++)
        if (!(name[i] in index_)) strong(name[i])
    if (ncyc == 0) { print "cycles: none"; exit 0 }
    exit 1
}
function strong(v,    j, w, comp, k) {
    index_[v] = idx; low[v] = idx; idx++
    stack[++sp] = v; onstack[v] = 1
    for (j = 1; j <= nm_; j++) {
        w = name[j]
        if (!((v, w) in edge)) continue
        if (!(w in index_)) { strong(w); if (low[w] < low[v]) low[v] = low[w] }
        else if (onstack[w] && index_[w] < low[v]) low[v] = index_[w]
    }
    if (low[v] == index_[v]) {
        comp = ""; k = 0
        do { w = stack[sp--]; onstack[w] = 0; comp = w " " comp; k++ } while (w != v)
        if (k > 1) { print "cycle: " comp; ncyc++ }
    }
}'
