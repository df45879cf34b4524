#!/usr/bin/env bash
# t560-children: profiles across fork and exec (tests/progs/fork_exec.c).
# - fork with %p: each process gets a complete profile; the child's starts
#   at the fork, its first snapshot (detailed) holding what it inherited at
#   the fork's time on the parent's clock, and holds only its own later
#   allocations; the parent's holds only its own and marks the fork.
# - exec: the pre-exec profile is written before the image goes and is
#   never overwritten; with --trace-children=yes each new image of the same
#   pid writes <name>.exec1, .exec2, ...
# - fork then exec at once (system()-like): the child leaves no profile of
#   its own (it would copy the parent's), only its exec'd image's.
# - no %p: warnings at start-up and when a forked child writes the shared
#   file, which stays a complete profile.
. "$(dirname "$0")/lib.sh"
plan 37

heaps() { sed -n 's/^mem_heap_B=//p' "$1" | tr '\n' ' '; }
has_heap() { grep -qx "mem_heap_B=$2" "$1"; }
P=$(build_prog fork_exec.c) || { not_ok "build fork_exec.c"; exit 1; }
pid_of() { sed -n "s/^pid $2 //p" "$1"; }
# The profiles in a directory (companions, <profile>.memtime, left out).
lsp() { ls "$1" | grep -v '\.memtime$'; }

# --- fork, %p --------------------------------------------------------------
d=$T/fork; mkdir -p "$d"
memtime -q --memtime-out-file="$d/p.%p" "$P" fork >"$T/fork.txt" 2>"$T/fork.err"
parent=$(pid_of "$T/fork.txt" parent); child=$(pid_of "$T/fork.txt" child)
is "$(lsp "$d" | sort | tr '\n' ' ')" "$(printf '%s\n' "p.$parent" "p.$child" | sort | tr '\n' ' ')" \
  "fork: one profile per process"
check "fork: each process's profile has its own companion (resident memory)" \
  grep -q '^profile: p\.'"$child"'$' "$d/p.$child.memtime"
check "fork: the parent's profile is complete" both_readers "$d/p.$parent"
check "fork: the child's profile is complete" both_readers "$d/p.$child"
# 100000 before the fork (both), 100000+200000 in the child only,
# 100000+30000 in the parent only (4096: stdout's buffer, allocated later).
check "fork: the child's profile holds what it inherited (100000 B)" has_heap "$d/p.$child" 100000
check "fork: ... and its own 200000 B on top" grep -qE '^mem_heap_B=30[0-9]{4}$' "$d/p.$child"
check "fork: ... and none of the parent's later 30000 B" \
  sh -c "! grep -qE '^mem_heap_B=13[0-9]{4}$' '$d/p.$child'"
check "fork: the parent's holds its 30000 B, not the child's 200000" \
  sh -c "grep -qE '^mem_heap_B=13[0-9]{4}$' '$d/p.$parent' && ! grep -qE '^mem_heap_B=30[0-9]{4}$' '$d/p.$parent'"
# The child's profile starts at the fork: snapshot 0 holds the inherited
# 100000 B with its tree, at the time the companion gives as its start.
snap0() { awk '/^snapshot=1$/ {exit} /^(time|mem_heap_B|heap_tree)=/' "$1" | tr '\n' ' '; }
start=$(sed -n 's/^process: pid=[0-9]* parent=[0-9]* start=\([0-9]*\) .*began=fork of '"$parent"'$/\1/p' "$d/p.$child.memtime")
is "$(snap0 "$d/p.$child")" "time=$start mem_heap_B=100000 heap_tree=detailed " \
  "fork: the child's profile starts at the fork ($start ms on the parent's clock) with what it inherited"
check "fork: ... which is after the parent's start" test "${start:-0}" -gt 0
check "fork: ... and none of the parent's snapshots before it" \
  sh -c "! awk -F= '/^time=/ && \$2 < ${start:-0} {bad=1} END {exit !bad}' '$d/p.$child'"
check "fork: the parent's companion records the fork" grep -q "^fork: time=[0-9]* child=$child\$" "$d/p.$parent.memtime"
check "fork: ... and marks it" grep -q "^mark: time=[0-9]* fork $child\$" "$d/p.$parent.memtime"

# --- exec, --trace-children=yes, %p ---------------------------------------
d=$T/exec; mkdir -p "$d"
memtime -q --trace-children=yes --memtime-out-file="$d/e.%p" "$P" exec 2 >"$T/exec.txt" 2>"$T/exec.err"
pids=$(sed -n 's/^pid [a-z-]* //p' "$T/exec.txt" | sort -u)
is "$(wc -l <<<"$pids")" 1 "exec: three images, one pid ($pids)"
is "$(lsp "$d" | tr '\n' ' ')" "e.$pids e.$pids.exec1 e.$pids.exec2 " \
  "exec: <name>, <name>.exec1, <name>.exec2"
for f in "e.$pids" "e.$pids.exec1" "e.$pids.exec2"; do
  check "exec: $f is complete" both_readers "$d/$f"
