#!/usr/bin/env bash
# Builds the Debian binary package of memtime from a release tarball (make
# dist's memtime-VERSION.tar.gz) with Debian's own tools: the tarball is
# unpacked into OUTDIR, its packaging/debian/ copied in as debian/, and
# dpkg-buildpackage (debhelper) builds memtime_VERSION-REV_amd64.deb there.
#   scripts/build-deb.sh TARBALL [OUTDIR]     (OUTDIR: the current directory)
# Prints the .deb's path on the last line. The release check after it:
#   lintian memtime_*.deb; dpkg -i memtime_*.deb   (docs/building.md: "Releases and the Debian package")
# The Debian files live in the tarball, not only in the clone, so that the
# package is always built from the files of the release it packages.
set -eu
usage() { echo "usage: $0 TARBALL [OUTDIR]" >&2; exit 2; }
[ $# -ge 1 ] && [ $# -le 2 ] || usage
tarball=$1
outdir=${2:-.}
[ -f "$tarball" ] || { echo "$0: no tarball $tarball" >&2; exit 1; }
for tool in dpkg-buildpackage dh dpkg-checkbuilddeps; do
  command -v "$tool" >/dev/null || {
    echo "$0: $tool is missing: apt-get install dpkg-dev debhelper (scripts/deps.sh --test installs them)" >&2
    exit 1; }
done
mkdir -p "$outdir"
outdir=$(cd "$outdir" && pwd)
tarball=$(cd "$(dirname "$tarball")" && pwd)/$(basename "$tarball")

# The tarball holds one directory, memtime-VERSION.
top=$(tar -tzf "$tarball" | head -n 1 | cut -d/ -f1)
case $top in
  memtime-[0-9]*) ;;
  *) echo "$0: $tarball: expected a top directory memtime-VERSION, found '$top'" >&2; exit 1 ;;
esac
version=${top#memtime-}
src=$outdir/$top
rm -rf "$src"
tar -xzf "$tarball" -C "$outdir"
[ -d "$src/packaging/debian" ] || {
  echo "$0: $tarball: expected packaging/debian/ in it, found none (a tarball older than the packaging?)" >&2; exit 1; }
cp -R "$src/packaging/debian" "$src/debian"

# The changelog names the release it packages: a tarball of another version
# needs its own entry (dch -v VERSION-1) before it is packaged.
deb_version=$(cd "$src" && dpkg-parsechangelog -S Version)
[ "${deb_version%-*}" = "$version" ] || {
  echo "$0: packaging/debian/changelog: expected an entry for $version, found $deb_version (add one: dch -v $version-1)" >&2
  exit 1; }

# -b: binary only (the tarball is the source release); unsigned; the build
# log next to the package. DEB_BUILD_OPTIONS passes through (parallel=N,
# nocheck).
log=$outdir/memtime_${deb_version}_build.log
if ! (cd "$src" && dpkg-buildpackage -b -us -uc) >"$log" 2>&1; then
  echo "$0: dpkg-buildpackage failed; the end of $log:" >&2
  tail -n 30 "$log" >&2
  exit 1
fi
deb=$outdir/memtime_${deb_version}_$(dpkg-architecture -qDEB_HOST_ARCH).deb
[ -f "$deb" ] || { echo "$0: dpkg-buildpackage wrote no $deb (see $log)" >&2; exit 1; }
echo "$deb"
