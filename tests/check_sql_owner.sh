#!/bin/bash
# check_sql_owner.sh [ROOT] - SQL is the store's: outside analysis/ (the
# store, store_rows, merge, results, ...) no file calls SQLite (sqlite3_*);
# a command or a layer reads and writes results through the store's and
# the analysis modules' interfaces (analysis/store.h, merge.h,
# results.h), which own the schema (issue 29).  The layers' own files
# are read (each folder's top level, as CMakeLists.txt compiles them; a
# workload's bundled sources such as workloads/webservice/ are programs
# of their own).  Prints each call as
# FILE:LINE and exits 1 when there is one outside the exceptions below,
# or when an exception no longer calls SQLite (remove it then).
set -uo pipefail
root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
# Known exceptions, one a line: FILE, its owner, why, and who removes it.
# None today: search's queries are analysis/store_search.c's (issue 29).
exceptions=()
cd "$root" || exit 2
bad=0
for dir in base flagsets workloads harness pipeline search explorer; do
	[ -d "$dir" ] || continue
	while IFS= read -r -d '' f; do
		calls=$(grep -nE '\bsqlite3_[a-z_0-9]+[ \t]*\(' "$f")
		listed=0
		for e in "${exceptions[@]}"; do
			[ "$e" = "$f" ] && listed=1
		done
		if [ -n "$calls" ] && [ "$listed" = 0 ]; then
			sed "s|^|$f:|" <<<"$calls"
			bad=$((bad + 1))
		elif [ -z "$calls" ] && [ "$listed" = 1 ]; then
			echo "$f: listed as an exception but calls no SQLite (remove it from check_sql_owner.sh)"
			bad=$((bad + 1))
		fi
	done < <(find "$dir" -maxdepth 1 -type f \( -name '*.c' -o -name '*.h' \) -print0)
done
if [ "$bad" -gt 0 ]; then
	echo "check_sql_owner: $bad file(s) outside analysis/ call SQLite (move the query into the store, analysis/store*.c, and call that)"
	exit 1
fi
echo "check_sql_owner: no SQL outside analysis/ (${#exceptions[@]} listed exceptions)"
