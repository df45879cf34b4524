#!/usr/bin/env bash
# For a release: builds memtime against each Valgrind installed under the
# PREFIXes given (a source build's --prefix, or /usr for a distribution's)
# and runs the version-sensitive tests (tests/versions-lib.sh) on each with
# that release's own core, vgdb and Massif, then prints one line per
# release for docs/building.md's table of versions.
#   scripts/test-valgrind-versions.sh PREFIX...
# Needs the main test build first (scripts/check.sh builds it: the
# visualizer and the test programs do not depend on the release).
# Each release's memtime is built in _build/vg-VERSION.
set -u
[ $# -gt 0 ] || { echo "usage: scripts/test-valgrind-versions.sh PREFIX..." >&2; exit 2; }
cd "$(dirname "$0")/.."
export MT_SRC=$PWD MT_BUILD=${MT_BUILD:-$PWD/_build/check}
[ -x "$MT_BUILD/visualizer/memtime-vis" ] || { echo "no test build in $MT_BUILD: run scripts/check.sh first" >&2; exit 2; }
[ -x configure ] || autoreconf -fi
summary=
status=0
for prefix in "$@"; do
  prefix=$(cd "$prefix" && pwd) || { status=1; continue; }
  ver=$("$prefix/bin/valgrind" --tool=none --version 2>/dev/null | sed 's/^valgrind-//')
  [ -n "$ver" ] || { echo "$prefix: no bin/valgrind" >&2; status=1; continue; }
  log=$(mktemp)
  echo "== Valgrind $ver ($prefix)"
  # One TAP stream per release; the summary line counts from it.
  MT_VT_PREFIX=$prefix MT_VT_DIR=$MT_SRC/_build/vg-$ver bash -c '
    . "$MT_SRC/tests/lib.sh"; . "$MT_SRC/tests/versions-lib.sh"
    set -- $VERSION_TESTS; plan $(($# + 2))
    vt_prefix "$MT_VT_PREFIX" "$MT_VT_DIR"
    finish' >"$log.tap" 2>&1
  rc=$?
  cat "$log.tap"
  n=$(grep -cE '^(not )?ok ' "$log.tap"); bad=$(grep -cE '^not ok ' "$log.tap")
  warn=yes; grep -q '^ok 2 ' "$log.tap" && warn=no
  [ $rc -eq 0 ] && [ "$bad" -eq 0 ] || status=1
  inner=$(grep -oE '^ok .*\(([0-9]+) tests\)$' "$log.tap" | sed -E 's/.*\(([0-9]+) tests\)$/\1/' | awk '{s += $1} END {print s + 0}')
  summary="$summary$(printf '%-8s build: %s, warnings: %s, scripts: %d passed, %d failed (%s tests passed)' \
    "$ver" "$(grep -q '^ok 1 ' "$log.tap" && echo ok || echo FAILED)" "$warn" $((n - bad - 2)) "$bad" "${inner:-0}")"$'\n'
  rm -f "$log" "$log.tap"
done
echo
echo "Valgrind versions tested $(date -u +%Y-%m-%d):"
printf '%s' "$summary"
exit $status
