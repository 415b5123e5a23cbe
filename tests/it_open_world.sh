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
#   2. workload new on a tree whose configure is a stub ("use cmake") or
#      wraps cmake: guessed cmake from its CMakeLists.txt (it was guessed
#      autotools, and every build ran the stub and failed); with no other
#      build file, no system and a recipe.ini:line advice to set system =.
#      An Autoconf-made configure stays autotools.
#   3. workload new writes a commented gentoo = line: debian:gzip gets the
#      atom of a recipe on the search path with that source (app-arch/gzip,
#      as the bundled gzip's), another package CATEGORY/NAME, so recommend
#      --format package.env can name it.
#   4. run --workloads NAME the study does not have: the message lists the
#      study's workloads (it only said the study did not have it).
#   5. local:~/PATH is $HOME/PATH in --source W=SPEC, a study's [sources],
#      a recipe's source = and workload new --source (it was taken as a
#      folder named ~ in the current, study or recipe folder).
#   6. local: with an empty path (local:, local:"", local:  ) in --source or
#      [sources] is refused (it was the current or the study's folder).
#   7. a local: path with ../ and ./ in [sources] or --source is shown
#      resolved in the source line (the report's fact): local:/x/tree, not
#      local:/x/studies/../y/./tree.
#   8. an empty meters = in a study is refused at its line, with the meters
#      known and the default (it silently meant the default).
#   9. a debian: download that fails names the package, its version and
#      the file, never the archive's host (apt's URL was printed); apt-get
#      is a stand-in here too.
#  10. list metrics: every meter's metrics, its set (default, --meters,
#      emulated) and whether it measures here: perf/cycles is "no" on a
#      machine whose perf says <not supported> (no hardware counters), "yes"
#      where it counts; time is always "yes".  (There was no such list: the
#      only one was --metric's error, perf/cycles in it everywhere.)
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
{ cat tiny.study; printf '[sources]\ntiny = debian:libbz2-dev\n'; } >bin-sources.study
refused "[sources] W = debian:BINARY" "bin-sources.study:10: $binmsg" \
	fs run bin-sources.study --db tiny.db --dry-run
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

# 2. a configure that is not Autoconf's
mkdir -p stub/cm stub/alone stub/ac
printf '#!/bin/sh\necho "this project builds with CMake: see INSTALL"\nexit 1\n' >stub/cm/configure
cp stub/cm/configure stub/alone/configure
printf '#!/bin/sh\n# Generated by GNU Autoconf 2.71 for x 1.0.\n' >stub/ac/configure
touch stub/cm/CMakeLists.txt stub/ac/CMakeLists.txt
chmod +x stub/*/configure
for t in cm:cmake ac:autotools; do
	fs workload new "s${t%%:*}" --source "local:stub/${t%%:*}" --dir wl >/dev/null 2>err.txt
	got=$(sed -n 's/^system = \([a-z]*\).*/\1/p' "wl/s${t%%:*}/recipe.ini" 2>/dev/null)
	if [ "$got" = "${t##*:}" ]; then
		ok "configure $t: $(grep '^system' "wl/s${t%%:*}/recipe.ini")"
	else
		fail "configure ${t%%:*}: system '$got', want ${t##*:}: $(cat err.txt)"
	fi
done
fs workload new salone --source local:stub/alone --dir wl >/dev/null 2>err.txt
line=$(grep -n '^; system =' wl/salone/recipe.ini 2>/dev/null | cut -d: -f1)
if [ -n "$line" ] && grep -q "wl/salone/recipe.ini:$line: no build system guessed: the tree's configure is not for autotools (it names cmake and Autoconf did not make it).*(set system = " err.txt; then
	ok "a stub configure alone: $(grep 'no build system' err.txt)"
else
	fail "a stub configure alone: line '$line', stderr: $(cat err.txt)"
fi

# 3. the gentoo = line (FLAGSCOPE_HOME hides the bundled recipes: a copy)
mkdir -p home/workloads/gz
sed 's/^source = bundled$/source = debian:gzip\ngentoo = app-arch\/gzip/' \
	home/workloads/tiny/recipe.ini >home/workloads/gz/recipe.ini
gentoo_of() { # NAME SPEC: the skeleton's gentoo line
	fs workload new "$1" --source "$2" --system make --dir wl >/dev/null 2>err.txt &&
		grep '^; gentoo = ' "wl/$1/recipe.ini"
}
for t in "g1 debian:gzip app-arch/gzip" "g2 debian:gzip=1.12-1 app-arch/gzip" \
	"g3 debian:nosuchpackage CATEGORY/nosuchpackage" "g4 local:stub/ac CATEGORY/g4"; do
	set -- $t
	line=$(gentoo_of "$1" "$2")
	if [[ $line == "; gentoo = $3 "* ]]; then
		ok "$2: $line"
	else
		fail "$2: gentoo line '$line', want $3: $(cat err.txt)"
	fi
done

# 4. --workloads naming a workload the study does not have
sed 's/^workloads = tiny$/workloads = tiny gz/' tiny.study >two.study
refused "--workloads NAME not in the study" \
	"two.study: --workloads names 'tinyy', which the study does not have (its workloads: tiny gz)" \
	fs run two.study --db tiny.db --workloads tinyy --dry-run

