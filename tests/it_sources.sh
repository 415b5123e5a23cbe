#!/bin/bash
# it_sources.sh - source overrides without copying recipes: the bundled
# coremark recipe (source = git:..., not reachable here) built from a local
# tree, tests/fixtures/coremark-tree (CoreMark's file names, a stand-in
# program), given
#   1. on the command line: run --source coremark=local:PATH (relative to
#      the current folder), and
#   2. in the study: [sources] coremark = local:tree (relative to the study
#      file's folder, run from another folder).
# Expected for both: the build is ok (every unit verified) from that tree
# (the binary carries the tree's marker), the runs are ok, the build key
# differs from the one of the recipe's own source (dry run without the
# override), and the report's facts say "source.coremark: local:<abs path>
# (from --source|<study>:<line>; the recipe's: git:...)".  Also: --source
# wins over [sources]; `search` carries [sources] into the studies of its
# batches; a malformed --source, one naming a workload the
# study does not run, a [sources] line for such a workload, and a local:
# tree that is not there (either way) are refused (exit 2, naming the
# option or file:line) before anything is built.
set -uo pipefail
. "${FLAGSCOPE_SRC:?}/tests/lib_it.sh"
scratch it_sources
mkdir -p "$T/here" "$T/studies"
command -v gcc >/dev/null || { echo "SKIP: gcc is not installed"; exit 77; }
cp -r "$FLAGSCOPE_SRC/tests/fixtures/coremark-tree" "$T/here/cm"
cp -r "$FLAGSCOPE_SRC/tests/fixtures/coremark-tree" "$T/studies/tree"

study() { # FILE [SOURCES-LINE]
	cat >"$1" <<EOF
[study]
name = sources
workloads = coremark
repeat = 1
[axis opt]
O2 = -O2
EOF
	[ -n "${2:-}" ] && printf '[sources]\n%s\n' "$2" >>"$1"
}
key_of() { sed -n 's/^  coremark  *build \([0-9a-f]\{16\}\).*/\1/p' "$1"; }

# the recipe's own source: its key (the fetch fails here; the key is shown)
cd "$T/here" || exit 1
study plain.study
fs run plain.study --dry-run >own.out 2>own.err || fail "dry run: $(tail -3 own.err)"
own=$(key_of own.out)
[ -n "$own" ] || fail "no coremark key in the dry run: $(cat own.out)"

check() { # DB WHAT ORIGIN-PATTERN TREE
	local db=$1 what=$2 origin=$3 tree=$4
	local row status key detail
	row=$(sql "$db" "select status, key, detail from builds where workload='coremark'")
	IFS='|' read -r status key detail <<<"$row"
	[ "$status" = ok ] || fail "$what: build $status: $detail"
	[ "${key:0:16}" != "$own" ] || fail "$what: the build key is the recipe's own source's"
	grep -aq FLAGSCOPE-FAKE-COREMARK-TREE "$FLAGSCOPE_CACHE/builds/$key/out/coremark" ||
		fail "$what: the binary was not built from $tree"
	local runs
	runs=$(sql "$db" "select run || ':' || status from runs where rep >= 1 order by run" | tr '\n' ' ')
	[ "$runs" = "multi:ok single:ok " ] || fail "$what: runs $runs"
	fs report --db "$db" --format json >"$db.json" || fail "$what: report"
	python3 - "$db.json" "$tree" "$origin" <<'P' || fail "$what: report facts (above)"
import json, re, sys
facts = json.load(open(sys.argv[1]))["facts"]
src = [f for f in facts if f.startswith("source.coremark: ")]
want = rf"source\.coremark: local:{re.escape(sys.argv[2])} \(from {sys.argv[3]}; the recipe's: git:https://github\.com/eembc/coremark commit=[0-9a-f]{{40}}\)$"
assert len(src) == 1 and re.match(want, src[0]), (src, want)
P
	out_has "^source.coremark: local:" fs report --db "$db" || fail "$what: not in the text report"
	echo "ok: $what: built from $tree (key ${key:0:16}, the recipe's own ${own}), runs ok, facts say so"
}

# 1. --source, relative to the current folder
fs run plain.study --db cli.db -q --source coremark=local:cm >cli.out 2>cli.err ||
	fail "run --source: $(tail -5 cli.err)"
check cli.db "--source" "--source" "$T/here/cm"

