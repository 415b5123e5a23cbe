#!/bin/bash
# it_store_mount.sh - the results database on a real filesystem that is
# full or read-only: a tmpfs mounted in a private mount namespace (unshare
# -m; SKIP where that is not allowed).  it_store_full.sh fills a database
# through SQLite's page limit; this is the disk itself.
# Expect: a full filesystem stops `run` with exit 2 and one line "PATH:
# cannot store results: ..." or "PATH: cannot open results database: ..."
# naming the cause and "free space", never "not a flagscope results
# database" (which tells a user to give up the file), and so does `search`
# (never "check the path" or "wait for the other search"); `report` still reads
# the results on the full and on a read-only filesystem (SQLite cannot
# make the WAL's -shm file there); `run` on the read-only one: exit 2 and
# one line saying to make it writable.
set -euo pipefail
if [ -z "${FLAGSCOPE_IN_NS:-}" ]; then
	if ! unshare -m --propagation private true 2>/dev/null; then
		echo "SKIP: no private mount namespace here (unshare -m needs CAP_SYS_ADMIN)"
		exit 77
	fi
	FLAGSCOPE_IN_NS=1 exec unshare -m --propagation private bash "$0" "$@"
fi
. "$FLAGSCOPE_SRC/tests/lib_it.sh" it_store_mount
mkdir mnt
if ! mount -t tmpfs -o size=2m tmpfs mnt 2>/dev/null; then
	echo "SKIP: cannot mount a tmpfs (needs CAP_SYS_ADMIN)"
	exit 77
fi
tiny_study t.study 2 "2 configurations x tiny, ranked; then the filesystem fills" O2 O1

fs run t.study --db mnt/t.db -q -f json > first.json
fs report --db mnt/t.db -f json > want.json

printf '[space]\nflags = -funroll-loops -fpeel-loops\n' > t.space
search=(t.study --space t.space --strategy random --budget 3 --metric size --db mnt/t.db -q)

# stops NAME PATTERN CMD ARG...: `CMD ARG...` exits 2 with one line on
# stderr (NAME.err) that matches PATTERN and does not call the database
# foreign, and prints no report
stops() {
	local name=$1 pat=$2 rc=0
	shift 2
	fs "$@" > "$name.out" 2> "$name.err" || rc=$?
	[ "$rc" = 2 ] || fail "$name: exit $rc, not 2: $(cat "$name.err")"
	[ "$(wc -l < "$name.err")" = 1 ] || fail "$name: want one line: $(cat "$name.err")"
	! grep -q "not a flagscope results database" "$name.err" ||
		fail "$name: the database called foreign: $(cat "$name.err")"
	grep -Eq "$pat" "$name.err" || fail "$name: message: $(cat "$name.err")"
	[ ! -s "$name.out" ] || fail "$name: a report was printed for a study that could not be stored"
	! grep -Eq "check the path|wait for the other search" "$name.err" || fail "$name: advice: $(cat "$name.err")"
}

# 1. full: no room at all, and no room for one more run
dd if=/dev/zero of=mnt/filler bs=4k 2>/dev/null || true
stops full "^flagscope: mnt/t.db: cannot (store results|open results database): .*free space" \
	run t.study --db mnt/t.db -r 4 -q
stops full-search "^flagscope: mnt/t.db: cannot .*free space" search "${search[@]}"
fs report --db mnt/t.db -f json > full.json 2> report.err || fail "report on a full filesystem: $(cat report.err)"
cmp -s want.json full.json || fail "report on a full filesystem differs: $(diff want.json full.json | head -5)"
echo "ok 1 - a full filesystem: run and search exit 2, one line with the cause and what to do; report still reads it"

# 2. read-only
rm mnt/filler
mount -o remount,ro mnt
fs report --db mnt/t.db -f json > ro.json 2> report.err || fail "report on a read-only filesystem: $(cat report.err)"
cmp -s want.json ro.json || fail "report on a read-only filesystem differs: $(diff want.json ro.json | head -5)"
stops ro "^flagscope: mnt/t.db: cannot .*writable" run t.study --db mnt/t.db -r 3 -q
stops ro-search "^flagscope: mnt/t.db: cannot .*writable" search "${search[@]}"
echo "ok 2 - a read-only filesystem: report reads it; run and search exit 2 with one line saying to make it writable"

# 3. with room and write access again the study resumes: rep 3 once
mount -o remount,rw mnt
fs run t.study --db mnt/t.db -r 3 -q -f json > /dev/null
n=$(sql mnt/t.db "select count(*) from runs where rep=3")
[ "$n" = 2 ] || fail "after the resume: $n runs of rep 3, not 2"
n=$(sql mnt/t.db "select count(*) from (select 1 from runs group by config_id, workload, run, rep having count(*) > 1)")
[ "$n" = 0 ] || fail "duplicated runs after the resume"
umount mnt
echo "ok 3 - resumed with room: every run once"
rm -rf "$T"
