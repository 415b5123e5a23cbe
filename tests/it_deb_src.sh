#!/bin/bash
# it_deb_src.sh - scripts/deb-src.sh on fixture apt folders (APT_DIR, no
# apt-get update).  Expected: every deb entry of debian.sources (deb822) and
# of sources.list (one-line) gets a deb-src twin with the same URIs, suites,
# components and Signed-By; entries that already have deb-src get none; a
# second run writes the same files; a folder with no Debian entries is an
# error.  Runs anywhere: it never touches /etc/apt.
set -u
src=${FLAGSCOPE_SRC:?}
tmp=${FLAGSCOPE_TEST_TMP:?}/it_deb_src
rm -rf "$tmp"
mkdir -p "$tmp/apt/sources.list.d"
export APT_DIR=$tmp/apt DEB_SRC_NO_UPDATE=1
fail=0
check() { # message command...
	local msg=$1
	shift
	if "$@"; then echo "ok: $msg"; else echo "FAIL: $msg"; fail=1; fi
}

cat >"$tmp/apt/sources.list.d/debian.sources" <<'EOF'
Types: deb
# a comment inside a stanza
URIs: http://deb.debian.org/debian
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb deb-src
URIs: http://deb.debian.org/debian-security
Suites: bookworm-security
Components: main
EOF
cat >"$tmp/apt/sources.list" <<'EOF'
# one-line entries
deb http://deb.debian.org/debian bookworm main contrib
deb [signed-by=/k.gpg] http://deb.debian.org/debian bookworm-backports main
deb-src [signed-by=/k.gpg] http://deb.debian.org/debian bookworm-backports main
EOF

check "first run succeeds" bash "$src/scripts/deb-src.sh"
out822=$tmp/apt/sources.list.d/flagscope-deb-src.sources
outlist=$tmp/apt/sources.list.d/flagscope-deb-src.list
check "deb822: one stanza, Types: deb-src" test "$(grep -c '^Types: deb-src$' "$out822")" = 1
check "deb822: same URIs, suites, components, key" \
	grep -qzF $'URIs: http://deb.debian.org/debian\nSuites: bookworm bookworm-updates\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg' "$out822"
check "deb822: the entry that has deb-src is not repeated" bash -c "! grep -q debian-security '$out822'"
check "one-line: the deb line gets a deb-src twin" \
	grep -qxF 'deb-src http://deb.debian.org/debian bookworm main contrib' "$outlist"
check "one-line: the existing deb-src is not repeated" bash -c "! grep -q backports '$outlist'"
cp "$out822" "$tmp/first.sources"
cp "$outlist" "$tmp/first.list"
second=$(bash "$src/scripts/deb-src.sh")
check "second run succeeds" test $? = 0
check "second run leaves the files alone (no apt-get update needed)" test -z "$second"
check "idempotent (deb822)" cmp -s "$out822" "$tmp/first.sources"
check "idempotent (one-line)" cmp -s "$outlist" "$tmp/first.list"
check "the machine's own lists are not edited" grep -qx 'Types: deb' "$tmp/apt/sources.list.d/debian.sources"

rm -rf "$tmp/empty" && mkdir -p "$tmp/empty/sources.list.d"
check "no Debian entries: an error" bash -c "! APT_DIR='$tmp/empty' bash '$src/scripts/deb-src.sh' 2>/dev/null"

[ $fail = 0 ] && rm -rf "$tmp"
exit $fail
