#!/bin/bash
# it_output_full.sh - output is a result too: every command whose output
# cannot be written (stdout is /dev/full) exits non-zero with "cannot
# write", at the dispatcher (explorer/main.c), however it printed: each
# command's --help, the top-level usage and version, help settings, and the real outputs
# of run, report (every format), list, compare, recommend, verify, why,
# baseline, merge, slurm, sysroot, calibrate, search and workload on a
# tiny study: every command `flagscope --help` lists (a command added
# without a line here fails).  A pipe whose reader stops early is not a
# failure.
# Expected: every line below fails with "cannot write"; the same command
# to a file prints its output there (so the failure is the output's).
set -euo pipefail
. "${FLAGSCOPE_SRC:?}/tests/lib_it.sh" it_output_full
[ -w /dev/full ] || { echo "SKIP: no /dev/full here"; exit 77; }

# CMD...: fails into /dev/full with "cannot write"; into a file it prints
# (with the exit status it has: compare's 1 says a regression)
full_fails() {
	local rc=0
	covered+=" $1 "
	fs "$@" > /dev/full 2> full.err || rc=$?
	[ "$rc" -ne 0 ] || fail "flagscope $* > /dev/full exited 0"
	grep -q "cannot write" full.err || fail "flagscope $* > /dev/full: no 'cannot write': $(head -2 full.err)"
	rc=0
	fs "$@" > full.out 2> full.err || rc=$?
	[ "$rc" -le 1 ] || fail "flagscope $* > file failed: $(tail -2 full.err)"
	[ -s full.out ] || fail "flagscope $* printed nothing (not a test of its output)"
	! grep -q "cannot write" full.err || fail "flagscope $* > file: $(head -2 full.err)"
}

commands=$(fs --help | awk '/^commands:/ { on = 1; next } on && /^  [a-z]/ { print $1 } on && /^$/ { exit }')
[ "$(wc -w <<<"$commands")" -ge 13 ] || fail "fewer commands than expected in --help: $commands"
for c in $commands; do
	full_fails "$c" --help
done
covered=""  # from here: the commands whose real output was checked
full_fails --help
full_fails --version
full_fails help settings
full_fails help settings --format markdown
ok "--help of every command ($(wc -w <<<"$commands")), usage and --version"

tiny_study two.study 1 "both ok and ranked" O2 O1
fs run two.study -q > /dev/null 2> run.err || fail "run: $(tail -2 run.err)"
full_fails run two.study -q   # resumed: nothing to do, the ranking again
for f in table csv json html lnt; do
	full_fails report -f "$f"
done
full_fails report --pivot opt -f csv
# a reader that stops early is not our failure (SIGPIPE may end us: 141)
set +o pipefail
fs report -f html 2> pipe.err | head -c 1 > /dev/null
rc=${PIPESTATUS[0]}
set -o pipefail
[ "$rc" = 0 ] || [ "$rc" = 141 ] || fail "report | head -c 1: exit $rc: $(head -2 pipe.err)"
! grep -q "cannot write" pipe.err || fail "report | head -c 1: $(head -2 pipe.err)"
ok "a pipe closed early is not a write failure"
full_fails list toolchains
full_fails list workloads two.study
mkdir -p home/presets && cp two.study home/presets/mine.study
full_fails list presets
full_fails list metrics
full_fails compare --baseline O2 --candidate O1
full_fails recommend
fs baseline save before > /dev/null 2>&1 || fail "baseline save"
full_fails baseline list
full_fails baseline list --format json
python3 -c 'import json, sys; b = json.load(open(sys.argv[1])); assert b[0]["name"] == "before", b' \
	full.out || fail "baseline list --format json: $(head -c 300 full.out)"
bin=$(find "$FLAGSCOPE_CACHE/builds" -type f -name tiny -perm -u+x | head -1)
[ -n "$bin" ] || fail "no tiny binary in the build cache"
full_fails verify "$bin"
if command -v valgrind > /dev/null; then
	full_fails why O2 O1 tiny
else
	echo "SKIP why: no valgrind"
	covered+=" why "
fi
cp flagscope.db shard.db
full_fails merge merged.db shard.db
full_fails slurm two.study --shards 2 --dir slurm
full_fails sysroot list
full_fails calibrate two.study --repeat 2
cat > one.space <<'S'
[space]
flags = -funroll-loops
S
full_fails search two.study --space one.space --budget 2 --metric size --confirm-repeat 0 \
	--no-minimise
# workload new writes its recipe before it prints: a folder of its own each time
mkdir -p src
rc=0
fs workload new mine --source "local:$T/src" --system make --dir wl1 > /dev/full 2> full.err || rc=$?
[ "$rc" -ne 0 ] && grep -q "cannot write" full.err || fail "workload new > /dev/full: exit $rc: $(head -2 full.err)"
fs workload new mine --source "local:$T/src" --system make --dir wl2 > full.out 2> full.err &&
	[ -s full.out ] || fail "workload new > file: $(head -2 full.err)"
covered+=" workload help "  # help: help settings, above
for c in $commands; do
	[[ "$covered" == *" $c "* ]] || fail "$c: no line here checks its real output into /dev/full (add one)"
done
ok "run, report (5 formats, a pivot), list, compare, recommend, baseline, verify, why, merge, slurm, sysroot, calibrate, search, workload"

