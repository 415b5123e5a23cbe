#!/bin/bash
# it_help.sh - the help texts and the man page say what the code does:
#   - every command's --help lists every option of its option table (the
#     option_spec entries of explorer/cmd_NAME.c, RESULTS_OPTIONS too), with
#     the same short letter, and no other;
#   - every --option a command's --help names (usage line, option texts,
#     details) is one that command takes, or one of the command it names
#     beside it ("flagscope merge", "compare --against"); the gaps in texts
#     that outputs5 and pipeline4 own (report, recommend, compare, run) are
#     listed as KNOWN, the others fail;
#   - every command has its page doc/flagscope-COMMAND.md, whose Synopsis
#     block is its --help's usage lines and whose Options table lists its
#     --help's options (with their short letters) and no other; no page
#     names a command that does not exist;
#   - the man page (the build's flagscope.1) reads without groff warnings, has
#     its sections, every command,
#     and in ENVIRONMENT every variable the program reads (getenv("NAME") in
#     the sources but tests/, bench/ and the workloads' own programs), and no
#     variable it does not; in FILES every folder an installed copy has
#     (cmake --install), and nothing it has not.
set -uo pipefail
. "${FLAGSCOPE_SRC:?}/tests/lib_it.sh"
scratch it_help
count_failures
src=$FLAGSCOPE_SRC
known=0

commands=$(fs --help | awk '/^commands:/ {on = 1; next} on && /^  [a-z]/ {print $1}')
[ "$(wc -w <<<"$commands")" -ge 10 ] || fail "flagscope --help lists $(wc -w <<<"$commands") commands"
fs --help | grep -q "'flagscope COMMAND --help' (or 'flagscope help COMMAND')" ||
	fail "flagscope --help's footer does not name both ways to a command's help: $(fs --help | tail -4)"

