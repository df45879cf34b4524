#!/usr/bin/env bash
# t002-readme: the docs a reader meets first hold their promises. The
# README's Quick start is exactly two one-line commands and CI runs the
# second; the README stays a short front page (at most 200 lines, the user
# guide and the rest a link away); every relative link and image of every
# Markdown file resolves (tests/doclinks.py: files and heading anchors);
# every man page section the user guide points at exists
# (tests/mansections.py); tests/README.md's table of numbers names every
# script in the row of its range, and no number without a script or used
# twice (tests/testtable.py); and no text of the tree names a work item by
# number: docs, comments and messages name the requirement itself.
. "$(dirname "$0")/lib.sh"
need python3
plan 8
qs=$(awk '/^## Quick start/{f=1;next} f&&/^```/{if(inb)exit; inb=1; next} f&&inb&&NF{print}' "$MT_SRC/README.md")
is "$(printf '%s\n' "$qs" | grep -c .)" 2 "Quick start holds two commands"
check "no prompts or continuations" bash -c '! printf "%s\n" "$1" | grep -qE "^\\$|\\\\$"' _ "$qs"
t=$(printf '%s\n' "$qs" | sed -n 2p)
check ".ci/run calls the test command" grep -qF -- "$t" "$MT_SRC/.ci/run"
n=$(wc -l <"$MT_SRC/README.md")
check "README.md is at most 200 lines ($n)" test "$n" -le 200
# The tree's own Markdown files: the build trees and git's data are not the
# tree (a build directory may sit inside it, as _build/ does).
mds=$(cd "$MT_SRC" && find . \( -name .git -o -name '_build*' -o -name autom4te.cache \) -prune \
        -o -type f -name '*.md' -print | sort)
(cd "$MT_SRC" && python3 "$MT_SRC/tests/doclinks.py" . $mds) >"$T/links.txt" 2>&1
is "$?:$(head -5 "$T/links.txt")" "0:" "every relative link and image of the Markdown files resolves ($(printf '%s\n' $mds | wc -l) files)"
python3 "$MT_SRC/tests/mansections.py" "$MT_SRC/docs/guide.md" "$MT_SRC/docs" >"$T/man.txt" 2>&1
is "$?:$(head -5 "$T/man.txt")" "0:" "every man page section docs/guide.md points at exists"
python3 "$MT_SRC/tests/testtable.py" "$MT_SRC/tests/README.md" "$MT_SRC/tests" >"$T/table.txt" 2>&1
is "$?:$(head -5 "$T/table.txt")" "0:" "tests/README.md's table names every script of tests/ in its range ($(ls "$MT_SRC"/tests/t[0-9]*.sh | wc -l) scripts)"
# A number after "issue" (with or without #) in any text file of the tree.
(cd "$MT_SRC" && grep -rIniE --exclude-dir=.git --exclude-dir='_build*' --exclude-dir=autom4te.cache \
   'issue ?#?[0-9]' .) >"$T/issues.txt"
is "$(head -5 "$T/issues.txt")" "" "no issue numbers in the tree's docs, sources, tests or benchmarks"
finish
