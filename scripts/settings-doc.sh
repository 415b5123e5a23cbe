#!/bin/sh
# settings-doc.sh BINARY [PAGE] - put `BINARY help settings --format markdown`
# (the study settings' table, flagsets/settings.c) between PAGE's lines
# "<!-- settings: begin ... -->" and "<!-- settings: end -->" (default PAGE:
# doc/study-format.md beside this script), so the page's reference is the
# program's; tests/it_settings_doc.sh fails while they differ.
set -eu
bin=$1
page=${2:-$(dirname "$0")/../doc/study-format.md}
grep -q '^<!-- settings: begin' "$page" && grep -q '^<!-- settings: end -->' "$page" || {
	echo "settings-doc.sh: $page has no settings markers (add '<!-- settings: begin -->' and '<!-- settings: end -->' lines)" >&2
	exit 2
}
tmp=$(mktemp)
trap 'rm -f "$tmp" "$tmp.table"' EXIT
"$bin" help settings --format markdown >"$tmp.table"
awk -v table="$tmp.table" '
	/^<!-- settings: begin/ { print; while ((getline l < table) > 0) print l; skip = 1; next }
	/^<!-- settings: end -->/ { skip = 0 }
	!skip { print }' "$page" >"$tmp"
cat "$tmp" >"$page"
