#!/usr/bin/env bash
# t006-deb: the release tarball (make dist of the build tree) carries the
# whole project, and scripts/build-deb.sh turns it into a Debian package
# that holds the tool where this Valgrind's launcher looks, memtime-vis, the
# man pages and memtime.h, depends on exactly this Valgrind, runs, and has
# no lintian error. Installing it (dpkg -i) is the release check, not a test:
# it needs root and changes the machine.
. "$(dirname "$0")/lib.sh"
need dpkg-buildpackage dh lintian

vg=$(dpkg -L valgrind 2>/dev/null | grep -m 1 '/bin/valgrind$')
[ -n "$vg" ] || plan_skip "Debian's valgrind package is not installed (the package builds against it)"
plan 18

# --- The tarball -------------------------------------------------------
version=$(sed -n 's/^PACKAGE_VERSION = //p' "$MT_BUILD/Makefile")
tarball=$T/memtime-$version.tar.gz
if make -s -C "$MT_BUILD" dist-gzip >"$T/dist.log" 2>&1 && mv "$MT_BUILD/memtime-$version.tar.gz" "$tarball"; then
  ok "make dist writes memtime-$version.tar.gz"
else
  not_ok "make dist writes memtime-$version.tar.gz"; tail -20 "$T/dist.log" | diag "$(cat)"
fi
tar -tzf "$tarball" 2>/dev/null | grep -v '/$' | sed "s|^memtime-$version/||" | sort >"$T/tar.list"

# In a git checkout: every tracked file is in the tarball (.gitignore aside,
# git's own), and nothing git ignores is, autotools' generated files aside.
# From a release tarball (make distcheck runs the suite there): every file
# of the hand-written directories it came with is in the tarball it makes.
top=$(git -C "$MT_SRC" rev-parse --show-toplevel 2>/dev/null || true)
if [ -n "$top" ] && [ "$(cd "$top" && pwd -P)" = "$(cd "$MT_SRC" && pwd -P)" ]; then
  git -C "$MT_SRC" ls-files | grep -vx '.gitignore' | sort >"$T/want.list"
  is "$(comm -23 "$T/want.list" "$T/tar.list" | head -5 | tr '\n' ' ')" "" \
    "every file git tracks is in the tarball"
  is "$(comm -13 "$T/want.list" "$T/tar.list" | git -C "$MT_SRC" check-ignore --stdin \
        | grep -Ev '^(configure|aclocal\.m4|build-aux/[^/]*|(.*/)?Makefile\.in)$' | head -5 | tr '\n' ' ')" "" \
    "nothing git ignores is in the tarball but autotools' generated files"
else
  (cd "$MT_SRC" && find README.md COPYING .ci tests scripts bench examples docs packaging m4 -type f \
     ! -name Makefile ! -path 'examples/out/*' ! -path 'tests/fuzz/corpus-work/*') | sort >"$T/want.list"
  is "$(comm -23 "$T/want.list" "$T/tar.list" | head -5 | tr '\n' ' ')" "" \
    "(from a release tarball) every file it came with is in the tarball it makes"
  is "$(grep -cE '^(examples/out|tests/fuzz/corpus-work)/' "$T/tar.list")" 0 \
    "(from a release tarball) no output of the Quick start or the fuzzer in it"
fi

# --- The package -------------------------------------------------------
# It is built against Debian's valgrind package (its Build-Depends), with
# the system's PATH, whatever release MT_VALGRIND puts first on the suite's:
# that package's launcher ($vg) is the one every check below uses.
start=$(date +%s)
deb=$(PATH=/usr/sbin:/usr/bin:/sbin:/bin DEB_BUILD_OPTIONS="parallel=2 ${DEB_BUILD_OPTIONS:-}" \
      "$MT_SRC/scripts/build-deb.sh" "$tarball" "$T/deb" 2>"$T/build-deb.err" | tail -n 1)
if [ -n "$deb" ] && [ -f "$deb" ]; then
  ok "scripts/build-deb.sh builds $(basename "$deb") ($(( $(date +%s) - start )) s)"
else
  not_ok "scripts/build-deb.sh builds the package"; tail -30 "$T/build-deb.err" | diag "$(cat)"
  deb=$T/none.deb
fi

