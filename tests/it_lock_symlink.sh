#!/bin/bash
# it_lock_symlink.sh - <db>.lock was opened following links, then truncated
# and given the pid: a link planted there (pointing at a file of the user
# running flagscope) had that file overwritten.  Expected: a link there is
# refused (exit 2, the lock named, the file it points at untouched); a lock
# file that belongs to another user is refused too; a plain one works.
set -euo pipefail
. "${FLAGSCOPE_SRC:?}/tests/lib_it.sh" it_lock_symlink
count_failures

tiny_study l.study 1 "ok once the planted lock is gone" O2
echo precious >victim
ln -s "$T/victim" l.db.lock
rc=0
fs run l.study --db l.db -q >l.out 2>l.err || rc=$?
[ $rc -ne 0 ] || fail "a run took a lock file that is a link"
grep -q "l.db.lock: it is a symbolic link, never followed (remove the link)" l.err ||
	fail "the refusal: $(cat l.err)"
[ "$(cat victim)" = precious ] || fail "the file the link points at was overwritten: $(cat victim)"
rm l.db.lock
if [ "$(id -u)" = 0 ] && id nobody >/dev/null 2>&1; then
	: >l.db.lock
	chown nobody l.db.lock
	rc=0
	fs run l.study --db l.db -q >o.out 2>o.err || rc=$?
	[ $rc -ne 0 ] && grep -q "l.db.lock is not a file of yours" o.err ||
		fail "a lock of another user was taken (exit $rc): $(cat o.err)"
	rm l.db.lock
else
	echo "note: a lock of another user not tried (needs root and the user nobody)"
fi
fs run l.study --db l.db -q >p.out 2>p.err || fail "a plain run: $(tail -2 p.err)"
[ "$failures" = 0 ] && ok "the lock file is never a link, nor another user's"
finish_counted