done
is "$(sed -n 's/^cmd: .* exec //p' "$d/e.$pids" "$d/e.$pids.exec1" "$d/e.$pids.exec2" | tr '\n' ' ')" \
  "2 1 0 " "exec: each file is its own image's (cmd: exec 2, 1, 0)"
# Written before exec: the last snapshot (ms: taken then) holds the 70000 B
# still live when the image was replaced.
check "exec: the pre-exec profile ends with the image's live 70000 B" \
  sh -c "sed -n 's/^mem_heap_B=//p' '$d/e.$pids' | tail -1 | grep -qE '^7[0-9]{4}$'"
check "exec: the last image's profile holds its 40000 B" grep -qE '^mem_heap_B=4[0-9]{4}$' "$d/e.$pids.exec2"
check "exec: the new image's companion says it began by exec of its path" \
  grep -q "^process: pid=$pids parent=[0-9]* start=0 .*began=exec of $P\$" "$d/e.$pids.exec1.memtime"
check "exec: no --memtime-exec-count on the desc: line" \
  sh -c "! grep -q 'memtime-exec-count' '$d/e.$pids.exec1' '$d/e.$pids.exec2'"

# --- execvp: execve fails in three PATH directories before it works; the
#     pre-exec profile ends with exactly one final snapshot (no sampling: a
#     sample that lands between the allocation and the exec on a loaded
#     machine would rightly carry a tree of its own) -----------------------
d=$T/execvp; mkdir -p "$d"
PATH="$T/none1:$T/none2:$T/none3:$(dirname "$P"):$PATH" \
  memtime -q --trace-children=yes --detailed-freq=1000000 --sample-interval=0 --memtime-out-file="$d/v.%p" "$P" execvp >"$T/execvp.txt" 2>&1
pid=$(pid_of "$T/execvp.txt" pre-exec)
is "$(lsp "$d" | tr '\n' ' ')" "v.$pid v.$pid.exec1 " "execvp: the pre-exec profile and the new image's"
is "$(grep -c -E '^heap_tree=(detailed|peak)$' "$d/v.$pid" 2>/dev/null)" 1 \
  "execvp: one final pre-exec snapshot after three failed attempts"

# --- exec without --trace-children: Massif leaves nothing, memtime the
#     pre-exec profile --------------------------------------------------------
d=$T/untraced; mkdir -p "$d"
memtime -q --memtime-out-file="$d/u.%p" "$P" exec 1 >"$T/untraced.txt" 2>&1
pid=$(pid_of "$T/untraced.txt" pre-exec)
is "$(lsp "$d" | tr '\n' ' ')" "u.$pid " "untraced exec: the pre-exec profile, alone"
check "untraced exec: complete" both_readers "$d/u.$pid"
check "untraced exec: its companion ends with 'end: exec'" grep -qx 'end: exec' "$d/u.$pid.memtime"
massif -q --massif-out-file="$d/massif.%p" "$P" exec 1 >/dev/null 2>&1
is "$(lsp "$d" | grep -c massif)" 0 "untraced exec: (Massif leaves no profile at all)"

# --- fork then exec at once -----------------------------------------------
d=$T/fx; mkdir -p "$d"
memtime -q --memtime-out-file="$d/x.%p" "$P" forkexec >"$T/fx.txt" 2>&1
parent=$(pid_of "$T/fx.txt" parent)
is "$(lsp "$d" | tr '\n' ' ')" "x.$parent " "fork+exec, untraced: only the parent's profile"
d=$T/fxt; mkdir -p "$d"
memtime -q --trace-children=yes --memtime-out-file="$d/x.%p" "$P" forkexec >"$T/fxt.txt" 2>&1
parent=$(pid_of "$T/fxt.txt" parent); child=$(pid_of "$T/fxt.txt" post-exec)
is "$(lsp "$d" | tr '\n' ' ')" "x.$parent x.$child.exec1 " \
  "fork+exec, traced: the parent's and the exec'd child image's (.exec1), no copy of the parent"
check "fork+exec, traced: the child image knows its parent and how it began" \
  grep -q "^process: pid=$child parent=$parent start=0 .*began=exec of $P\$" "$d/x.$child.exec1.memtime"

# --- no %p ------------------------------------------------------------------
d=$T/shared; mkdir -p "$d"
memtime --trace-children=yes --memtime-out-file="$d/s.out" "$P" fork >"$T/shared.txt" 2>"$T/shared.err"
child=$(pid_of "$T/shared.txt" child)
check "no %p, --trace-children=yes: warned at start-up" grep -q "warning: memtime: --memtime-out-file=$d/s.out has no %p" "$T/shared.err"
check "no %p: the child warns when it writes its parent's file" \
  grep -q "^==$child== warning: memtime: process $child (forked by [0-9]*) writes its profile to $d/s.out, its parent's file" "$T/shared.err"
check "no %p: the shared file is complete" both_readers "$d/s.out"
memtime --memtime-out-file="$d/s2.out" "$P" fork >/dev/null 2>"$T/shared2.err"
check "no %p, no --trace-children: no start-up warning" sh -c "! grep -q 'memtime-out-file=.* has no %p' '$T/shared2.err'"
check "no %p, no --trace-children: the child's warning" grep -q "its parent's file" "$T/shared2.err"
finish
