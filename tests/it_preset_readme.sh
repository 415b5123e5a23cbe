#!/bin/bash
# it_preset_readme.sh - each bundled preset's first comment line names the
# doc/ page and section that explains its table (a user reading a preset
# had to search the README for the pivot or ranking it prints).
# Expected: every flagsets/presets/*.study opens with
#   ; doc/PAGE.md "SECTION" explains this preset's table
# and "## SECTION" is a heading of doc/PAGE.md.
set -euo pipefail
. "${FLAGSCOPE_SRC:?}/tests/lib_it.sh"
count_failures
n=0
for f in "$FLAGSCOPE_SRC"/flagsets/presets/*.study; do
	n=$((n + 1))
	first=$(head -n 1 "$f")
	page=$(sed -n 's/^; \(doc\/[a-z0-9-]*\.md\) ".*" explains this preset.s table.*$/\1/p' <<< "$first")
	sec=$(sed -n 's/^; doc\/[a-z0-9-]*\.md "\(.*\)" explains this preset.s table.*$/\1/p' <<< "$first")
	if [ -z "$page" ] || [ -z "$sec" ]; then
		fail "$(basename "$f"):1: does not name its doc/ page and section ($first)"
		continue
	fi
	[ -f "$FLAGSCOPE_SRC/$page" ] || { fail "$(basename "$f"):1: no page $page"; continue; }
	grep -qxF "## $sec" "$FLAGSCOPE_SRC/$page" ||
		fail "$(basename "$f"):1: $page has no section \"$sec\""
done
[ "$n" -gt 0 ] || fail "no presets found in $FLAGSCOPE_SRC/flagsets/presets"
ok "$n presets checked"
[ "$failures" = 0 ] || { echo "FAIL: $failures preset(s)"; exit 1; }
echo PASS