# Where that launcher takes its tools from, asked as configure does.
tooldir=$("$vg" -d --tool=none true 2>&1 | sed -n 's|.*launcher launching \(.*\)/none-[^/]*$|\1|p' | head -n 1)
dpkg-deb --contents "$deb" 2>/dev/null | awk '{print $6}' | sed 's|^\./|/|' >"$T/contents"
has() { grep -qx -- "$1" "$T/contents"; }
check "the tool and its preloads in the launcher's directory ($tooldir)" \
  sh -c "grep -qx '$tooldir/memtime-amd64-linux' '$T/contents' && grep -qx '$tooldir/vgpreload_memtime-amd64-linux.so' '$T/contents' && grep -qx '$tooldir/vgpreload_mtwrap-amd64-linux.so' '$T/contents'"
check "memtime-vis in /usr/bin" has /usr/bin/memtime-vis
check "both man pages" sh -c "grep -qx /usr/share/man/man1/memtime.1.gz '$T/contents' && grep -qx /usr/share/man/man1/memtime-vis.1.gz '$T/contents'"
check "copyright and changelog" sh -c "grep -qx /usr/share/doc/memtime/copyright '$T/contents' && grep -qx /usr/share/doc/memtime/changelog.Debian.gz '$T/contents'"

# The package's files, unpacked (not installed).
mkdir -p "$T/root" && dpkg-deb -x "$deb" "$T/root" 2>/dev/null
is_file "$T/root/usr/include/memtime.h" "$MT_SRC/memtime/memtime.h" "memtime.h in /usr/include, the source's"
check "memtime.h compiles from a system include directory, no -I of ours" \
  sh -c "printf '#include <memtime.h>\nint main(void) { return MEMTIME_SNAPSHOT(); }\n' | cc -std=c99 -Wall -Werror -isystem '$T/root/usr/include' -x c -o '$T/req' -"

is "$(dpkg-deb -f "$deb" Package Architecture 2>/dev/null | tr '\n' ' ')" "Package: memtime Architecture: amd64 " \
  "package memtime, amd64"
vgver=$(dpkg-query -W -f='${Version}' valgrind 2>/dev/null)
up=${vgver#*:}
is "${up%-*}" "$("$vg" --version | sed 's/^valgrind-//')" \
  "the valgrind package ($vgver) is the launcher's release, the one the tool is built against"
check "Depends names this Valgrind exactly: valgrind (= $vgver)" \
  sh -c "dpkg-deb -f '$deb' Depends | tr ',' '\n' | sed 's/^ *//' | grep -qxF 'valgrind (= $vgver)'"

# The packaged tool and memtime-vis run: the tool with this Valgrind's core
# files beside it (as VALGRIND_LIB), the profile read by ms_print and by the
# packaged memtime-vis.
mkdir -p "$T/lib"
for f in "$tooldir"/*; do ln -s "$f" "$T/lib/"; done
ln -sf "$T/root$tooldir/memtime-amd64-linux" "$T/root$tooldir/vgpreload_memtime-amd64-linux.so" \
  "$T/root$tooldir/vgpreload_mtwrap-amd64-linux.so" "$T/lib/"
prog=$(build_prog heap_c.c)
VALGRIND_LIB="$T/lib" "$vg" -q --tool=memtime --memtime-out-file="$T/pkg.out" "$prog" >/dev/null 2>"$T/pkg.err"
check "the packaged tool profiles a program" grep -q '^heap_tree=peak' "$T/pkg.out"
[ -s "$T/pkg.err" ] && head -5 "$T/pkg.err" | diag "$(cat)"
check "ms_print reads the profile" sh -c "ms_print '$T/pkg.out' | grep -q 'Command: '"
VALGRIND_LIB="$T/lib" "$vg" -q --tool=memtime --allocator=program --memtime-out-file="$T/pkgp.out" "$prog" >/dev/null 2>&1
check "the packaged tool runs the program's own allocator (--allocator=program)" \
  sh -c "grep -q '^heap_tree=peak' '$T/pkgp.out' && grep -q '^allocator: name=glibc' '$T/pkgp.out.memtime'"
check "the packaged memtime-vis reads it" sh -c "'$T/root/usr/bin/memtime-vis' '$T/pkg.out' | grep -q 'Command:'"

# --- lintian -------------------------------------------------------------
lintian --tag-display-limit 0 "$deb" >"$T/lintian.txt" 2>&1
is "$(grep -c '^E:' "$T/lintian.txt")" 0 "lintian: no error"
grep -E '^[EW]:' "$T/lintian.txt" | diag "$(cat)"
finish
