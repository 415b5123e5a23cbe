#!/bin/bash
# it_fetch_debian.sh - the debian: fetcher against the real archive, on the
# small gzip source package.  Expected: `debian:gzip` is exactly the upstream
# .orig tarball's tree (no debian/ folder, no patch applied), rooted at the
# tree's top; a second fetch reuses the cache with no network at all; with
# `patched` it is another id and Debian's tree with every patch applied; an
# unknown version fails with a one-line reason and leaves nothing behind; a
# pinned version beside a newer one is fetched as pinned (brotli); a
# version whose files the archive does not serve says which file failed.
# SKIP when deb-src entries are missing (scripts/deb-src.sh) or the archive
# cannot be reached.
set -euo pipefail
. "$FLAGSCOPE_SRC/tests/lib_it.sh"

drv=$(dirname "$FLAGSCOPE_BIN")/tests/test_fetch
tmp=$FLAGSCOPE_TEST_TMP/it_fetch_debian
rm -rf "$tmp"
mkdir -p "$tmp/apt"
export FLAGSCOPE_CACHE=$tmp/cache
fail=0
check() { # message command...
	local msg=$1
	shift
	if "$@"; then echo "ok: $msg"; else echo "FAIL: $msg"; fail=1; fi
}

if ! (cd "$tmp/apt" && out_has "^'.*\.dsc'" apt-get source --print-uris gzip 2>/dev/null); then
	echo "SKIP: apt-get source knows no gzip source package (no deb-src entries: run scripts/deb-src.sh)"
	exit 77
fi

if ! out=$("$drv" fetch debian:gzip 2>&1); then
	if grep -qiE "failed to fetch|could not resolve|temporary failure|unable to connect" <<<"$out"; then
		echo "SKIP: the Debian archive cannot be reached: $out"
		exit 77
	fi
	echo "FAIL: debian:gzip: $out"
	exit 1
fi
dir=$(sed -n 1p <<<"$out")
id=$(sed -n 2p <<<"$out")
check "source folder is <cache>/sources/<id>" test "$dir" = "$FLAGSCOPE_CACHE/sources/$id"
check "id is a sha256" grep -qE '^[0-9a-f]{64}$' <<<"$id"
check "tree root has configure and gzip.c" test -x "$dir/configure" -a -f "$dir/gzip.c"
check "no debian/ folder in the upstream tree" test ! -e "$dir/debian"
check "no staging folder left" test -z "$(find "$FLAGSCOPE_CACHE/sources" -maxdepth 1 -name '.tmp-*')"

# the same files as the .orig tarball, fetched here independently
(cd "$tmp/apt" && apt-get source --download-only -q gzip >/dev/null 2>&1)
mkdir "$tmp/orig"
tar -xf "$(ls "$tmp"/apt/gzip_*.orig.tar.* | grep -v '\.asc$')" -C "$tmp/orig"
check "tree equals the upstream tarball" diff -r "$tmp"/orig/* "$dir"

# cached: works with no network at all (a fresh network namespace), same id
if unshare -n true 2>/dev/null; then
	out2=$(unshare -n "$drv" fetch debian:gzip 2>&1) || out2="failed: $out2"
	check "second fetch offline from the cache" test "$out2" = "$out"
else
	out2=$("$drv" fetch debian:gzip 2>&1) || out2="failed: $out2"
	check "second fetch from the cache" test "$out2" = "$out"
fi

# patched: another id, Debian's tree with its patches applied
outp=$("$drv" fetch "debian:gzip patched" 2>&1) || { echo "FAIL: patched: $outp"; exit 1; }
pdir=$(sed -n 1p <<<"$outp")
pid=$(sed -n 2p <<<"$outp")
check "patched has its own id" test "$pid" != "$id"
check "patched tree has debian/" test -f "$pdir/debian/changelog"
check "every patch in the series is applied" \
	diff <(grep -v '^#' "$pdir/debian/patches/series" | sed '/^$/d') "$pdir/.pc/applied-patches"

# an unknown version: an error naming it, nothing cached
before=$(ls -A "$FLAGSCOPE_CACHE/sources" | sort)
if err=$("$drv" fetch debian:gzip=0.0.0-0 2>&1); then
	check "unknown version rejected" false
else
	check "unknown version: one-line reason" test "$(wc -l <<<"$err")" = 1
	check "unknown version: names the package" grep -q "gzip=0.0.0-0" <<<"$err"
fi
check "unknown version: cache unchanged" test "$(ls -A "$FLAGSCOPE_CACHE/sources" | sort)" = "$before"

# a pinned version apt lists beside a newer one is the one fetched: apt-get
# source NAME=VERSION alone goes through the binary package NAME and took
# the newer source here (brotli=1.0.9-2 listed 1.0.9-2+deb12u1's files),
# so debian:brotli=1.0.9-2 built another version, or failed on its files
versions=$(apt-cache showsrc --only-source brotli 2>/dev/null | sed -n 's/^Version: //p')
if ! grep -qx 1.0.9-2 <<<"$versions" || [ "$(wc -l <<<"$versions")" -lt 2 ]; then
	echo "SKIP: a pin beside a newer version: apt lists no brotli 1.0.9-2 beside another ($versions)"
elif outb=$("$drv" fetch "debian:brotli=1.0.9-2 patched" 2>&1); then
	bdir=$(sed -n 1p <<<"$outb")
	check "debian:brotli=1.0.9-2 is 1.0.9-2: $(head -1 "$bdir/debian/changelog")" \
		grep -q '^brotli (1.0.9-2) ' "$bdir/debian/changelog"
elif grep -q "Failed to fetch .*brotli_1.0.9-2.dsc" <<<"$outb"; then
	echo "SKIP: the archive cannot be reached: $outb"
else
	check "debian:brotli=1.0.9-2 fetched: $outb" false
fi

# a version apt lists whose files the archive does not serve (brotli's
# security update 404s on this mirror): the reason is the file that
# failed, not apt's last line "Failed to fetch some archives.", and the
# versions apt lists are named
if grep -qx 1.0.9-2+deb12u1 <<<"$versions" && ! outs=$("$drv" fetch debian:brotli=1.0.9-2+deb12u1 2>&1); then
	check "an unserved version: one line" test "$(wc -l <<<"$outs")" = 1
	check "an unserved version names the file, not its URL: $outs" grep -q "cannot download brotli 1.0.9-2+deb12u1: Failed to fetch brotli_1.0.9-2+deb12u1.dsc 404" <<<"$outs"
	check "an unserved version names no host: $outs" eval '! grep -q "://" <<<"$outs"'
	check "an unserved version names apt's versions: $outs" grep -q "apt lists brotli 1.0.9-2+deb12u1, 1.0.9-2\|apt lists brotli 1.0.9-2, 1.0.9-2+deb12u1" <<<"$outs"
else
	echo "SKIP: an unserved version's reason: apt lists no brotli 1.0.9-2+deb12u1, or the archive serves it"
fi

[ $fail = 0 ] && rm -rf "$tmp"
exit $fail
