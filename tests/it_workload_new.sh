#!/bin/bash
# it_workload_new.sh - flagscope workload new NAME --source SPEC [--system S]
# [--dir DIR]: a recipe skeleton.  Expected:
#   - the fixture tree tests/fixtures/systems (configure, CMakeLists.txt,
#     meson.build, Makefile) is guessed autotools (configure comes first, as
#     in debhelper); trees with only CMakeLists.txt, meson.build or Makefile
#     are guessed cmake, meson, make; --system wins; a tree with none leaves
#     system for the user; a relative local: path is made absolute
#   - the skeleton loads once binaries and [run] are filled in (two lines),
#     and `flagscope run` builds it ok (flags verified) and runs it
#   - without --dir it goes to the first writable folder of the search
#     path: $FLAGSCOPE_PATH's first folder's workloads/NAME, else
#     $XDG_DATA_HOME/flagscope/workloads/NAME, and `list workloads` finds it
#   - an existing recipe is kept (exit 1) unless --force; a bad name or
#     source is exit 2; a source that cannot be fetched writes nothing
#     (exit 1) unless --system is given
#   - a note on stderr when the new recipe shadows another (tiny, in the
#     test's home), is hidden by an earlier folder, or is not on the search
#     path at all; a tree without build files gets a script example
#   - with apt-get source working: debian:gzip is guessed autotools
set -uo pipefail
. "$FLAGSCOPE_SRC/tests/lib_it.sh" it_workload_new
FIX=$FLAGSCOPE_SRC/tests/fixtures/systems
system_of() { sed -n 's/^system = \([a-z]*\).*/\1/p' "$1"; }

out=$(fs workload new bs --source "local:$FIX" --dir home/workloads 2>new.err) || fail "new: $(cat new.err)"
[ "$out" = home/workloads/bs/recipe.ini ] || fail "printed '$out'"
[ "$(system_of "$out")" = autotools ] || fail "fixture tree: $(cat "$out")"
grep -q "^system = autotools  *; guessed from the tree's configure$" "$out" || fail "no reason: $(cat "$out")"
echo "ok: the fixture tree is guessed autotools"

mkdir -p trees/c trees/m trees/k trees/none
touch trees/c/CMakeLists.txt trees/m/meson.build trees/k/Makefile trees/none/README
for t in c:cmake m:meson k:make; do
	fs workload new "t${t%%:*}" --source "local:trees/${t%%:*}" --dir wl 2>/dev/null >/dev/null ||
		fail "new t${t%%:*}"
	[ "$(system_of "wl/t${t%%:*}/recipe.ini")" = "${t##*:}" ] || fail "tree ${t%%:*}: $(cat "wl/t${t%%:*}/recipe.ini")"
	grep -q "^source = local:$T/trees/${t%%:*}$" "wl/t${t%%:*}/recipe.ini" || fail "relative path kept"
done
# a path with blanks is kept as written, relative or absolute (it was
# refused, and its blanks would have been squeezed to one)
mkdir -p "trees/my  dir"
touch "trees/my  dir/Makefile"
for p in "trees/my  dir" "$T/trees/my  dir"; do
	rm -rf wl/sp
	fs workload new sp --source "local:$p" --dir wl >/dev/null 2>sp.err || fail "new local:$p: $(cat sp.err)"
	grep -qx "source = local:$T/trees/my  dir" wl/sp/recipe.ini || fail "local:$p: $(grep '^source' wl/sp/recipe.ini)"
done
fs workload new forced --source local:trees/c --system meson --dir wl >/dev/null 2>&1 || fail "--system"
[ "$(system_of wl/forced/recipe.ini)" = meson ] || fail "--system meson: $(cat wl/forced/recipe.ini)"
fs workload new none --source local:trees/none --dir wl >/dev/null 2>&1 || fail "new none"
grep -q "^; system = .*TODO" wl/none/recipe.ini && ! grep -q "^system" wl/none/recipe.ini ||
	fail "a tree without build files: $(cat wl/none/recipe.ini)"
echo "ok: cmake, meson, make guessed; --system wins; no build files leaves system to the user"

# the skeleton, completed, builds and runs
sed -i 's/^; binaries = PROGRAM .*/binaries = bsprog/' home/workloads/bs/recipe.ini
printf '[run]\nargs = bsprog 1000\ntimeout = 20\n' >>home/workloads/bs/recipe.ini
cat >bs.study <<'EOF'
[study]
workloads = bs
repeat = 1
[axis opt]
O2 = -O2
EOF
fs run bs.study --db bs.db -q >run.out 2>run.err || fail "run: $(tail -5 run.err)"
st=$(python3 -c 'import sqlite3; print(sqlite3.connect("bs.db").execute("select status from builds").fetchone()[0])')
[ "$st" = ok ] || fail "the completed skeleton's build: $st"
echo "ok: the completed skeleton builds (verified) and runs"

