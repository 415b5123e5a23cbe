# lib_it.sh - sourced by the integration tests.
#   . "$FLAGSCOPE_SRC/tests/lib_it.sh" NAME   a fresh scratch folder $T with
#       tiny as the only workload (FLAGSCOPE_HOME) and its own build cache,
#       the current directory set to $T, and the helpers below;
#   . "$FLAGSCOPE_SRC/tests/lib_it.sh"        the helpers only ($T untouched).
# Helpers: fs (run flagscope), fail, ok, count_failures, finish_counted,
# local_recipe_or_skip, scratch, sql, out_has, out_head, tiny_study,
# test_size_workloads, aa_study, tiny_shards, gcc_study, second_config,
# check_padded_runs, stackaddr_workload,
# pair_study, small_recipe, make_workload, libcbench_runs, run_study_or_skip, pair_ok, too_loaded,
# nolld_gcc.

fs() { "$FLAGSCOPE_BIN" "$@"; }
fail() { echo "FAIL: $*" >&2; exit 1; }
ok() { echo "ok: $*"; }

# count_failures: from here on fail prints its line on stdout and counts it
# in $failures instead of ending the test (the test ends on the count)
count_failures() {
	failures=0
	fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
}

# finish_counted: exits 0 with PASS (and removes $T) when fail counted
# nothing, else 1 with the count (the files kept)
finish_counted() {
	if [ "$failures" = 0 ]; then
		echo PASS
		rm -rf "$T"
		exit 0
	fi
	echo "FAIL: $failures check(s); files kept in $T"
	exit 1
}

# local_recipe_or_skip WORKLOAD VAR FILE: a copy of the bundled WORKLOAD
# recipe in home/workloads/ whose source is local:$VAR (an upstream tree
# the user unpacked).  Without VAR/FILE it exits: 1 when fail counted a
# failure before, else 77 (SKIP, saying which variable to set)
local_recipe_or_skip() {
	local tree=${!2:-}
	if [ -z "$tree" ] || [ ! -f "$tree/$3" ]; then
		[ "$failures" = 0 ] || exit 1
		echo "SKIP: $1 source not available offline (set $2=/path to run)"
		exit 77
	fi
	mkdir -p home/workloads
	cp -r "$FLAGSCOPE_SRC/workloads/$1" home/workloads/
	sed -i "s|^source = .*|source = local:$tree|" "home/workloads/$1/recipe.ini"
}

# scratch NAME: a fresh empty $T ($FLAGSCOPE_TEST_TMP/NAME) with its own
# build cache (FLAGSCOPE_CACHE=$T/cache), made the current folder
scratch() {
	: "${FLAGSCOPE_BIN:?}" "${FLAGSCOPE_SRC:?}" "${FLAGSCOPE_TEST_TMP:?}"
	T=$FLAGSCOPE_TEST_TMP/$1
	rm -rf "$T" && mkdir -p "$T" && cd "$T" || exit 1
	export FLAGSCOPE_CACHE=$T/cache
}

# sql DB QUERY: the rows of QUERY, one a line, columns joined by "|"
sql() {
	python3 -c 'import sqlite3, sys
for row in sqlite3.connect(sys.argv[1]).execute(sys.argv[2]): print("|".join(map(str, row)))' "$1" "$2"
}

