#!/usr/bin/env bash
# The README's Quick start is exactly two one-line commands, and CI runs the second.
. "$(dirname "$0")/lib.sh"
plan 3
qs=$(awk '/^## Quick start/{f=1;next} f&&/^```/{if(inb)exit; inb=1; next} f&&inb&&NF{print}' "$MT_SRC/README.md")
is "$(printf '%s\n' "$qs" | grep -c .)" 2 "Quick start holds two commands"
check "no prompts or continuations" bash -c '! printf "%s\n" "$1" | grep -qE "^\\$|\\\\$"' _ "$qs"
t=$(printf '%s\n' "$qs" | sed -n 2p)
check ".ci/run calls the test command" grep -qF -- "$t" "$MT_SRC/.ci/run"
finish
