#!/bin/bash
# it_recommend_help.sh - recommend's usage line lists every option it
# accepts (--study, --alpha and --min-effect were accepted but missing from
# it, so a user reading the usage did not know a study could be chosen).
# Expected: each option of the "options:" list but --help appears in the
# usage lines (up to the first blank line), as [--LONG...
set -euo pipefail
. "${FLAGSCOPE_SRC:?}/tests/lib_it.sh"
"$FLAGSCOPE_BIN" recommend --help > /dev/null # --help exits 0
help=$("$FLAGSCOPE_BIN" recommend --help)
usage=$(sed '/^$/q' <<< "$help") # to the first blank line
opts=$(sed -n '/^options:/,/^$/p' <<< "$help" | sed -n 's/^ *\(-., \)\{0,1\}\(--[a-z-]*\).*/\2/p')
[ -n "$opts" ] || fail "recommend --help lists no options"
missing=""
for o in $opts; do
	[ "$o" = --help ] && continue
	grep -qF -e "[$o " -e "[$o]" -e "[$o=" <<< "$usage" || missing="$missing $o"
done
[ -z "$missing" ] || fail "recommend's usage line lacks$missing: $usage"
echo PASS
