#!/bin/bash
# it_open_world.sh - what a user writing their own recipes and sources hits
# (issue 13), each refused or taken before anything builds:
#   1. debian:NAME with NAME a binary package (libbz2-dev): refused naming
#      the source package (bzip2) from a recipe (recipe.ini:line), from
#      --source W=SPEC and from workload new --source; it was fetched with
#      --only-source, found nothing and every build failed.  apt-cache is a
#      stand-in on PATH here (its answers are Debian 12's), so this runs
#      without deb-src entries; a source name (bzip2) and a binary named as
#      its source (gzip) are taken.
set -uo pipefail
. "${FLAGSCOPE_SRC:?}/tests/lib_it.sh" it_open_world
count_failures

mkdir -p bin
cat >bin/apt-cache <<'A'
#!/bin/sh
# Debian 12's answers for bzip2 and gzip; nothing else is known
case "$1 $2 $3" in
"showsrc --only-source bzip2") printf 'Package: bzip2\nBinary: bzip2, libbz2-1.0, libbz2-dev\nVersion: 1.0.8-5\n\n' ;;
"showsrc --only-source gzip") printf 'Package: gzip\nBinary: gzip\nVersion: 1.12-1\n\n' ;;
"showsrc --only-source "*) ;;
"show libbz2-dev ") printf 'Package: libbz2-dev\nSource: bzip2 (1.0.8-5)\nVersion: 1.0.8-5+b1\n\n' ;;
"show gzip ") printf 'Package: gzip\nVersion: 1.12-1\n\n' ;;
*) echo "E: No packages found" >&2; exit 100 ;;
esac
A
chmod +x bin/apt-cache
export PATH=$T/bin:$PATH

tiny_study tiny.study 1 "refused: a binary package's name" O2
# refused (exit 2) before anything builds, the message naming the source
refused() { # WHAT PATTERN CMD...
	local what=$1 pat=$2 rc=0
	shift 2
	"$@" >out.txt 2>err.txt || rc=$?
	if [ $rc -ne 2 ] || ! grep -q -- "$pat" err.txt; then
		fail "$what: exit $rc, stderr: $(head -c 600 err.txt)"
	elif [ -e tiny.db ] && [ -n "$(sql tiny.db 'select 1 from builds limit 1')" ]; then
		fail "$what: something was built"
	else
		ok "$what: $(head -1 err.txt)"
	fi
	rm -f tiny.db
}

# 1. a binary package's name
binmsg="debian:libbz2-dev names a binary package, built from the source package bzip2 (write debian:bzip2)"
refused "--source W=debian:BINARY" "--source: $binmsg" \
	fs run tiny.study --db tiny.db --source tiny=debian:libbz2-dev --dry-run
mkdir -p home/workloads/bz
sed 's/^source = bundled$/source = debian:libbz2-dev/' home/workloads/tiny/recipe.ini \
	>home/workloads/bz/recipe.ini
line=$(grep -n '^source = ' home/workloads/bz/recipe.ini | cut -d: -f1)
sed 's/^workloads = tiny$/workloads = bz/' tiny.study >bz.study
refused "a recipe's source = debian:BINARY" "bz/recipe.ini:$line: $binmsg" \
	fs run bz.study --db tiny.db --dry-run
refused "workload new --source debian:BINARY" "workload new: --source: $binmsg" \
	fs workload new bz2 --source debian:libbz2-dev --system make --dir wl
refused "a pinned binary's version" "write debian:bzip2; apt-cache showsrc bzip2 lists its versions" \
	fs workload new bz2 --source "debian:libbz2-dev=1.0.8-5+b1" --system make --dir wl
for name in bzip2 gzip nosuchpackage; do
	if fs workload new "n$name" --source "debian:$name" --system make --dir wl >/dev/null 2>err.txt; then
		ok "debian:$name taken"
	else
		fail "debian:$name refused: $(cat err.txt)"
	fi
done

finish_counted
