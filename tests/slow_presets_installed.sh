#!/bin/bash
# slow_presets_installed.sh - the distro presets from an installed copy:
# `cmake --install` into a prefix outside the source and build trees, then
# from an unrelated folder (FLAGSCOPE_HOME and FLAGSCOPE_PATH unset, an
# empty XDG_DATA_HOME) `flagscope run distro-levels --dry-run` and
# `flagscope run lto --dry-run`.  Expected: both exit 0 with every
# workload's build planned (6 x 9 and 3 x 9 builds, would build or
# cached), nothing on stderr but the sources fetched, and (strace) no file
# of the source or build tree read: the installed recipes, presets and
# shared generators (relative symlinks such as flac/genwav.c ->
# ../lame/genwav.c) are all there.
# The Debian sources go to the user's cache, as slow_webservice's: about
# 35 s a preset under strace once they are there (75 s in all); fetching
# the nine sources into an empty cache adds about 100 s.  SKIP when a
# source cannot be fetched or strace is missing.
set -uo pipefail
: "${FLAGSCOPE_BIN:?}" "${FLAGSCOPE_SRC:?}"
command -v strace >/dev/null || { echo "SKIP: no strace (scripts/packages.txt)"; exit 77; }
T=$(mktemp -d /tmp/flagscope-slow_presets.XXXXXX)
trap 'rm -rf "$T"' EXIT
fail() { trap - EXIT; echo "FAIL: $* (left in $T)" >&2; exit 1; }
build=$(cd "$(dirname "$FLAGSCOPE_BIN")" && pwd)
src=$(cd "$FLAGSCOPE_SRC" && pwd)
cmake --install "$build" --prefix "$T/prefix" >/dev/null || fail "cmake --install"
mkdir -p "$T/elsewhere" "$T/data"
cd "$T/elsewhere" || exit 1
unset FLAGSCOPE_HOME FLAGSCOPE_PATH FLAGSCOPE_CACHE
export XDG_DATA_HOME=$T/data

for preset in distro-levels:6 lto:3; do
	name=${preset%%:*} nconfigs=${preset#*:}
	# LeakSanitizer cannot work under ptrace (the CI's ASan build): off here
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
		strace -f -e trace=open,openat,stat,newfstatat,access,execve,readlink -o "$name.trace" \
		"$T/prefix/bin/flagscope" run "$name" --dry-run >"$name.out" 2>"$name.err"
	rc=$?
	# a fetch that fails is this machine's, not the preset's
	if grep -q "^flagscope: source .* failed" "$name.err"; then
		echo "SKIP: a Debian source cannot be fetched: $(grep -m1 'failed' "$name.err")"
		exit 77
	fi
	[ $rc = 0 ] || fail "$name --dry-run exits $rc: $(tail -3 "$name.err")"
	grep -q "^study $name: $nconfigs configurations (0 excluded) x 9 workloads" "$name.out" ||
		fail "$name: $(head -1 "$name.out")"
	want=$((nconfigs * 9))
	read -r cached would < <(sed -n 's/^\([0-9]*\) builds cached, \([0-9]*\) would be built$/\1 \2/p' "$name.out")
	[ $((${cached:-0} + ${would:-0})) = "$want" ] ||
		fail "$name: ${cached:-?} cached + ${would:-?} to build, want $want: $(tail -2 "$name.out")"
	grep -v "^flagscope: source " "$name.err" >"$name.other"
	[ ! -s "$name.other" ] || fail "$name said more than its sources: $(head -3 "$name.other")"
	grep -v ENOENT "$name.trace" | grep -F -e "\"$src/" -e "\"$build/" >"$name.tree"
	[ ! -s "$name.tree" ] || fail "$name read the source or build tree: $(head -3 "$name.tree")"
	echo "ok: $name from the installed copy: $cached cached, $would would be built"
done
echo PASS
