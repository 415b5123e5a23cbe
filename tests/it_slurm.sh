#!/bin/bash
# it_slurm.sh - a study split into shards and merged again, locally and
# through a real single-node Slurm (Debian's slurm-wlm and munge: munged,
# slurmctld and slurmd started here on 127.0.0.1 with a generated config
# in a temporary folder, stopped at the end).  Expect:
#  1. two shard databases of a 3-configuration x 2-workload study (one
#     workload each) merge into the same runs and configurations as the
#     unsharded run's database
#  2. merging a shard again adds nothing; a shard with a changed sample is
#     a conflict (exit 1), the first value kept
#  3. another study, the same study with other configurations, and a file
#     that is no database are refused (exit 2) and the output is untouched
#  4. flagscope slurm writes a job array 0..N-1, a merge job and submit.sh
#     that sh parses; bad --partition / --shards / --source values are
#     refused; --source NAME=SPEC reaches the shards' flagscope run (array
#     task 0 run here by sh: its database says where tiny's source came from),
#     an extra source's too (W.EXTRA=SPEC); a bad kind gets run's one line
#  5. with `flagscope run --shard`: the study through Slurm (--submit, 4
#     shards, the merge job after them) gives the unsharded run's runs and
#     configurations, and the merge job finds every build's log where the
#     tasks kept them; without --shard in `flagscope run --help` this part
#     is skipped and says so
set -euo pipefail
. "$FLAGSCOPE_SRC/tests/lib_it.sh" it_slurm
cp -r home/workloads/tiny home/workloads/tiny2
sed -i 's/^description = .*/description = the tiny program on a smaller size/; s/^args = tiny 300000/args = tiny 200000/' \
	home/workloads/tiny2/recipe.ini
cat >three.study <<'S'
; expect: every configuration ok on both workloads
[study]
name = three
workloads = tiny tiny2
repeat = 2
baseline = O2
[axis opt]
O2 = -O2
O1 = -O1
O0 = -O0
S
sed 's/^O0 = -O0/O0 = -O0\nO3 = -O3/' three.study >four.study
printf '[study]\nname = other\nworkloads = tiny\nrepeat = 1\n[axis opt]\nO2 = -O2\n' >other.study

# same_runs A B: the two databases hold the same runs (configuration,
# workload, run, repetition, outcome) and the same configurations
same_runs() {
	python3 - "$1" "$2" <<'P'
import sqlite3, sys
def content(p):
    d = sqlite3.connect(p)
    return (set(d.execute("select config_id, workload, run, rep, status from runs")),
            set(d.execute("select id, label, cflags from configs")),
            d.execute("select count(*) from samples where rep >= 1 and metric = 'time'").fetchone()[0])
a, b = content(sys.argv[1]), content(sys.argv[2])
assert a[1] == b[1], ("configurations differ", a[1] ^ b[1])
assert a[0] == b[0], ("runs differ", sorted(a[0] ^ b[0])[:6])
assert a[2] == b[2] > 0, ("time samples", a[2], b[2])
P
}

# 1
fs run three.study --db full.db -q >/dev/null
fs run three.study --workloads tiny --db a.db -q >/dev/null
fs run three.study --workloads tiny2 --db b.db -q >/dev/null
fs merge m.db a.db b.db >merge.out || fail "merge of two shards: $(cat merge.out)"
grep -q "^m.db: 2 databases merged: .* 0 conflicts$" merge.out || fail "merge summary: $(cat merge.out)"
same_runs full.db m.db || fail "the merged shards differ from the unsharded run"
echo "ok 1 - two shards merge into the unsharded run's runs and configurations"

# 2
fs merge m.db a.db >again.out || fail "merging a shard again: $(cat again.out)"
grep -q "^a.db: 0 rows added, [1-9][0-9]* duplicates skipped, 0 conflicts$" again.out ||
	fail "merging a shard again: $(cat again.out)"
cp a.db c.db
python3 - <<'P'
import sqlite3
d = sqlite3.connect("c.db")
n = d.execute("update samples set value = value + 1000 where rep = 1 and metric = 'time' and workload = 'tiny'"
              " and config_id = (select id from configs where label = 'O1')").rowcount
