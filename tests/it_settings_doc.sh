#!/bin/bash
# it_settings_doc.sh - doc/study-format.md's settings reference is made from
# the settings table, not written beside it: the lines between its
# "settings: begin" and "settings: end" markers are exactly what
# `flagscope help settings --format markdown` prints (one row per row of
# study_settings[], flagsets/settings.c), and scripts/settings-doc.sh, the
# command the failure names, puts them there.
# Expected: every check passes.
set -uo pipefail
. "${FLAGSCOPE_SRC:?}/tests/lib_it.sh" it_settings_doc
count_failures
page=$FLAGSCOPE_SRC/doc/study-format.md
regen="scripts/settings-doc.sh build/flagscope"

fs help settings --format markdown >table.md 2>err.txt || fail "help settings --format markdown: $(cat err.txt)"
sed -n '/^<!-- settings: begin/,/^<!-- settings: end -->/p' "$page" | sed '1d;$d' >page.md
[ -s page.md ] || fail "$page has no settings table between its markers (regenerate: $regen)"
if ! diff -u page.md table.md >diff.txt; then
	fail "$page's settings table is not the program's (regenerate: $regen): $(head -20 diff.txt)"
fi
rows=$(grep -c '^| `' table.md)
[ "$rows" -ge 25 ] || fail "the table has $rows settings"
ok "the page's table is the program's ($rows settings)"

# the script writes the table into a page whose table is stale, and
# leaves the rest of the page as it was
sed 's/^| `repeat` .*/| `repeat` | stale |/' "$page" >stale.md
bash "$FLAGSCOPE_SRC/scripts/settings-doc.sh" "$FLAGSCOPE_BIN" stale.md 2>err.txt ||
	fail "settings-doc.sh: $(cat err.txt)"
cmp -s stale.md "$page" || fail "settings-doc.sh did not restore the page: $(diff stale.md "$page" | head -5)"
ok "scripts/settings-doc.sh writes it"

# text: what run --help lists (and so the man page)
fs help settings >text.txt 2>err.txt || fail "help settings: $(cat err.txt)"
fs run --help >run.txt
n=0
while IFS= read -r line; do
	n=$((n + 1))
	grep -qxF -- "$line" run.txt || fail "run --help has no line '$line' (help settings has)"
done < <(sed -n '/^study settings/,$p' text.txt | grep -v '^study settings\|^it; doc')
[ "$n" -ge 50 ] || fail "help settings printed $n lines"
ok "help settings lists what run --help lists"
finish_counted
