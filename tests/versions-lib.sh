# The tests that depend on which Valgrind memtime is built against, and how
# to run them on another release: used by tests/t99x-valgrind-*.sh (the
# releases Debian ships, unpacked from its packages) and by
# scripts/test-valgrind-versions.sh (any Valgrind a maintainer installed).
#
# Version-sensitive: what goes through the core's malloc replacement, its
# preload, its unwinder, its scheduler and its client requests, checked
# against that release's own Massif where Massif is the oracle.
VERSION_TESTS="t100-heap-massif t101-options t102-tree-options t104-special-outputs
  t400-jemalloc-rjem t401-jemalloc-static t402-jemalloc-shared t403-rust-jemalloc
  t405-mimalloc-tcmalloc t500-stacks-recursion t501-stacks-threads t520-pages-as-heap
  t555-monitor t560-children t571-kill-compute t588-massif-startup t590-heap-limit
  t630-hostile-alloc t640-stack-cache t650-server-memcached"

# vt_build PREFIX BUILDDIR LOG: configures and builds memtime (the tool only;
# the visualizer does not depend on Valgrind) against the Valgrind installed
# under PREFIX, warnings as errors. Prints the release's version.
vt_build() {
  local prefix=$1 dir=$2 log=$3 ver
  ver=$("$prefix/bin/valgrind" --tool=none --version | sed 's/^valgrind-//')
  mkdir -p "$dir"
  ( cd "$dir" && "$MT_SRC/configure" --enable-werror --with-valgrind="$prefix" && make -C memtime -j2 ) \
    >"$log" 2>&1 || return 1
  echo "$ver"
}

# vt_run PREFIX BUILDDIR LABEL: runs every version-sensitive test against
# that build, one TAP line per test script (its failures shown as
# diagnostics). The visualizer and the compiled test programs are the main
# build's ($MT_BUILD): neither depends on the release.
vt_run() {
  local prefix=$1 dir=$2 label=$3 t out rc n bad
  for t in $VERSION_TESTS; do
    out=$(MT_BUILD="$dir" MT_VIS="$MT_VIS" MT_PROGS="$MT_PROGS" MT_VALGRIND="$prefix/bin/valgrind" \
          bash "$MT_SRC/tests/$t.sh" 2>&1); rc=$?
    n=$(printf '%s\n' "$out" | grep -cE '^(not )?ok ')
    bad=$(printf '%s\n' "$out" | grep -E '^not ok ' || true)
    if [ $rc -eq 0 ] && printf '%s\n' "$out" | grep -q '^1\.\.0 # SKIP'; then
      # The test lacks what it needs here (lib.sh's need): a skip, as it is alone.
      skip "$label: $t: $(printf '%s\n' "$out" | sed -n 's/^1\.\.0 # SKIP //p')"
    elif [ $rc -eq 0 ] && [ -z "$bad" ] && [ "$n" -gt 0 ]; then
      ok "$label: $t ($n tests)"
    else
      not_ok "$label: $t (exit $rc, $n tests)"
      printf '%s\n' "$out" | grep -E -A6 '^not ok |^1\.\.0' | head -60 | diag "$(cat)"
    fi
  done
}

# vt_no_warnings LOG: the build log has no compiler warning.
vt_no_warnings() { ! grep -qE '(^|[^[:alnum:]])(warning|error):' "$1"; }

# vt_prefix PREFIX DIR: the TAP lines for the Valgrind installed under
# PREFIX (plan: 2 + the number of VERSION_TESTS): memtime built against it
# in DIR with no warning, then every version-sensitive test on it.
vt_prefix() {
  local prefix=$1 dir=$2 ver
  if ver=$(vt_build "$prefix" "$dir" "$T/build.log"); then
    ok "memtime builds against Valgrind $ver ($prefix)"
  else
    not_ok "memtime builds against $prefix"; diag "$(tail -30 "$T/build.log")"; return 1
  fi
  check "no compiler warning against Valgrind $ver" vt_no_warnings "$T/build.log"
  vt_run "$prefix" "$dir" "Valgrind $ver"
}

# vt_debian_suite SUITE: the whole of tests/t99x-valgrind-SUITE.sh: Valgrind
# from Debian SUITE (scripts/valgrind-cache.sh: its package, unpacked once
# into the cache, or its source package built), then vt_prefix.
vt_debian_suite() {
  local suite=$1 prefix
  set -- $VERSION_TESTS
  plan $(($# + 2))
  prefix=$("$MT_SRC/scripts/valgrind-cache.sh" "$suite" 2>"$T/cache.log")
  case $? in
    0) ;;
    # Debian's archive could not be reached (no network, as in a package
    # build's sandbox): a missing dependency, skipped (a failure under CI).
    75) plan_skip "Debian $suite's Valgrind cannot be downloaded: $(tail -1 "$T/cache.log")" ;;
    *) not_ok "Valgrind from Debian $suite"; diag "$(tail -20 "$T/cache.log")"; return 1 ;;
  esac
  vt_prefix "$prefix" "$MT_BUILD/../vg-$suite"
}