assert n == 1, n
d.commit()
P
set +e
fs merge m.db c.db >conflict.out 2>conflict.err
rc=$?
set -e
[ $rc = 1 ] || fail "a conflict exits $rc, not 1: $(cat conflict.out conflict.err)"
grep -q "conflict: samples (three, [0-9a-f]*, tiny, , 1, time): value '[0-9.]*' kept, '10[0-9][0-9]\.[0-9]*' dropped" conflict.err ||
	fail "the conflict is not reported: $(cat conflict.err)"
python3 - <<'P'
import sqlite3
v = sqlite3.connect("m.db").execute("select value from samples where rep = 1 and metric = 'time' and workload = 'tiny'"
    " and config_id = (select id from configs where study = 'three' and label = 'O1')").fetchone()[0]
assert v < 1000, v
P
echo "ok 2 - a shard merged again adds nothing; a conflict keeps the first value and says so"

# 3
fs run other.study --db other.db -q >/dev/null
fs run four.study --workloads tiny --repeat 1 --db four.db -q >/dev/null
sum=$(sha256sum m.db | cut -d' ' -f1)
for bad in other.db four.db three.study m.db; do
	set +e
	fs merge m.db "$bad" >refused.out 2>refused.err
	rc=$?
	set -e
	[ $rc = 2 ] || fail "merging $bad exits $rc, not 2: $(cat refused.out refused.err)"
done
fs merge m.db other.db 2>refused.err || true
grep -q "other.db: holds study 'other' (1 configuration), not the study 'three' (3 configurations) of m.db" refused.err ||
	fail "refusal of another study: $(cat refused.err)"
fs merge m.db four.db 2>refused.err || true
grep -q "holds study 'three' (4 configurations)" refused.err || fail "refusal of other configurations: $(cat refused.err)"
[ "$(sha256sum m.db | cut -d' ' -f1)" = "$sum" ] || fail "a refused merge changed m.db"
set +e
fs merge new.db a.db other.db >/dev/null 2>&1
rc=$?
set -e
[ $rc = 2 ] && [ ! -e new.db ] || fail "inputs of two studies: exit $rc, new.db made: $(ls new.db 2>&1)"
echo "ok 3 - other studies, other configurations and non-databases are refused, nothing written"

# 4
fs slurm three.study --shards 3 --dir "$T/j0" --partition debug --time 5:00 >slurm.out
for f in "$T/j0/three.array.sbatch" "$T/j0/three.merge.sbatch" "$T/j0/submit.sh"; do
	[ -x "$f" ] || fail "$f is missing"
	sh -n "$f" || fail "$f does not parse"
done
grep -qx "#SBATCH --array=0-2" "$T/j0/three.array.sbatch" || fail "array range"
grep -qx "#SBATCH --partition=debug" "$T/j0/three.merge.sbatch" || fail "partition"
grep -q -- "--shard \"\$i/3\"" "$T/j0/three.array.sbatch" || fail "shard argument"
grep -q "merge --logs \"\$dir/logs\" '$T/flagscope.db' \"\$dir/shard-0.db\" \"\$dir/shard-1.db\" \"\$dir/shard-2.db\"$" \
	"$T/j0/three.merge.sbatch" || fail "merge command: $(tail -1 "$T/j0/three.merge.sbatch")"
refused() {
	set +e
	fs slurm three.study --dir "$T/j1" "$@" >/dev/null 2>&1
	local rc=$?
	set -e
	[ $rc = 2 ] || fail "slurm $*: exit $rc, not 2"
}
refused --shards 0
refused --shards 2 --partition 'a$(b)'
refused --shards 2 --time "1:00
#SBATCH --x"
refused --shards 2 --source tiny
refused --shards 2 --source nosuch=local:/tmp
refused --shards 2 --source tiny=nowhere
[ ! -e "$T/j1" ] || fail "a refused slurm wrote its folder"
echo "ok 4 - slurm writes the array, merge and submit scripts; bad values refused"

# 4b. --source reaches every shard, its relative local: path made absolute
mkdir -p tinysrc && echo 'int unused;' > tinysrc/unused.c
fs slurm three.study --shards 2 --dir "$T/j2" --source tiny=local:tinysrc >/dev/null
grep -q -- " --source 'tiny=local:$T/tinysrc'" "$T/j2/three.array.sbatch" ||
	fail "--source not passed on: $(grep ' run ' "$T/j2/three.array.sbatch")"
# array task 0 run here as Slurm would run it
(cd / && SLURM_ARRAY_TASK_ID=0 sh "$T/j2/three.array.sbatch" >/dev/null 2>&1) ||
	fail "array task 0: $(tail -3 "$T/j2/shard-0.status" 2>&1)"
