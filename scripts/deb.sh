#!/bin/bash
# deb.sh [BUILD] - flagscope's own Debian package from this tree:
# builds into BUILD (default build/) and writes flagscope_VERSION_ARCH.deb
# there with cpack (cmake/install.cmake: Depends, Recommends and Suggests
# from the tags in scripts/packages.txt, shared libraries by dpkg-shlibdeps).
# Install it with: apt-get install ./build/flagscope_*.deb
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$here/build}
cmake -S "$here" -B "$build" -G Ninja >&2
cmake --build "$build" >&2
cd "$build"
cpack -G DEB >&2
ls "$build"/flagscope_*.deb
