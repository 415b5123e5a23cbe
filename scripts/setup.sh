#!/bin/bash
# setup.sh - everything flagscope needs on a fresh Debian 12 machine:
# the Debian packages of scripts/packages.txt, deb-src entries for
# `apt-get source`, and a build in build/ (or $1).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$here/build}
shift || true

sudo=
[ "$(id -u)" -eq 0 ] || sudo=sudo
packages=$(sed -e 's/#.*//' "$here/scripts/packages.txt" | tr -s ' \n' ' ')
missing=
for p in $packages; do
	[ "$(dpkg-query -W -f='${db:Status-Abbrev}' "$p" 2>/dev/null)" = "ii " ] || missing="$missing $p"
done
if [ -n "$missing" ]; then
	echo "flagscope: installing Debian packages:" $missing >&2
	$sudo apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq $missing >&2
fi
if [ -f "$here/scripts/deb-src.sh" ]; then
	$sudo bash "$here/scripts/deb-src.sh" >&2
fi
cmake -S "$here" -B "$build" -G Ninja "$@" >&2
cmake --build "$build" >&2