# "S --name" per option (S the short letter, 0 for none), sorted
table_options() {
	local f=$src/explorer/cmd_$1.c
	{
		cat "$f"
		grep -q 'RESULTS_OPTIONS(' "$f" && cat "$src/explorer/results_args.h"
	} | perl -ne '
		if (/\{"([a-z0-9-]+)", *(?:\x27(.)\x27|0), *OPT_/) { print(($2 // "0"), " --$1\n") }
		elsif (/\.long_name = "([a-z0-9-]+)"/) { my $n = $1; my $s = /\.short_name = \x27(.)\x27/ ? $1 : "0"; print "$s --$n\n" }' |
		sort -u
}
help_options() {
	fs "$1" --help | sed -n '/^options:/,/^$/p' | grep -oE '^ +(-[a-zA-Z], )?--[a-z0-9-]+' |
		sed -E 's/^ +//; s/^-(.), --/\1 --/; s/^--/0 --/' | grep -v -- ' --help$' | sort -u
}

alts=$(tr '\n' '|' <<<"$commands" | sed 's/|$//')
declare -A opts
all=" "
for c in $commands; do
	opts[$c]=" $(help_options "$c" | cut -d' ' -f2 | tr '\n' ' ')"
	all+="${opts[$c]} "
done
# programs whose options a help text may quote
tools="valgrind perf gcc clang cmake meson configure make qemu ssh sbatch lnt split apt-get"

for c in $commands; do
	[ -f "$src/explorer/cmd_$c.c" ] || { fail "$c: no explorer/cmd_$c.c"; continue; }
	t=$(table_options "$c")
	h=$(help_options "$c")
	[ -n "$t" ] || fail "$c: no option table found in explorer/cmd_$c.c"
	if [ "$t" != "$h" ]; then
		fail "$c --help and its option table differ: $(diff <(echo "$t") <(echo "$h") | grep '^[<>]' | tr '\n' ' ')"
	fi
	# every --option its help names: its own, or the command named beside it
	mine=" $(cut -d' ' -f2 <<<"$t" | tr '\n' ' ')--help "
	fs "$c" --help | grep -- '--[a-z]' | while IFS= read -r line; do
		for o in $(grep -oE -- '(^|[^a-z0-9-])--[a-z][a-z0-9-]*' <<<"$line" | grep -oE -- '--[a-z0-9-]+'); do
			[[ $mine == *" $o "* ]] && continue
			# another tool's (valgrind --tool=...): the word before it, or
			# an option no command has that the code below explorer/ passes
			# on (configure's --host)
			before=$(grep -oE -- "[a-z0-9-]+ $o" <<<"$line" | head -1 | cut -d' ' -f1)
			[[ " $tools " == *" $before "* ]] && continue
			if [[ $all != *" $o "* ]] && grep -rqF --include='*.c' -- "$o" "$src"/{base,flagsets,workloads,harness,analysis,pipeline}; then
				continue
			fi
			# another command's, named on the same line (flagscope run, merge --quiet)
			for other in $(grep -oE "(flagscope|$alts) ?($alts)?" <<<"$line" | grep -oE "$alts"); do
				[[ ${opts[$other]} == *" $o "* ]] && continue 2
			done
			echo "$c|$o|$line"
		done
	done
done >stray.txt
while IFS='|' read -r c o line; do
	case $c in
	report | recommend | compare | run)
		echo "KNOWN: $c --help names $o, which $c does not take: $line"
		known=$((known + 1)) ;;
	*) fail "$c --help names $o, which $c does not take: $line" ;;
	esac
done <stray.txt
ok "$(wc -w <<<"$commands") commands: --help and option tables agree; $known KNOWN stray options"

# an installed copy has no source tree: a --help names no script or file
# of it (issue 28: help --help sent the user to scripts/settings-doc.sh)
for c in $commands; do
	stray=$(fs "$c" --help | grep -E "(^|[ (\`'])(scripts|tests|bench)/" || true)
	[ -z "$stray" ] || fail "$c --help names a file of the source tree an installed copy lacks: $stray"
done

# each command's page: its synopsis and options are its --help's
usage_of() { fs "$1" --help | awk '/^usage: / {sub(/^usage: /, ""); print; on = 1; next} on && /^       / {sub(/^ +/, ""); print; next} {on = 0}' | sed -n '1,/^$/p' | grep -v '^$'; }
page_usage() { awk '/^## Synopsis/ {s = 1; next} s && /^```/ {if (b) exit; b = 1; next} s && b' "$1"; }
page_options() {
	sed -n '/^## Options/,/^## /p' "$1" | grep '^| `--' |
		perl -ne 'my ($l) = /`(--[a-z0-9-]+)/; my ($s) = /\(`-(.)`\)/; print(($s // "0"), " $l\n")' | sort -u
}
for c in $commands; do
	page=$src/doc/flagscope-$c.md
	[ -f "$page" ] || { fail "$c: no page doc/flagscope-$c.md (one page per command)"; continue; }
	[ "$(page_usage "$page")" = "$(usage_of "$c")" ] ||
		fail "doc/flagscope-$c.md's Synopsis is not $c --help's usage: $(diff <(page_usage "$page") <(usage_of "$c") | grep '^[<>]' | tr '\n' ' ')"
	d=$(diff <(page_options "$page") <(help_options "$c") | grep '^[<>]' | tr '\n' ' ')
	[ -z "$d" ] || fail "doc/flagscope-$c.md's Options and $c --help's differ (< page, > help): $d"
done
for page in "$src"/doc/flagscope-*.md; do
	c=$(basename "$page" .md)
	c=${c#flagscope-}
	grep -qx "$c" <<<"$commands" || fail "doc/flagscope-$c.md: no command $c (remove the page)"
done
ok "$(wc -w <<<"$commands") command pages in doc/: synopsis and options as their --help"

# the man page
man=$(dirname "$FLAGSCOPE_BIN")/flagscope.1
if [ ! -f "$man" ]; then
	echo "SKIP (part): no man page at $man (help2man missing at build time?)"
	finish_counted
fi
for s in NAME SYNOPSIS DESCRIPTION COMMANDS "SEARCH PATH" ENVIRONMENT FILES; do
	grep -q "^\.SH \"\?$s\"\?$" "$man" || fail "the man page has no $s section"
done
for c in $commands; do
	grep -q "^\.SS \"flagscope $c\"" "$man" || fail "the man page does not describe flagscope $c"
done
if command -v groff >/dev/null; then
	warnings=$(groff -ww -man -Tutf8 -z "$man" 2>&1)
	[ -z "$warnings" ] || fail "groff warns about the man page: $warnings"
else
	echo "SKIP (part): no groff to read the man page with"
fi
reads=$(cd "$src" && git ls-files '*.c' '*.h' 2>/dev/null | grep -vE '^(tests|bench)/|^workloads/[^/]+/' |
	xargs grep -ohE 'getenv\("[A-Z_][A-Z0-9_]*"\)' | sed -E 's/getenv\("(.*)"\)/\1/' | sort -u)
[ -n "$reads" ] || fail "found no getenv calls in the sources"
listed=$(sed -n '/^\.SH "\?ENVIRONMENT"\?/,/^\.SH/p' "$man" | awk 'p {print $2; p = 0} /^\.TP/ {p = 1}' | sort -u)
for v in $reads; do
	grep -qx "$v" <<<"$listed" || fail "the man page's ENVIRONMENT does not list $v (the program reads it)"
done
for v in $listed; do
	grep -qx "$v" <<<"$reads" || fail "the man page's ENVIRONMENT lists $v, which the program does not read"
done
ok "man page: its sections, $(wc -w <<<"$commands") commands, $(wc -w <<<"$reads") variables read and listed"

# its FILES: every PREFIX/ path is installed, and everything installed is named
files=$(sed -n '/^\.SH "\?FILES"\?/,/^\.SH/p' "$man" | awk '/^\.I PREFIX\// {sub(/^PREFIX\//, "", $2); print $2}')
if cmake --install "$(dirname "$FLAGSCOPE_BIN")" --prefix "$T/prefix" >install.log 2>&1; then
	for f in $files; do
		[ -e "$T/prefix/$f" ] || fail "the man page's FILES names PREFIX/$f, which is not installed"
	done
	for p in $(cd "$T/prefix" && ls -d bin/* lib/flagscope/* share/flagscope/* share/doc/flagscope); do
		named=0
		for f in $files bin/flagscope; do
			f=${f%/}
			[[ $p == "$f" || $p == "$f"/* || $f == "$p"/* ]] && named=1
		done
		[ $named = 1 ] || fail "the man page's FILES does not name PREFIX/$p (installed)"
	done
	ok "man page FILES: $(wc -w <<<"$files") installed paths"
else
	echo "SKIP (part): cmake --install failed, FILES not checked: $(tail -1 install.log)"
fi
finish_counted