fact=$(python3 -c "import sqlite3;print(sqlite3.connect('$T/j2/shard-0.db').execute(\"select value from facts where key='source.tiny'\").fetchone()[0])")
[ "$fact" = "local:$T/tinysrc (from --source; the recipe's: bundled)" ] || fail "shard 0's source of tiny: $fact"
echo "ok 4b - slurm --source reaches the shards (shard 0 run here built tiny from $T/tinysrc)"

# 4c. a bad kind or form: run's one line, exit 2, nothing written; an
# extra source's override (W.EXTRA=SPEC) reaches the shards too
for spec in tiny=bad:/x tiny=git:nourl tiny=url:file:///x; do
	set +e
	fs run three.study --db "$T/none.db" -n --source "$spec" >/dev/null 2>run.err
	fs slurm three.study --shards 2 --dir "$T/j3" --source "$spec" >/dev/null 2>slurm.err
	rc=$?
	set -e
	[ $rc = 2 ] && [ ! -e "$T/j3" ] || fail "slurm --source $spec: exit $rc, $(ls "$T/j3" 2>&1)"
	[ "$(wc -l <slurm.err)" = 1 ] && cmp -s run.err slurm.err ||
		fail "slurm --source $spec: '$(cat slurm.err)', run says '$(cat run.err)'"
done
mkdir -p xs/workloads othersrc && cp -r home/workloads/tiny xs/workloads/tinyx
sed -i "s|^source = bundled|source = bundled\nsource.x = local:$T/tinysrc|" xs/workloads/tinyx/recipe.ini
printf '[study]\nname = xs\nworkloads = tinyx\nrepeat = 1\n[axis opt]\nO2 = -O2\n' >xs/xs.study
fs slurm xs/xs.study --shards 2 --dir "$T/j4" --source tinyx.x=local:othersrc >/dev/null
grep -q -- " --source 'tinyx.x=local:$T/othersrc'" "$T/j4/xs.array.sbatch" ||
	fail "an extra source's --source not passed on: $(grep ' run ' "$T/j4/xs.array.sbatch")"
echo "ok 4c - slurm refuses a bad --source kind as run does; W.EXTRA=SPEC reaches the shards"

# 5
fs run --help >run-help.txt
if ! grep -q -- "--shard" run-help.txt; then
	echo "SKIP 5 - flagscope run has no --shard yet (the lead wires shard_selects into cmd_run.c): no study submitted to Slurm"
	echo "it_slurm: all passed (part 5 skipped)"
	exit 0
fi
for b in munged slurmctld slurmd sbatch squeue sinfo; do
	command -v $b >/dev/null || { echo "SKIP: $b is missing (apt-get install slurm-wlm munge)"; exit 77; }
done
[ "$(id -u)" = 0 ] || { echo "SKIP: slurmd must run as root here"; exit 77; }
SLURM_BASE=$T/slurm
. "$FLAGSCOPE_SRC/tests/lib_slurm.sh"
trap slurm_stop EXIT
slurm_start || fail "Slurm did not come up"
t0=$(date +%s.%N)
fs slurm three.study --shards 4 --dir "$T/j" --db "$T/slurm.db" --submit >submit.out ||
	fail "submit: $(cat submit.out)"
grep -q "^submitted: array job [0-9]* (4 shards), merge job [0-9]*" submit.out || fail "submit: $(cat submit.out)"
slurm_wait 600 || fail "the jobs did not finish: $(squeue)"
t1=$(date +%s.%N)
for i in 0 1 2 3; do
	[ "$(cat "$T/j/shard-$i.status" 2>/dev/null)" = 0 ] ||
		fail "shard $i: status $(cat "$T/j/shard-$i.status" 2>&1): $(tail -5 "$T/j/shard-$i.log")"
done
[ -f "$T/slurm.db" ] || fail "the merge job made no database: $(cat "$T/j/merge.log")"
same_runs full.db "$T/slurm.db" || fail "the study through Slurm differs from the unsharded run"
grep -qx "$T/j/logs: 6 build logs kept" "$T/j/merge.log" ||
	fail "the merge job did not find the tasks' 6 build logs: $(grep 'logs' "$T/j/merge.log")"
echo "ok 5 - 4 shards through Slurm and the merge job: the unsharded run's runs ($(awk "BEGIN { printf \"%.1f\", $t1 - $t0 }") s)"
echo "it_slurm: all passed"
