#!/bin/bash
# it_formats.sh - one format registry (analysis/formats.h, issue 29): every
# command with a --format option lists its formats in --help from the
# registry, takes each of them (--parse-only), and refuses any other with
# the one error "flagscope: COMMAND: unknown format 'X' (formats: A, B)";
# report's outputs that write fewer formats than the ranking (--pivot
# AXIS, --pivot distro, --samples) refuse the rest the same way, naming
# the output, and print the ones they list.
# Expected: every check passes.
set -uo pipefail
. "${FLAGSCOPE_SRC:?}/tests/lib_it.sh" it_formats
count_failures

commands=$(fs --help | awk '/^commands:/ { on = 1; next } on && /^  [a-z]/ { print $1 } on && /^$/ { exit }')
n=0 checked=" "
for c in $commands; do
	# "  -f, --format FMT   output format (table|csv|json)" -> table|csv|json
	list=$(fs "$c" --help | sed -n 's/^ *-f, --format [A-Z]* .*(\([a-z.|-]*\))$/\1/p')
	[ -n "$list" ] || continue
	n=$((n + 1))
	checked+="$c "
	rc=0
	fs "$c" --format nope >out.txt 2>err.txt || rc=$?
	want="flagscope: $c: unknown format 'nope' (formats: ${list//|/, })"
	[ "$rc" = 2 ] || fail "$c --format nope: exit $rc"
	[ "$(cat err.txt)" = "$want" ] || fail "$c --format nope said '$(cat err.txt)', not '$want'"
	for f in ${list//|/ }; do
		fs --parse-only "$c" --format "$f" >/dev/null 2>err.txt ||
			grep -q "fit its usage\|say what" err.txt ||
			fail "$c --format $f refused: $(cat err.txt)"
		grep -q "unknown format" err.txt && fail "$c --format $f: $(cat err.txt)"
	done
done
[ "$n" -ge 9 ] || fail "only $n commands have a --format option in their --help"
# the commands whose writers live in explorer/ (checked at start-up by
# commands_check in main.c, not by analysis' formats_check): each one's
# --format refuses in the one form too
for c in verify why baseline search list calibrate; do
	[[ $checked == *" $c "* ]] || fail "$c has no --format in its --help (checked:$checked)"
done
ok "$n commands: --help's formats taken, anything else refused in one form"

# report's outputs with fewer formats than the ranking
tiny_study two.study 1 "both ok and ranked" O2 O1
fs run two.study -q >/dev/null 2>run.err || fail "run: $(tail -2 run.err)"
refused() { # WHO FORMATS ARGS...: report ARGS is refused as WHO, listing FORMATS
	local who=$1 formats=$2 rc=0
	shift 2
	fs report "$@" >out.txt 2>err.txt || rc=$?
	[ "$rc" = 2 ] || fail "report $*: exit $rc"
	local fmt=${*: -1}
	want="flagscope: $who: unknown format '$fmt' (formats: $formats)"
	[ "$(cat err.txt)" = "$want" ] || fail "report $* said '$(cat err.txt)', not '$want'"
}
refused "report --pivot" "table, csv, json" --pivot opt --format html
refused "report --pivot distro" "table, csv, json" --pivot distro --format html
refused "report --pivot sweep" "table, csv, json" --pivot sweep --format html
refused "report --samples" "table, csv" --samples --format json
for f in table csv json; do
	fs report --pivot opt --format "$f" >out.txt 2>err.txt || fail "--pivot opt --format $f: $(cat err.txt)"
	[ -s out.txt ] || fail "--pivot opt --format $f printed nothing"
done
fs report --samples --format csv >out.txt 2>err.txt || fail "--samples --format csv: $(cat err.txt)"
ok "report's --pivot and --samples refuse the formats they do not write, and print theirs"
finish_counted
