#!/bin/bash
# it_search_lock_symlink.sh - the search cache's lock <db>.search.lock was
# opened following links (and made where a dangling link pointed), and a
# lock file of another user was taken, where <db>.lock is refused for both
# (it_lock_symlink.sh).  Expected: flagscope search refuses a link there
# (the lock named, nothing made where it points), and a lock of another
# user when root can plant one; a plain one works.
set -euo pipefail
. "${FLAGSCOPE_SRC:?}/tests/lib_it.sh" it_search_lock_symlink
count_failures
cp -r "$FLAGSCOPE_SRC/tests/fixtures/workloads/flagbug" "$T/home/workloads/"
cp "$FLAGSCOPE_SRC"/tests/fixtures/search/unroll-size.study fb.study
cp "$FLAGSCOPE_SRC"/tests/fixtures/search/unroll.space .
search() { fs search fb.study --space unroll.space --strategy ce --budget 2 --metric size \
	--confirm-repeat 2 --db s.db --format json; }

ln -s "$T/made-through-the-link" s.db.search.lock
rc=0
search >l.out 2>l.err || rc=$?
[ $rc -ne 0 ] || fail "a search took a lock file that is a link"
grep -q "s.db.search.lock: it is a symbolic link, never followed (remove the link)" l.err ||
	fail "the refusal: $(cat l.err)"
[ ! -e made-through-the-link ] || fail "the lock was made where the link points"
rm s.db.search.lock
if [ "$(id -u)" = 0 ] && id nobody >/dev/null 2>&1; then
	: >s.db.search.lock
	chown nobody s.db.search.lock
	rc=0
	search >o.out 2>o.err || rc=$?
	[ $rc -ne 0 ] && grep -q "s.db.search.lock is not a file of yours" o.err ||
		fail "a search lock of another user was taken (exit $rc): $(cat o.err)"
	rm s.db.search.lock
else
	echo "note: a lock of another user not tried (needs root and the user nobody)"
fi
search >p.out 2>p.err || fail "a plain search: $(tail -2 p.err)"
[ "$failures" = 0 ] && ok "the search lock is never a link, nor another user's"
finish_counted