# out_has [GREP_OPTION...] [--] PATTERN CMD [ARG...]: CMD succeeds and a line
# of its stdout matches PATTERN (grep's options: -E, -F, -x, -i).  The output
# is read whole before grep looks at it: `CMD | grep -q` under pipefail fails
# when grep stops at the first match and CMD is killed by SIGPIPE.
out_has() {
	local opts=() out
	while [ $# -gt 0 ] && [[ $1 == -* ]]; do
		[ "$1" = -- ] && { shift; break; }
		opts+=("$1"); shift
	done
	local pat=$1; shift
	out=$("$@") || return
	grep -q "${opts[@]}" -e "$pat" <<<"$out"
}

# out_head N CMD [ARG...]: the first N lines of CMD's stdout, CMD run to its
# end (`CMD | head` under pipefail fails when CMD writes past what head read);
# CMD's exit status.
out_head() {
	local n=$1 out rc=0; shift
	out=$("$@") || rc=$?
	[ -z "$out" ] || head -n "$n" <<<"$out"
	return $rc
}

# too_loaded [PER_CORE]: succeeds when the 1-minute load average is above
# PER_CORE (default 4) per core, the house rule's limit for asserting a
# speed or a timing (say SKIP with the numbers instead); $load_said is
# "load average L on N cores" either way.  Call it right after the
# measurement: the average covers the minute before.
too_loaded() {
	local per=${1:-4} l n
	l=$(cut -d' ' -f1 /proc/loadavg)
	n=$(nproc)
	load_said="load average $l on $n cores"
	awk -v l="$l" -v n="$n" -v p="$per" 'BEGIN { exit !(l > p * n) }'
}

# second_config: sets $second to "v3 static" (gcc -O3 -march=x86-64-v3,
# -static) when this CPU runs x86-64-v3 code, else to "O2 static" with a
# SKIP line that says why
second_config() {
	local f
	second="v3 static"
	for f in avx2 fma bmi2; do
		if ! grep -qw $f /proc/cpuinfo; then
			echo "SKIP: -O3 -march=x86-64-v3: this CPU lacks $f (O2 static instead)"
			second="O2 static"
			return
		fi
	done
}

# tiny_study FILE REPEAT EXPECT LEVEL...: a study of tiny named after FILE,
# REPEAT repetitions, one configuration a LEVEL (O2 is -O2, ...), the
# first the baseline; its first comment says "expect: EXPECT"
tiny_study() {
	local file=$1 repeat=$2 expect=$3 l name=${1##*/}; shift 3
	{
		printf '; expect: %s\n[study]\nname = %s\nworkloads = tiny\n' "$expect" "${name%.study}"
		printf 'repeat = %s\nbaseline = %s\n[axis opt]\n' "$repeat" "$1"
		for l; do echo "$l = -$l"; done
	} >"$file"
}

# test_size_workloads W...: copies of the bundled recipes W in ./workloads/
# (where they shadow the bundled ones for a study in this folder) at their
# `; test-args =` sizes: the first args = line only (a [train] section's
# stays), without expected.out (it is the full size's).  Fails (counted)
# when a recipe has no test-args line.
test_size_workloads() {
	local w targs
	mkdir -p workloads
	for w; do
		cp -r "$FLAGSCOPE_SRC/workloads/$w" workloads/
		targs=$(sed -n 's/^; test-args = //p' "workloads/$w/recipe.ini")
		[ -n "$targs" ] || fail "$w has no test-args line"
		sed -i "0,/^args = /s/^args = .*/args = $targs/; /^expect = /d" "workloads/$w/recipe.ini"
	done
}

# aa_study FILE NAME "WORKLOADS" REPEAT LAYOUTS LEVEL=FLAGS...: an A/A study
# (issue 27, bench/calibrate.sh, bench/aa_layouts.sh): O2 = -O2, the
# baseline, and one configuration a LEVEL=FLAGS whose flags differ from -O2
# in code layout only (-falign-*), REPEAT runs, layouts = LAYOUTS, the
# rusage meter: every verdict other than unchanged is a false alarm
aa_study() {
	local file=$1 name=$2 wls=$3 repeat=$4 layouts=$5 l; shift 5
	{
		echo "; expect: every configuration ok, none beyond layout noise (A/A)"
		printf '[study]
name = %s
workloads = %s
repeat = %s
' "$name" "$wls" "$repeat"
		printf 'layouts = %s
baseline = O2
meters = rusage
[axis layout]
O2 = -O2
' "$layouts"
		for l; do echo "${l%%=*} = -O2 ${l#*=}"; done
	} >"$file"
}

# tiny_shards: s.study (tiny at O2 and O1, one repetition) run as two
# shards into a.db (0/2) and b.db (1/2); fails (counted) when one fails
tiny_shards() {
	tiny_study s.study 1 "every configuration ok" O2 O1
	fs run s.study --db a.db --shard 0/2 -q >/dev/null 2>a.err || fail "shard 0: $(tail -2 a.err)"
	fs run s.study --db b.db --shard 1/2 -q >/dev/null 2>b.err || fail "shard 1: $(tail -2 b.err)"
}

# gcc_study FILE WORKLOADS LEVEL...: a study named after FILE of
# WORKLOADS, one repetition, configurations "gcc LEVEL" (O2 is -O2, ...),
# the first the baseline
gcc_study() {
	local file=$1 wls=$2 l name=${1##*/}; shift 2
	{
		printf '[study]\nname = %s\nworkloads = %s\nrepeat = 1\n' "${name%.study}" "$wls"
		printf 'baseline = gcc %s\n[axis cc]\ngcc = gcc\n[axis opt]\n' "$1"
		for l; do echo "$l = -$l"; done
	} >"$file"
}

# pair_study FILE NAME WORKLOADS SECOND [EXPECT]: a study of WORKLOADS, one
# repetition, two configurations: "O2 dynamic" (gcc -O2, the baseline) and
# SECOND, "v3 static" or "O2 static" (second_config); its first comment
# says "expect: EXPECT" when given
pair_study() {
	{
		[ -z "${5:-}" ] || echo "; expect: $5"
		printf '[study]\nname = %s\nworkloads = %s\nrepeat = 1\nbaseline = O2 dynamic\n' "$2" "$3"
		printf '[axis opt]\nO2 = -O2\n'
		[ "$4" != "v3 static" ] || echo "v3 = -O3 -march=x86-64-v3"
		printf '[axis link]\ndynamic =\nstatic =\n'
		[ "$4" != "v3 static" ] || printf '[exclude]\none = O2 static\ntwo = v3 dynamic\n'
	} >"$1"
}

# pair_ok STUDY SECOND BUILDS: STUDY.db (a pair_study's run) holds BUILDS
# builds, every build and run ok, and STUDY.json ranks "O2 dynamic" and
# SECOND, both ok
pair_ok() {
	python3 - "$@" <<'P'
import json, sqlite3, sys
study, second, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
db = sqlite3.connect(study + ".db")
bad = db.execute("select config_id, workload, status, detail from builds where status <> 'ok'").fetchall()
if bad:
    sys.exit(f"FAIL: builds not ok: {bad}")
got = db.execute("select count(*) from builds").fetchone()[0]
if got != n:
    sys.exit(f"FAIL: {got} builds stored, expected {n}")
bad = db.execute("select c.label, r.workload, r.run, r.rep, r.status, r.detail from runs r "
                 "join configs c on c.id = r.config_id and c.study = r.study "
                 "where r.run <> '@build' and r.status <> 'ok'").fetchall()
if bad:
    sys.exit(f"FAIL: runs not ok: {bad[:4]}")
st = {c["label"]: c["status"] for c in json.load(open(study + ".json"))["configs"]}
if st != {"O2 dynamic": "ok", second: "ok"}:
    sys.exit(f"FAIL: ranking statuses {st}")
P
}

# small_recipe WORKLOAD SED: a copy of the bundled WORKLOAD recipe (links
# followed) in ./workloads/, where it shadows the bundled one for a study in
# this folder, its recipe.ini edited by the sed script SED: the sizes of
# its inputs or runs made smaller, nothing else.  Fails when SED changes
# nothing (the recipe moved on: the test would run the full sizes), and
# returns 1 then (for a test that counts its failures).
small_recipe() {
	mkdir -p workloads && rm -rf "workloads/$1" && cp -rL "$FLAGSCOPE_SRC/workloads/$1" workloads/ &&
		sed -i "$2" "workloads/$1/recipe.ini" || { fail "cannot copy the $1 recipe"; return 1; }
	if cmp -s "workloads/$1/recipe.ini" "$FLAGSCOPE_SRC/workloads/$1/recipe.ini"; then
		fail "small_recipe $1: '$2' changes nothing in its recipe.ini"
		return 1
	fi
}

# make_workload NAME EXPECT MAKEFILE BINARY ARGS: ./src with a main.c that
# prints 42 and MAKEFILE's text as its Makefile, and ./workloads/NAME/
# recipe.ini building it with system = make (binaries = BINARY, [run]
# args = ARGS), its first comment "; expect: EXPECT"
make_workload() {
	mkdir -p src "workloads/$1"
	printf '#include <stdio.h>\nint main(void) { puts("42"); return 0; }\n' >src/main.c
	printf '%b' "$3" >src/Makefile
	printf '; expect: %s\n[workload]\nsource = local:%s/src\n[build]\nsystem = make\nbinaries = %s\n[run]\nargs = %s\n' \
		"$2" "$PWD" "$4" "$5" >"workloads/$1/recipe.ini"
}

# libcbench_runs "RUN..." [FILE...]: home/workloads/libcbench, the bundled
# libcbench's sources (and FILEs of its folder, e.g. published.ini) with a
# recipe of only those runs; fails when the recipe lost one of them
libcbench_runs() {
	local src=$FLAGSCOPE_SRC/workloads/libcbench dst=home/workloads/libcbench runs=$1 f; shift
	mkdir -p "$dst" && cp "$src"/*.[ch] "$dst/" || fail "cannot copy libcbench"
	for f in "$@"; do cp "$src/$f" "$dst/" || fail "cannot copy libcbench's $f"; done
	awk -v keep=" $runs " '
		/^\[run / { name = $2; sub(/\].*/, "", name); skip = index(keep, " " name " ") == 0 }
		/^\[/ && !/^\[run / { skip = 0 }
		skip { next }
		{ print }' "$src/recipe.ini" > "$dst/recipe.ini"
	[ "$(grep -c '^args = libcbench ' "$dst/recipe.ini")" = "$(wc -w <<<"$runs")" ] ||
		fail "trimmed recipe: $(cat "$dst/recipe.ini")"
}

# run_study_or_skip STUDY [OPTION...]: flagscope run STUDY.study --db
# STUDY.db --format json OPTION..., its report in STUDY.json and its stderr
# in STUDY.err; prints the exit status and the time.  Exits 77 (SKIP) when
# the Debian sources cannot be fetched and nothing ran; fails on any other
# non-zero exit.
run_study_or_skip() {
	local s=$1 start=$SECONDS rc=0; shift
	fs run "$s.study" --db "$s.db" --format json "$@" >"$s.json" 2>"$s.err" || rc=$?
	echo "flagscope run: exit $rc after $((SECONDS - start)) s"
	if grep -q "cannot fetch\|apt-get source" "$s.err" && ! grep -q '"ok"' "$s.json" 2>/dev/null; then
		echo "SKIP: Debian sources unavailable: $(grep -m1 'source' "$s.err")"
		exit 77
	fi
	[ $rc -eq 0 ] || fail "flagscope run exit $rc: $(tail -n 5 "$s.err")"
}

# stackaddr_workload NAME FILE: home/workloads/NAME, a program that appends
# the address of a local to FILE and prints "ok".  FILE is named in its
# code, not in its argv: the ssh runner sends a board a copy of a file an
# argument names
stackaddr_workload() {
	mkdir -p "home/workloads/$1"
	cat >"home/workloads/$1/stackaddr.c" <<C
/* stackaddr: appends the address of a local to $2; prints "ok" */
#include <stdio.h>
int main(void)
{
	volatile int local = 0;
	FILE *f = fopen("$2", "a");
	if (!f)
		return 2;
	fprintf(f, "%p\\n", (void *)&local);
	fclose(f);
	printf("ok\\n");
	return local;
}
C
	cat >"home/workloads/$1/recipe.ini" <<R
; expect: every run ok; each appends its stack address to $2
[workload]
description = appends the address of a local to a file
source = bundled
[build]
script = \$CC \$CFLAGS -o stackaddr "\$RECIPE/stackaddr.c" \$LDFLAGS
binaries = stackaddr
[run]
args = stackaddr
R
}

# check_padded_runs DB ADDRS WHAT: DB's runs ran with ASLR off, the
# environment padded per run (harness/layout.h): 6 or more ok, at least 5
# different stack addresses in ADDRS (one a line), every run's layout
# "aslr=off env=N pad=N" and at least 5 different ones
check_padded_runs() {
	local runs distinct bad pads
	runs=$(sql "$1" "select count(*) from runs where status='ok'")
	distinct=$(sort -u "$2" 2>/dev/null | wc -l)
	[ "$runs" -ge 6 ] || fail "$3: $runs ok runs stored, want 6"
	[ "$distinct" -ge 5 ] || fail "$3: $distinct different stack addresses in $(wc -l <"$2") runs, want at least 5: $(tr '\n' ' ' <"$2")"
	bad=$(sql "$1" "select rep || ': ' || layout from runs where layout not glob 'aslr=off env=[0-9]* pad=[0-9]*'")
	[ -z "$bad" ] || fail "$3: runs whose layout is not 'aslr=off env=N pad=N': $bad"
	pads=$(sql "$1" "select count(distinct layout) from runs")
	[ "$pads" -ge 5 ] || fail "$3: $pads different layouts stored over $runs runs, want at least 5"
}

if [ $# -gt 0 ]; then
	scratch "$1"
	mkdir -p "$T/home/workloads"
	cp -r "$FLAGSCOPE_SRC/tests/fixtures/workloads/tiny" "$T/home/workloads/"
	export FLAGSCOPE_HOME=$T/home
fi

# tiny_copy NAME DESCRIPTION PREFIX: home/workloads/NAME, tiny with another
# description and PREFIX put before its build script (e.g. "sleep 2; ")
tiny_copy() {
	mkdir -p "home/workloads/$1"
	cp home/workloads/tiny/*.c "home/workloads/$1/"
	sed "s|^description = .*|description = $2|; s|^script = |script = $3|" \
		home/workloads/tiny/recipe.ini >"home/workloads/$1/recipe.ini"
}

# nap_workload ARGS: home/workloads/nap, a program that sleeps 60 s while
# $T/nap.on exists and in its third run counted in $T/nap.count, then
# prints "sum 42"; its [run] args = ARGS
nap_workload() {
	mkdir -p home/workloads/nap
	cat >home/workloads/nap/nap.c <<C
#include <stdio.h>
#include <unistd.h>
/* naps while nap.on exists, and in the third run counted in nap.count */
int main(void)
{
	int n = 0;
	FILE *f = fopen("$T/nap.count", "r");
	if (f) {
		if (fscanf(f, "%d", &n) != 1)
			n = 0;
		fclose(f);
	}
	f = fopen("$T/nap.count", "w");
	if (f) {
		fprintf(f, "%d\\n", n + 1);
		fclose(f);
	}
	if (access("$T/nap.on", F_OK) == 0 || n + 1 == 3)
		sleep(60);
	printf("sum 42\\n");
	return 0;
}
C
	cat >home/workloads/nap/recipe.ini <<R
; nap: sleeps 60 s while $T/nap.on exists and in its third counted run (tests/lib_it.sh)
[workload]
description = a run that naps while a file exists
source = bundled

[build]
script = \$CC \$CFLAGS -o nap "\$RECIPE/nap.c" \$LDFLAGS
binaries = nap

[run]
args = $1
timeout = 120
metric.sum = ^sum ([0-9]+)
R
}

# nolld_gcc FILE: a gcc whose link cannot take lld (it says what a gcc
# without -fuse-ld=lld says), for layout variants that are unsupported
nolld_gcc() {
	cat >"$1" <<'W'
#!/bin/sh
for a; do
	case $a in -fuse-ld=lld) echo "gcc: error: unrecognized command-line option '-fuse-ld=lld'" >&2; exit 1 ;; esac
done
exec gcc "$@"
W
	chmod +x "$1"
}
