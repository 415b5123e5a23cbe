#!/bin/bash
# configure-cache.sh - how much of a gzip build is ./configure, and what an
# autoconf cache file shared between configurations saves.
#
# The matrix: gcc with -O1, -O2, -O3, -Os - the same toolchain, libc,
# linkage and target flags, only the optimisation level differs.  Built one
# after another (make -j$JOBS), twice:
#   uncached  each configuration runs the whole configure
#   cached    the first runs configure with --cache-file; each later one
#             gets a copy of that file without its ac_cv_env_* lines (the
#             "precious" CFLAGS/LDFLAGS... that configure would otherwise
#             refuse to see changed) and skips every check already answered
# Validity, printed: each configuration's config.h is the same cached and
# uncached (and whether it is the same across -O levels), and each gzip
# binary is byte-identical cached and uncached.  A difference makes the
# script exit 1: the cache must not change results.
#
# Usage: bench/configure-cache.sh [SRC]
#   SRC  an unpacked gzip source tree; default: fetched with the debian:
#        fetcher through $FLAGSCOPE_BUILD/tests/test_fetch (default build
#        folder: <repo>/build), into $FLAGSCOPE_CACHE or the user's cache.
# Env: JOBS (default: the number of CPUs), CC (default gcc), KEEP=1 keeps the
# scratch folder.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
jobs=${JOBS:-$(nproc)}
cc=${CC:-gcc}
levels="-O1 -O2 -O3 -Os"

src=${1:-}
if [ -z "$src" ]; then
	drv=${FLAGSCOPE_BUILD:-$root/build}/tests/test_fetch
	if [ ! -x "$drv" ]; then
		echo "configure-cache.sh: no $drv (build the project, set FLAGSCOPE_BUILD, or pass SRC)" >&2
		exit 2
	fi
	src=$("$drv" fetch debian:gzip | sed -n 1p)
fi
[ -x "$src/configure" ] || { echo "configure-cache.sh: $src has no configure" >&2; exit 2; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/configure-cache.XXXXXX")
[ -n "${KEEP:-}" ] || trap 'rm -rf "$tmp"' EXIT

now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }

# build MODE LEVEL [CACHEFILE]: configure and make in $tmp/MODE/LEVEL;
# prints "configure_seconds make_seconds"
build() {
	local dir=$tmp/$1/$2 cache=${3:-}
	mkdir -p "$dir"
	cd "$dir"
	local t0 t1 t2
	t0=$(now)
	"$src/configure" CC="$cc" CFLAGS="$2" ${cache:+--cache-file="$cache"} >configure.log 2>&1
	t1=$(now)
	make -j"$jobs" >make.log 2>&1
	t2=$(now)
	cd - >/dev/null
	echo "$(secs "$t0" "$t1") $(secs "$t1" "$t2")"
}

echo "gzip source: $src"
echo "matrix: $cc $levels, make -j$jobs, built one after another"
echo

# uncached and cached builds of a level alternate, so the machine's drift
# (it is shared) lands on both alike
declare -A conf make
seed=$tmp/seed.cache
for lv in $levels; do
	read -r c m < <(build uncached "$lv")
	conf[u$lv]=$c make[u$lv]=$m
	if [ -f "$seed" ]; then
		cp "$seed" "$tmp/cached/config.cache.$lv"
		read -r c m < <(build cached "$lv" "$tmp/cached/config.cache.$lv")
	else
		read -r c m < <(build cached "$lv" "$tmp/cached/config.cache.$lv")
		grep -v '^ac_cv_env_' "$tmp/cached/config.cache.$lv" >"$seed"
	fi
	conf[c$lv]=$c make[c$lv]=$m
done

# the header configure wrote (gzip: lib/config.h), from config.status
hdr=$(sed -n 's/^config_headers=" *\([^": ]*\).*/\1/p' "$tmp/uncached/-O2/config.status")
hdr=${hdr:-config.h}
bad=0
printf '%-5s %12s %8s %10s %8s  %-22s %s\n' level "configure s" "make s" "cached: cfg" "make s" "$hdr cached=uncached" "gzip binary"
sum() { awk '{ s += $1 } END { printf "%.1f", s }'; }
for lv in $levels; do
	if cmp -s "$tmp/uncached/$lv/$hdr" "$tmp/cached/$lv/$hdr"; then h=identical; else h=DIFFERENT; bad=1; fi
	if cmp -s "$tmp/uncached/$lv/gzip" "$tmp/cached/$lv/gzip"; then b=identical; else b=DIFFERENT; bad=1; fi
	printf '%-5s %12s %8s %10s %8s  %-24s %s\n' "$lv" "${conf[u$lv]}" "${make[u$lv]}" \
		"${conf[c$lv]}" "${make[c$lv]}" "$h" "$b"
done

across=identical
for lv in $levels; do
	cmp -s "$tmp/uncached/-O2/$hdr" "$tmp/uncached/$lv/$hdr" || across=DIFFERENT
done
echo "$hdr across -O levels (uncached): $across"
if [ $across != identical ]; then
	for lv in $levels; do
		diff "$tmp/uncached/-O2/$hdr" "$tmp/uncached/$lv/$hdr" | sed "s/^/  $lv: /" | head -10 || true
	done
fi

unc_conf=$(for lv in $levels; do echo "${conf[u$lv]}"; done | sum)
unc_make=$(for lv in $levels; do echo "${make[u$lv]}"; done | sum)
c_conf=$(for lv in $levels; do echo "${conf[c$lv]}"; done | sum)
c_make=$(for lv in $levels; do echo "${make[c$lv]}"; done | sum)
unc=$(awk -v a="$unc_conf" -v b="$unc_make" 'BEGIN { printf "%.1f", a + b }')
cac=$(awk -v a="$c_conf" -v b="$c_make" 'BEGIN { printf "%.1f", a + b }')
echo
echo "configure : make (uncached, whole matrix) = $unc_conf s : $unc_make s = $(awk -v a="$unc_conf" -v b="$unc_make" 'BEGIN { printf "%.1f", a / b }') : 1"
echo "configure alone, uncached vs cached       = $unc_conf s vs $c_conf s = $(awk -v a="$unc_conf" -v b="$c_conf" 'BEGIN { printf "%.2f", a / b }')x"
echo "matrix build time, uncached vs cached     = $unc s vs $cac s = $(awk -v a="$unc" -v b="$cac" 'BEGIN { printf "%.2f", a / b }')x"
if [ $bad != 0 ]; then
	echo "configure-cache.sh: the shared cache changed config.h or a binary: not valid for this matrix"
	exit 1
fi
