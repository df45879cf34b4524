#!/usr/bin/env bash
# t581: the cmd: and desc: lines stay one line. Arguments holding a newline,
# a tab, a backslash and another control character are written escaped
# (\n, \t, \\, \xHH: docs/file-format.md), so the file keeps Massif's
# grammar and ms_print reads it; Massif's own file for the same command,
# whose cmd: runs over several lines (blank and '#' ones included), is read
# by memtime-vis with the lines joined by \n.
. "$(dirname "$0")/lib.sh"
plan 9

p=$(build_prog heap_c.c) || { not_ok "build heap_c.c"; exit 1; }
nl=$'line one\n\n# two'
odd=$'tab\there back\\slash bell\a'
memtime -q --time-unit=B --alloc-fn=$'no\nsuch' --memtime-out-file="$T/a.mt" "$p" "$nl" "$odd" >/dev/null 2>"$T/a.err"
is "$?" 0 "memtime runs"
is "$(sed -n 2p "$T/a.mt")" "cmd: $p line one\\n\\n# two tab\\there back\\\\slash bell\\x07" \
   "cmd: escaped on one line"
is "$(sed -n 1p "$T/a.mt")" 'desc: --time-unit=B --alloc-fn=no\nsuch --memtime-out-file='"$T/a.mt" \
   "desc: escaped on one line"
is "$(sed -n 3p "$T/a.mt")" "time_unit: B" "time_unit: is the third line"
check "massif-visualizer's grammar" grammar "$T/a.mt"
check "ms_print reads it" sh -c "ms_print '$T/a.mt' >'$T/a.txt'"

massif -q --time-unit=B --massif-out-file="$T/b.ms" "$p" "$nl" "$odd" >/dev/null 2>&1
is "$(sed -n '/^cmd:/,/^time_unit:/p' "$T/b.ms" | wc -l)" 4 "Massif's cmd: spans 3 lines (the oracle)"
vis "$T/b.ms" >"$T/b.txt" 2>"$T/b.err"
is "$?" 0 "memtime-vis reads Massif's multi-line cmd:"
is "$(grep '^  Command:' "$T/b.txt")" "  Command:    $p line one\\n\\n# two $odd" \
   "the command is one line, its lines joined by \\n"
finish