# default folder
XDG_DATA_HOME=$T/xdg fs workload new deflt --source local:trees/k >/dev/null 2>&1 || fail "default dir"
[ -f "$T/xdg/flagscope/workloads/deflt/recipe.ini" ] || fail "not in \$XDG_DATA_HOME/flagscope/workloads"
echo "ok: without --dir: \$XDG_DATA_HOME/flagscope/workloads/NAME"
mkdir -p mine
FLAGSCOPE_PATH=$T/mine:$T/elsewhere XDG_DATA_HOME=$T/xdg fs workload new onpath \
	--source local:trees/k >/dev/null 2>&1 || fail "default dir with FLAGSCOPE_PATH"
[ -f "$T/mine/workloads/onpath/recipe.ini" ] || fail "not in \$FLAGSCOPE_PATH's first folder"
[ ! -e "$T/xdg/flagscope/workloads/onpath" ] || fail "also written to the user's folder"
FLAGSCOPE_PATH=$T/mine fs list workloads >list.out 2>&1 || fail "list: $(cat list.out)"
grep -q "^onpath .*FLAGSCOPE_PATH" list.out || fail "list does not show it from FLAGSCOPE_PATH: $(grep onpath list.out)"
echo "ok: without --dir, with FLAGSCOPE_PATH: its first folder's workloads/NAME, listed from there"

# refusals
fs workload new bs --source local:trees/k --dir home/workloads >/dev/null 2>exists.err
[ $? = 1 ] && grep -q "exists (edit it, or --force" exists.err || fail "existing: $(cat exists.err)"
fs workload new bs --source local:trees/k --dir home/workloads --force >/dev/null 2>&1 || fail "--force"
[ "$(system_of home/workloads/bs/recipe.ini)" = make ] || fail "--force did not replace it"
fs workload new 'a/b' --source local:trees/k --dir wl >/dev/null 2>bad.err
[ $? = 2 ] || fail "bad name: $(cat bad.err)"
fs workload new x --source ftp:x --dir wl >/dev/null 2>bad.err
[ $? = 2 ] && grep -q "unknown source kind 'ftp'" bad.err || fail "bad source: $(cat bad.err)"
# a source that cannot be fetched (a mistyped name) writes nothing, exit 1,
# unless --system says what to write without fetching
fs workload new gone --source local:trees/gone --dir wl >/dev/null 2>gone.err
[ $? = 1 ] && [ ! -e wl/gone ] && grep -q "give --system SYSTEM to write the recipe without fetching" gone.err ||
	fail "unfetchable source: $(cat gone.err; ls wl)"
fs workload new gone --source local:trees/gone --system make --dir wl >/dev/null 2>gone.err ||
	fail "--system without fetching: $(cat gone.err)"
[ "$(system_of wl/gone/recipe.ini)" = make ] || fail "--system make: $(cat wl/gone/recipe.ini)"
fs workload old x >/dev/null 2>bad.err
[ $? = 2 ] || fail "workload old: $(cat bad.err)"
echo "ok: an existing recipe is kept without --force; bad names, sources and usage are exit 2"

# where the new recipe stands on the search path
XDG_DATA_HOME=$T/xdg fs workload new tiny --source local:trees/k >/dev/null 2>where.err || fail "new tiny"
grep -q "warning: workload new: it shadows $T/home/workloads/tiny" where.err || fail "no shadow note: $(cat where.err)"
mkdir -p workloads/twin && touch workloads/twin/recipe.ini
XDG_DATA_HOME=$T/xdg fs workload new twin --source local:trees/k >/dev/null 2>where.err || fail "new twin"
grep -q "warning: workload new: $T/workloads/twin hides it" where.err || fail "no hidden note: $(cat where.err)"
fs workload new lost --source local:trees/k --dir "$T/nowhere" >/dev/null 2>where.err || fail "new lost"
grep -q "warning: workload new: $T/nowhere/lost is not on the search path" where.err || fail "no lost note: $(cat where.err)"
grep -q '^; script = $CC $CFLAGS -o PROGRAM' wl/none/recipe.ini || fail "no script example: $(cat wl/none/recipe.ini)"
echo "ok: notes when the new recipe shadows, is hidden or is off the search path"

if out_has '\.dsc' apt-get source --print-uris gzip 2>/dev/null; then
	fs workload new gz --source debian:gzip --dir wl >/dev/null 2>gz.err || fail "debian:gzip: $(cat gz.err)"
	[ "$(system_of wl/gz/recipe.ini)" = autotools ] || fail "debian:gzip: $(cat wl/gz/recipe.ini)"
	echo "ok: debian:gzip is guessed autotools"
else
	echo "note: apt-get source does not work here: debian:gzip not tried"
fi
echo PASS
rm -rf "$T"
