#!/bin/bash
# it_report_help.sh - `report --help` names every format, every --pivot kind
# and every column the pivots print (the published columns of --pivot libc
# and the distro pivot's CSV columns were printed but explained nowhere).
# Expected: the help names table, csv, json, html and lnt; --pivot AXIS,
# --pivot libc and --pivot distro; the published columns (published_row,
# published_dirty_row, LEVEL.published_pct, .same_sign,
# .dirty_published_pct, .dirty_same_sign, "sign agreement"); and each
# column of a real `--pivot distro --format csv` and `--pivot opt --format
# csv` header (a LEVEL.KEY column by its KEY).
set -euo pipefail
. "${FLAGSCOPE_SRC:?}/tests/lib_it.sh" it_report_help
count_failures

fs report --help > help.txt
has() { grep -qwF -e "$1" help.txt || fail "report --help does not name $2"; }
for f in table csv json html lnt; do
	has "$f" "the format $f"
done
for k in "--pivot AXIS" "--pivot libc" "--pivot distro"; do
	has "$k" "$k"
done
for c in published_row published_dirty_row published_pct same_sign dirty_published_pct \
	dirty_same_sign "sign agreement"; do
	has "$c" "the published column $c"
done

# the columns a user really gets, from a tiny study
tiny_study two.study 2 "both ok and ranked" O2 O1
fs run two.study -q > /dev/null
n=0
for p in distro opt; do
	fs report --pivot $p --format csv > $p.csv
	IFS=, read -r -a cols < <(head -n 1 $p.csv | tr -d '\r')
	for c in "${cols[@]}"; do
		n=$((n + 1))
		case $c in
		O1.* | O2.* | noise_floor.*) c=${c#*.} ;;
		esac
		[ "$c" = "${cols[2]:-}" ] && [ $p = opt ] && continue # opt's metric column: the metric's name
		has "$c" "the $p pivot's CSV column $c"
	done
done
ok "$n CSV columns looked up"
[ "$failures" = 0 ] || { echo "FAIL: $failures check(s); files kept in $T"; exit 1; }
echo PASS
rm -rf "$T"