# 5. local:~/PATH
mkdir -p fakehome/src/tree
cp home/workloads/tiny/*.c fakehome/src/tree/
tree=$T/fakehome/src/tree
took() { # WHAT SOURCE CMD...: exits 0, the source line names SOURCE, nothing failed
	local what=$1 src=$2 rc=0
	shift 2
	HOME=$T/fakehome "$@" >out.txt 2>err.txt || rc=$?
	if [ $rc -eq 0 ] && grep -qF "source $src" err.txt && ! grep -q "failed" err.txt; then
		ok "$what: $(grep -m1 'source ' err.txt)"
	else
		fail "$what: exit $rc, stderr: $(head -c 600 err.txt)"
	fi
}
took "--source W=local:~/..." "tiny: local:$tree (" fs run tiny.study --source 'tiny=local:~/src/tree' --dry-run
mkdir -p studies
{ cat tiny.study; printf '[sources]\ntiny = local:~/src/tree\n'; } >studies/home.study
took "[sources] W = local:~/..." "tiny: local:$tree (" fs run studies/home.study --dry-run
mkdir -p home/workloads/lt
sed 's|^source = bundled$|source = local:~/src/tree|' home/workloads/tiny/recipe.ini \
	>home/workloads/lt/recipe.ini
sed 's/^workloads = tiny$/workloads = lt/' tiny.study >lt.study
# the recipe's own, as written (its fetch failed: no folder ~ in the recipe's)
took "a recipe's source = local:~/..." "lt: local:~/src/tree" fs run lt.study --dry-run
if HOME=$T/fakehome fs workload new lh --source 'local:~/src/tree' --system make --dir wl \
	>/dev/null 2>err.txt && grep -qx "source = local:$tree" wl/lh/recipe.ini; then
	ok "workload new --source local:~/...: $(grep '^source' wl/lh/recipe.ini)"
else
	fail "workload new --source local:~/...: $(grep '^source' wl/lh/recipe.ini) $(cat err.txt)"
fi

# 6. local: with no path
for p in 'local:' 'local:""' 'local:  '; do
	refused "--source W=$p" "local: needs a PATH" fs run tiny.study --db tiny.db --source "tiny=$p" --dry-run
	{ cat tiny.study; printf '[sources]\ntiny = %s\n' "$p"; } >studies/empty.study
	refused "[sources] W = $p" "empty.study:10: local: needs a PATH" fs run studies/empty.study --db tiny.db --dry-run
done

# 7. ../ and ./ resolved
real=$(cd fakehome/src/tree && pwd -P)
mkdir -p fakehome/src/other
{ cat tiny.study; printf '[sources]\ntiny = local:../fakehome/./src/other/../tree\n'; } >studies/dots.study
took "[sources] W = local:../x/./y/../z" "tiny: local:$real (from studies/dots.study:10;" \
	fs run studies/dots.study --dry-run
took "--source W=local:./x/../y" "tiny: local:$real (from --source;" \
	fs run tiny.study --source 'tiny=local:./fakehome/src/other/../tree' --dry-run

# 8. meters = with nothing after it
sed 's/^repeat = 1$/repeat = 1\nmeters =/' tiny.study >nometers.study
line=$(grep -n '^meters =' nometers.study | cut -d: -f1)
refused "meters = empty" "nometers.study:$line: meters = names no meter (name one or more of: .*rusage.*; or leave the line out for the default, " \
	fs run nometers.study --db tiny.db --dry-run

# 9. a failed download, without the host
mkdir -p bin9
sum=$(printf '%064d' 0)
cat >bin9/apt-get <<A
#!/bin/sh
case "\$*" in
*--print-uris*) echo "'http://mirror.invalid/debian/pool/main/g/gzip/gzip_1.12-1.dsc' gzip_1.12-1.dsc 9 SHA256:$sum" ;;
*--download-only*)
	echo "Get:1 http://mirror.invalid/debian bookworm/main gzip 1.12-1 (dsc) [9 B]"
	echo "E: Failed to fetch http://mirror.invalid/debian/pool/main/g/gzip/gzip_1.12-1.dsc  404  Not Found [IP: 192.0.2.1 80]"
	echo "E: Failed to fetch some archives."
	exit 100 ;;
*) exit 100 ;;
esac
A
chmod +x bin9/apt-get
sed 's/^workloads = tiny$/workloads = gz/' tiny.study >gz.study
PATH=$T/bin9:$PATH fs run gz.study --dry-run >out.txt 2>err.txt
if grep -q "cannot download gzip 1.12-1: Failed to fetch gzip_1.12-1.dsc 404 Not Found (" err.txt &&
	! grep -q "mirror.invalid\|://" err.txt; then
	ok "a failed download: $(grep -m1 'cannot download' err.txt)"
else
	fail "a failed download: $(cat err.txt)"
fi

# 10. list metrics
if ! fs list metrics >metrics.txt 2>err.txt; then
	fail "list metrics: $(cat err.txt)"
else
	pc=$(perf stat -x, -e cycles true 2>&1 >/dev/null) || pc="no perf"
	case $pc in
	*"<not supported>"*) want="no: this machine does not count it" ;;
	"no perf"*) want="no: perf: not available" ;;
	*) want=yes ;;
	esac
	grep -q "^perf/cycles  *perf  *default  *$want" metrics.txt &&
		grep -q "^time  *rusage  *default  *yes$" metrics.txt &&
		grep -q "^insns  *cachegrind  *--meters " metrics.txt ||
		fail "list metrics (perf says '$pc'): $(cat metrics.txt)"
	[ "$failures" != 0 ] || ok "list metrics: $(grep '^perf/cycles' metrics.txt)"
	fs list metrics --format json | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert {"name", "meter", "set", "here", "why"} <= set(d[0]), d[0]
assert [m for m in d if m["name"] == "time"][0]["here"] is True' || fail "list metrics --format json"
fi

finish_counted
