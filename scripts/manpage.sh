#!/bin/sh
# manpage.sh BINARY VERSION INCLUDE OUT - flagscope.1 from `flagscope --help`
# and every command's --help (help2man), plus doc/flagscope.h2m's sections
# (the search path, files, environment).  Run by the build (cmake/install.cmake).
set -eu
bin=$1 version=$2 include=$3 out=$4
# a sanitizer build (scripts/test.sh) must not fail the man page over a leak report
export ASAN_OPTIONS=detect_leaks=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp "$include" "$tmp/all.h2m"
{
	echo "[COMMANDS]"
	for c in $("$bin" --help | sed -n '/^commands:/,/^$/s/^  \([a-z]\+\) .*/\1/p'); do
		echo ".SS \"flagscope $c\""
		echo ".nf"
		# roff: a leading dot or quote would be a request; help2man: a
		# leading [ or / would start a section or a /pattern/ (recommend's
		# "/etc/portage/..." line hid every command after it); backslashes
		# escaped
		"$bin" "$c" --help | sed -e 's/\\/\\e/g' -e "s/^\([.'[/]\)/\\\\\&\1/"
		echo ".fi"
	done
} >> "$tmp/all.h2m"
help2man --no-info --no-discard-stderr --version-string="$version" \
	--name="rank compiler flag, libc and linkage configurations on real workloads" \
	--include="$tmp/all.h2m" --output="$out" "$bin"
