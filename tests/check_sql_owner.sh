#!/bin/bash
# check_sql_owner.sh [ROOT] - the CLI runs no SQL of its own: no file of
# explorer/ calls SQLite (sqlite3_*); a command reads and writes the
# results through the store's and the analysis modules' interfaces
# (analysis/store.h, merge.h, results.h), which own the schema (issue 29).
# Prints each call as FILE:LINE and exits 1 when there is one.
set -uo pipefail
root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
calls=$(cd "$root" && grep -nE '\bsqlite3_[a-z_0-9]+[ \t]*\(' explorer/*.c explorer/*.h)
if [ -n "$calls" ]; then
	echo "$calls"
	echo "check_sql_owner: explorer/ calls SQLite itself (move the query into the store, analysis/store*.c, and call that)"
	exit 1
fi
echo "check_sql_owner: explorer/ runs no SQL of its own"
