#!/bin/bash
# it_dry_run_sysroot.sh - `run --dry-run` builds nothing, also for a cross
# configuration whose musl sysroot is not built yet (it used to build it:
# musl and compiler-rt, minutes).  The sources are fetched (they name the
# sysroot); the caches's sysroots/src is shared with the user's cache so
# they are fetched once.
# Expect: exit 0, no sysroot folder made, the config shown with the
# sysroot it will build, and its id the hash of what it will build with
# (cc = the sysroot's folder name, -static, link static, libc, target):
# the id a run with that sysroot built has.
set -euo pipefail
. "$FLAGSCOPE_SRC/tests/lib_it.sh" it_dry_run_sysroot
T3=aarch64-linux-gnu
command -v $T3-gcc >/dev/null || { echo "SKIP: $T3-gcc not installed (scripts/packages.txt)"; exit 77; }
out_has "\.dsc" apt-get source --print-uris musl 2>/dev/null ||
	{ echo "SKIP: apt-get source musl does not work here (run scripts/deb-src.sh)"; exit 77; }
user_cache=${XDG_CACHE_HOME:-$HOME/.cache}/flagscope
mkdir -p "$user_cache/sysroots/src" cache/sysroots
ln -s "$user_cache/sysroots/src" cache/sysroots/src

cat > arm.study <<'S'
; expect: one configuration, O2 for aarch64 with musl (a sysroot to build)
[study]
name = arm
workloads = tiny
repeat = 1
baseline = O2 arm musl
[axis opt]
O2 = -O2
[axis target]
arm = aarch64-linux-gnu
[axis libc]
musl = musl
S
fs run arm.study --dry-run > dry.out 2> dry.err || fail "dry run: $(cat dry.err dry.out)"
made=$(find cache/sysroots -mindepth 1 -maxdepth 1 ! -name src | head -1)
[ -z "$made" ] || fail "the dry run made $made"
grep -q "^  sysroot: $FLAGSCOPE_CACHE/sysroots/[0-9a-f]\{16\}, not built yet" dry.out ||
	fail "no pending sysroot shown: $(cat dry.out)"
grep -q "would build$" dry.out || fail "no build shown: $(cat dry.out)"
key=$(sed -n 's|^  sysroot: .*/sysroots/\([0-9a-f]*\),.*|\1|p' dry.out)
id=$(sed -n 's/^config \([0-9a-f]*\) .*/\1/p' dry.out)
want=$(printf 'cc=sysroot:%s\ncflags=-O2\nldflags=-static\nlink=static\nlibc=musl\ntarget=%s\ncpu=\n' \
	"$key" $T3 | sha256sum | cut -c1-16)
[ "$id" = "$want" ] || fail "id $id, not the hash of what it builds with ($want)"
echo "ok 1 - a dry run builds no sysroot; the id is the hash of what it will build with"

# the same study where that sysroot is built: the same id, now with its compiler
if [ -f "$user_cache/sysroots/$key/sysroot.info" ]; then
	FLAGSCOPE_CACHE=$user_cache fs run arm.study --dry-run > built.out 2>&1 || fail "$(cat built.out)"
	grep -q "^config $id " built.out || fail "built sysroot: another id: $(grep ^config built.out)"
	grep -q "cc: $user_cache/sysroots/$key/bin/cc = " built.out || fail "$(cat built.out)"
	echo "ok 2 - with the sysroot built: the same id"
else
	echo "SKIP 2: the sysroot $key is not built in $user_cache (a run of arm.study builds it)"
fi
rm -rf "$T"