# 2. [sources], relative to the study file, run from elsewhere
study "$T/studies/s.study" "coremark = local:tree"
fs run "$T/studies/s.study" --db study.db -q >study.out 2>study.err ||
	fail "run with [sources]: $(tail -5 study.err)"
check study.db "[sources]" "$(sed 's/[.[\\*^$()+?{|]/\\&/g' <<<"$T/studies/s.study"):8" "$T/studies/tree"

# 3. --source wins over [sources]: the same key as 1 (same tree, same spec)
fs run "$T/studies/s.study" --dry-run --source "coremark=local:$T/here/cm" >both.out 2>both.err ||
	fail "dry run with both: $(tail -3 both.err)"
cli_key=$(sql cli.db "select substr(key, 1, 16) from builds where workload='coremark'")
[ "$(key_of both.out)" = "$cli_key" ] || fail "--source did not win over [sources]: $(key_of both.out) vs $cli_key"
echo "ok: --source wins over [sources]"

# 3b. search's batch studies carry the study's [sources] (named where
# the user's study wrote them) and build from that tree
fs search "$T/studies/s.study" --db search.db --metric size --budget 1 >search.out 2>search.err ||
	fail "search with [sources]: $(tail -3 search.err)"
facts=$(sql search.db "select value from facts where study like 'search-%' and key='source.coremark'")
[ -n "$facts" ] || fail "search's batches stored no source.coremark fact"
while read -r fact; do
	case $fact in
	"local:$T/studies/tree (from $T/studies/s.study:8;"*) ;;
	*) fail "search's batch source fact: $fact" ;;
	esac
done <<<"$facts"
for key in $(sql search.db "select key from builds where study like 'search-%' and workload='coremark' and status='ok'"); do
	grep -aq FLAGSCOPE-FAKE-COREMARK-TREE "$FLAGSCOPE_CACHE/builds/$key/out/coremark" ||
		fail "search's batch build $key was not built from $T/studies/tree"
done
echo "ok: search's batch studies build from the [sources] tree"

# 3c. a local: path with blanks (it was refused: "paths with blanks are
# not supported"): on the command line as the shell passes it, and in the
# study file bare or in double quotes, relative to the study's folder
mkdir -p "$T/my dir/studies"
cp -r "$FLAGSCOPE_SRC/tests/fixtures/coremark-tree" "$T/my dir/cm tree"
fs run plain.study --db blank-cli.db -q --source "coremark=local:$T/my dir/cm tree" \
	>blank.out 2>blank.err || fail "run --source with blanks: $(tail -5 blank.err)"
check blank-cli.db "--source with blanks" "--source" "$T/my dir/cm tree"
for line in 'coremark = local:../cm tree' 'coremark = local:"../cm tree"'; do
	study "$T/my dir/studies/b.study" "$line"
	rm -f blank-study.db
	fs run "$T/my dir/studies/b.study" --db blank-study.db -q >blank.out 2>blank.err ||
		fail "[sources] $line: $(tail -5 blank.err)"
	check blank-study.db "[sources] $line" "$(sed 's/[.[\\*^$()+?{|]/\\&/g' <<<"$T/my dir/studies/b.study"):8" \
		"$T/my dir/cm tree"
done

# 4. refused
expect_refused() { # WHAT PATTERN ARGS...
	local what=$1 pattern=$2
	shift 2
	fs "$@" >refused.out 2>refused.err
	local rc=$?
	[ $rc = 2 ] || fail "$what: exit $rc, want 2: $(cat refused.err)"
	grep -q -- "$pattern" refused.err || fail "$what: $(cat refused.err)"
	echo "ok: $what refused: $(head -1 refused.err)"
}
expect_refused "--source without NAME=" "write NAME=SPEC" run plain.study --dry-run --source local:cm
expect_refused "--source for another workload" "does not run a workload 'crc32'" \
	run plain.study --dry-run --source crc32=bundled
expect_refused "--source with a bad spec" "unknown source kind 'ftp'" \
	run plain.study --dry-run --source coremark=ftp:x
study other.study "crc32 = local:cm"
expect_refused "[sources] for another workload" "other.study:8: \[sources\] names workload 'crc32'" \
	run other.study --dry-run
expect_refused "--source with a missing local tree" "local:gone: no folder $T/here/gone (unpack" \
	run plain.study --dry-run --source coremark=local:gone
study gone.study "coremark = local:gone"
expect_refused "[sources] with a missing local tree" "gone.study:8: local:gone: no folder .*/gone (unpack" \
	run gone.study --dry-run
echo PASS
rm -rf "$T"
