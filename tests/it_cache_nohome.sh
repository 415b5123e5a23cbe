#!/bin/bash
# it_cache_nohome.sh - the build cache is trusted: its status files say a
# build is done and its binaries are run as found.
#  1. with HOME unset the cache fell back to /tmp/.cache/flagscope, a
#     folder any user can make first: a binary planted there ran as the
#     user running flagscope.  Expected: without a home (the user nobody,
#     whose home /nonexistent does not exist), the cache is a folder of
#     /tmp private to the user (0700, its own), and the planted binary
#     never runs.
#  2. a cached build's binary changed after the build (planted, damaged)
#     was run.  Expected: a cached build is used only while its binaries
#     hash to what its status recorded; else it is built again.
#  3. FLAGSCOPE_CACHE naming a folder of another user, or one anyone can
#     write, is refused with the reason.
set -euo pipefail
. "${FLAGSCOPE_SRC:?}/tests/lib_it.sh" it_cache_nohome
count_failures

tiny_study c.study 1 "ok; no planted binary runs" O2
# plant DIR: DIR/out/tiny becomes a program built as the configuration
# builds (so verify finds nothing wrong) that leaves $T/planted.ran
printf '#include <stdio.h>\nint main(void) { fclose(fopen("%s/planted.ran", "w")); puts("sum 0"); return 0; }\n' \
	"$T" >planted.c
gcc -O2 -g -frecord-gcc-switches -o planted planted.c
plant() {
	rm -f "$1/out/tiny"
	cp planted "$1/out/tiny"
	chmod 755 "$1/out/tiny"
}

# 1
if [ "$(id -u)" = 0 ] && id nobody >/dev/null 2>&1 && command -v setpriv >/dev/null; then
	nobody=$(id -u nobody)
	mkdir -p n && cp c.study n/ && chown -R nobody "$T/n" && chmod 755 "$T"
	private=/tmp/flagscope-cache-$nobody
	had_private=$([ -e "$private" ] && echo yes || true)
	had_dotcache=$([ -e /tmp/.cache ] && echo yes || true)
	as_nobody() {
		(cd n && setpriv --reuid="$nobody" --regid="$(id -g nobody)" --clear-groups \
			env -u HOME -u XDG_CACHE_HOME -u FLAGSCOPE_CACHE "$FLAGSCOPE_BIN" "$@")
	}
	as_nobody run c.study --db a.db -q >n/a.out 2>n/a.err || fail "run as nobody: $(tail -2 n/a.err)"
	key=$(sql n/a.db "select key from builds")
	[ -n "$key" ] || fail "no build key stored"
	if [ -n "$key" ]; then
		shared=/tmp/.cache/flagscope/builds/$key
		mkdir -p "$shared/out"
		[ -s "$shared/status" ] || echo "ok 1.0" >"$shared/status"
		plant "$shared"
		chmod -R a+rwX /tmp/.cache/flagscope
		as_nobody run c.study --db b.db -q >n/b.out 2>n/b.err || true
		[ ! -e planted.ran ] || fail "a binary planted in /tmp/.cache/flagscope ran (HOME unset)"
		rm -f planted.ran
		perm=$(stat -c '%a %u' "$private" 2>/dev/null || true)
		[ "$perm" = "700 $nobody" ] || fail "the private cache $private: '$perm', not '700 $nobody'"
		rm -rf "$shared"
	fi
	[ -n "$had_dotcache" ] || rm -rf /tmp/.cache
	[ -n "$had_private" ] || rm -rf "$private"
	[ "$failures" = 0 ] && ok "1 - without a home the cache is private to the user, never /tmp/.cache"
else
	echo "note: 1 not tried: needs root, the user nobody and setpriv"
fi

# 2
fs run c.study --db c1.db -q >c1.out 2>c1.err || fail "run: $(tail -2 c1.err)"
key=$(sql c1.db "select key from builds")
plant "$FLAGSCOPE_CACHE/builds/$key"
fs run c.study --db c2.db -q >c2.out 2>c2.err || fail "rerun: $(tail -2 c2.err)"
[ ! -e planted.ran ] || fail "a cached binary changed after its build was run"
cmp -s planted "$FLAGSCOPE_CACHE/builds/$key/out/tiny" && fail "the changed binary was not built again"
[ "$failures" = 0 ] && ok "2 - a cached build whose binary changed is built again, never run"

# 3
mkdir -p open && chmod 777 open
rc=0
FLAGSCOPE_CACHE=$T/open fs run c.study --db o.db -q >o.out 2>o.err || rc=$?
[ $rc -ne 0 ] && grep -q "open: the build cache is writable by others" o.err ||
	fail "a cache anyone can write was used (exit $rc): $(cat o.err)"
if [ "$(id -u)" = 0 ] && id nobody >/dev/null 2>&1; then
	mkdir -p theirs && chown nobody theirs
	rc=0
	FLAGSCOPE_CACHE=$T/theirs fs run c.study --db t.db -q >t.out 2>t.err || rc=$?
	[ $rc -ne 0 ] && grep -q "theirs: the build cache belongs to another user" t.err ||
		fail "another user's cache was used (exit $rc): $(cat t.err)"
fi
[ "$failures" = 0 ] && ok "3 - a cache of another user, or open to all, is refused"
finish_counted
