#!/bin/bash
# check_architecture_walk.sh [ROOT] - doc/architecture.md's "One sample's
# path" stays true: every "STEP FILE FUNCTION ..." line of its block names
# a FILE that exists and a FUNCTION defined in it (a line that starts with
# a return type and has "FUNCTION(" at the start of a definition).
# Expected: every line checks; exits 1 naming the ones that do not.
set -uo pipefail
root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
page=$root/doc/architecture.md
block=$(awk '/^## One sample.s path/ {s = 1; next} s && /^```/ {if (b) exit; b = 1; next} s && b' "$page")
[ -n "$block" ] || { echo "FAIL: $page has no \"One sample's path\" block"; exit 1; }
bad=0
n=0
while read -r step file fn _; do
	n=$((n + 1))
	if [ ! -f "$root/$file" ]; then
		echo "FAIL: $step: $file does not exist"
		bad=$((bad + 1))
	elif ! grep -qE "^[a-z].*[ *]$fn\(" "$root/$file"; then
		echo "FAIL: $step: $file defines no $fn()"
		bad=$((bad + 1))
	fi
done <<<"$block"
[ "$n" -ge 10 ] || { echo "FAIL: only $n steps in the walk"; exit 1; }
[ "$bad" = 0 ] || exit 1
echo "ok: $n steps of one sample's path, each function defined in its file"
