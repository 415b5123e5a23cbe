#!/bin/bash
# it_tour.sh - the README's "Ten minutes on your own program" runs as
# written, from an installed copy, on a program flagscope does not bundle.
# The test plays the user: it installs flagscope into a scratch prefix (no
# FLAGSCOPE_HOME, a fresh HOME, the prefix's bin/ first on PATH), writes
# ~/src/hello (a C program and a Makefile honouring CC, CFLAGS, LDFLAGS),
# then takes the tour's blocks in order: each ```sh line is run as is, each
# ```ini block is written to the file its first comment names (a file that
# exists keeps what comes before the block's first [section], as the tour
# tells the user to).  Expected: every command exits 0, the run ranks the
# three configurations with hello ok in each, report.html is written and
# recommend prints a make.conf fragment.
set -euo pipefail
. "${FLAGSCOPE_SRC:?}/tests/lib_it.sh" it_tour
count_failures
build=$(dirname "$FLAGSCOPE_BIN")
cmake --install "$build" --prefix "$T/prefix" >install.log 2>&1 ||
	{ echo "SKIP: cmake --install failed: $(tail -1 install.log)"; exit 77; }
unset FLAGSCOPE_HOME FLAGSCOPE_CACHE FLAGSCOPE_PATH XDG_CACHE_HOME XDG_DATA_HOME
export HOME=$T/home PATH=$T/prefix/bin:$PATH
mkdir -p "$HOME/src/hello"
cat >"$HOME/src/hello/hello.c" <<'C'
#include <stdio.h>
#include <stdlib.h>
/* a checksum of n steps of a linear congruential generator */
int main(int argc, char **argv)
{
	unsigned long n = argc > 1 ? strtoul(argv[1], 0, 10) : 1000, x = 1, s = 0;
	for (unsigned long i = 0; i < n; i++) {
		x = x * 6364136223846793005UL + 1442695040888963407UL;
		s += x >> 33;
	}
	printf("%lu\n", s);
	return 0;
}
C
printf 'CC ?= cc\nCFLAGS ?= -O2\nhello: hello.c\n\t$(CC) $(CFLAGS) $(LDFLAGS) -o $@ hello.c\n' >"$HOME/src/hello/Makefile"

# the tour as a script: sh lines as they are, ini blocks as files
awk '
/^<!-- tour/ { on = 1; next }
/^<!-- \/tour -->/ { on = 0 }
!on { next }
/^```/ {
	if (block == "") {
		block = substr($0, 4); first = 1; n++
		if (block == "ini") printf "cat >\"$T/block%d\" <<'"'"'TOUR_INI'"'"'\n", n
	} else {
		if (block == "ini") printf "TOUR_INI\nput_ini \"$T/block%d\" \"%s\"\n", n, file
		block = ""
	}
	next
}
block == "sh" { print; next }
block == "ini" {
	if (first) { file = $2; sub(/,$/, "", file); first = 0 }
	print
}' "$FLAGSCOPE_SRC/README.md" >tour.body
[ -s tour.body ] || fail "no tour found in README.md (<!-- tour --> ... <!-- /tour -->)"
{
	echo 'set -xeuo pipefail'
	# put_ini BLOCK FILE: FILE is BLOCK; a FILE that exists keeps its lines
	# before the block's first [section]
	echo 'put_ini() {'
	echo '	local sec; sec=$(grep -m1 "^\[" "$1")'
	echo '	if [ -f "$2" ] && grep -qxF "$sec" "$2"; then'
	echo '		{ sed "/^$(sed "s/[][]/\\\\&/g" <<<"$sec")\$/,\$d" "$2"; cat "$1"; } >"$2.new" && mv "$2.new" "$2"'
	echo '	else mkdir -p "$(dirname "$2")" && cp "$1" "$2"; fi'
	echo '}'
	cat tour.body
} >tour.sh
if ! (cd "$HOME" && T=$T bash "$T/tour.sh") >tour.out 2>tour.err </dev/null; then
	fail "the tour stopped: $(tail -5 tour.err) (script: $T/tour.sh)"
	finish_counted
fi
[ "$(command -v flagscope)" = "$T/prefix/bin/flagscope" ] || fail "the tour ran $(command -v flagscope), not the installed copy"
proj=$HOME/proj
grep -q '^binaries = hello' "$proj/workloads/hello/recipe.ini" || fail "the recipe was not completed: $(cat "$proj/workloads/hello/recipe.ini")"
grep -q '^source = local:' "$proj/workloads/hello/recipe.ini" || fail "the recipe lost its [workload] section"
for c in O2 O3 O3-native; do
	grep -qE "^[0-9]+ +$c .* ok" tour.out || fail "the ranking has no ranked '$c' with ok: $(cat tour.out)"
done
[ -s "$proj/report.html" ] && grep -q '<svg' "$proj/report.html" || fail "report.html was not written with its charts"
grep -q 'COMMON_FLAGS=' tour.out || fail "recommend printed no make.conf fragment: $(tail -20 tour.out)"
ok "the README's tour ran from $T/prefix on ~/src/hello: 3 configurations ranked, report.html, a make.conf fragment"
finish_counted
