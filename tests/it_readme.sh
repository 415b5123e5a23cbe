#!/bin/bash
# it_readme.sh - README.md and every doc/*.md say only what is true:
# tests/check_readme.sh on each (README.md also against an installed copy,
# cmake --install into a scratch prefix), then its self-test: one mistake
# at a time planted in a copy of the page that holds the line (a wrong
# option, a missing preset, a renamed workload, a wrong path, ...; in
# doc/recipe-format.md a recipe key, a build system, ...), each of which
# the check must report at the line it was planted on.
set -uo pipefail
. "${FLAGSCOPE_SRC:?}/tests/lib_it.sh"
scratch it_readme
count_failures
check=$FLAGSCOPE_SRC/tests/check_readme.sh
build=$(dirname "$FLAGSCOPE_BIN")

prefix=
if cmake --install "$build" --prefix "$T/prefix" >install.log 2>&1; then
	prefix=$T/prefix
else
	echo "SKIP (part): no installed copy to check PREFIX/ paths against: $(tail -1 install.log)"
fi

mkdir -p doc
cp "$FLAGSCOPE_SRC/README.md" README.md
pages="README.md"
for f in "$FLAGSCOPE_SRC"/doc/*.md; do
	cp "$f" doc/
	pages+=" doc/$(basename "$f")"
done
lines=0
for p in $pages; do
	bash "$check" "$p" $prefix >check.out 2>&1 || fail "$p: $(cat check.out)"
	lines=$((lines + $(grep -c '' "$p")))
done
ok "$(wc -w <<<"$pages") pages ($lines lines) checked: README.md ($(grep -c '' README.md) lines) and doc/"
[ "$(grep -c '' README.md)" -le 250 ] || fail "README.md has $(grep -c '' README.md) lines: at most 250 (move the rest into doc/)"

# kind, sed script for the copy (first match only), what the report must say:
# tab-separated
plants=$(cat <<'P'
unknown option in a command line	0,/^build\/flagscope run my.study -j2/s//build\/flagscope run my.study --jobz 2/	unknown option '--jobz'
option without its value	0,/^build\/flagscope report --format json /s//build\/flagscope report --format /	needs a value
a value an option does not take	0,/^build\/flagscope report --format json /s//build\/flagscope report --format yaml /	unknown format 'yaml'
a number out of range	0,/^build\/flagscope run my.study -j2/s//build\/flagscope run my.study -j0/	at least 1
an unknown command	0,/^build\/flagscope baseline save before/s//build\/flagscope keep save before/	is not a command
a subcommand word it does not know	0,/^flagscope list presets$/s//flagscope list presetz/	not fit its usage
an extra argument	0,/^build\/flagscope report --pivot distro /s//build\/flagscope report distro /	not fit its usage
a missing argument	0,/^build\/flagscope why --db flagscope.db "gcc O2" "O3 clang" crc32/s//build\/flagscope why --db flagscope.db "gcc O2" crc32/	not fit its usage
a missing preset	0,/^flagscope run lto  /s//flagscope run lto-thin  /	no preset 'lto-thin'
a renamed workload in --workloads	0,/run musl-vs-glibc --workloads libcbench/s//run musl-vs-glibc --workloads libc_bench/	no workload 'libc_bench'
a renamed workload in --source	0,/--source coremark=local/s//--source coremark2=local/	no workload 'coremark2'
why with a renamed workload	0,/"O3 clang" crc32 /s//"O3 clang" crc-32 /	no workload 'crc-32'
a renamed workload in a study	0,/^workloads = crc32 nbody/s//workloads = crc32 n-body/	no workload 'n-body'
a study key that does not exist	0,/^repeat = 5$/s//repaet = 5/	the study does not load
a wrong path	0,/`tests\/it_pgo.sh`/s//`tests\/it_pgo_gen.sh`/	no such path in the tree
a wrong folder in a path	0,/`harness\/pgo.c`/s//`flagsets\/pgo.c`/	no such path in the tree
a file name that does not exist	0,/`rank.c`/s//`ranking.c`/	no such file in the tree
a bare option no command has	0,/`--min-effect`/s//`--min-effects`/	no command has the option --min-effects
a command's option it does not have	0,/`run --pin`/s//`report --pin`/	'report' has no option --pin
a spelt-out command's option	0,/`flagscope run --noise-floor`/s//`flagscope run --noise-flor`/	'run' has no option --noise-flor
a spelt-out command that is not one	0,/`flagscope run --noise-floor`/s//`flagscope rerun --noise-floor`/	'rerun' is not a flagscope command
an environment variable nothing reads	0,/`\$FLAGSCOPE_HOME`/s//`$FLAGSCOPE_ROOT`/	FLAGSCOPE_ROOT: nothing reads it
an environment assignment nothing reads	0,/`FLAGSCOPE_RUN=...`/s//`FLAGSCOPE_RUNID=...`/	FLAGSCOPE_RUNID: nothing reads it
an installed path that is not installed	0,/`PREFIX\/share\/flagscope\/presets\/`/s//`PREFIX\/share\/flagscope\/studies\/`/	not in an installed copy
an installed folder the table leaves out	/`PREFIX\/share\/flagscope\/presets\/`/d	does not name PREFIX/share/flagscope/presets
a layout row for a folder that is not there	0,/^| `bench\/` |/s//| `benches\/` |/	'benches/' in the layout table: no such folder
a wrong script in a command line	0,/^bash scripts\/quickstart.sh/s//bash scripts\/quick-start.sh/	scripts/quick-start.sh: no such path
a package scripts/packages.txt does not have	0,/ninja-build pkg-config help2man/s//ninja-build pkgconfig help2man/	pkgconfig is not in scripts/packages.txt
a --parse-only line with a wrong option	0,/^build\/flagscope --parse-only run my.study -j2/s//build\/flagscope --parse-only run my.study -J2/	unknown option '-J2'
a mistyped study key in prose	0,/`tie_margin = 1%`/s//`tie_margn = 1%`/	'tie_margn': no study or recipe key
a folder the layout table leaves out	/^| `bench\/` |/d	no row for bench/
P
)
# plant DOCS TABLE: each row's mistake in a copy of the first of DOCS that
# the row's sed script changes, one at a time
n=0
plant() {
	local docs=$1 kind script want line out doc d
	while IFS=$'\t' read -r kind script want; do
		n=$((n + 1))
		doc= line=
		for d in $docs; do
			sed "$script" "$d" >planted.md
			line=$(diff "$d" planted.md | sed -n '1s/^\([0-9]*\)[acd].*/\1/p')
			[ -n "$line" ] && { doc=$d; break; }
		done
		if [ -z "$doc" ]; then
			fail "plant $n ($kind) changed nothing: its pattern is in none of $docs"
			continue
		fi
		[[ $script == */d ]] && line= # a row left out is said at its table's first row
		out=$(bash "$check" planted.md $prefix 2>&1)
		if [[ $want == *PREFIX* && -z $prefix ]]; then
			echo "SKIP: plant $n ($kind): no installed copy"
		elif ! grep -q "^planted.md:${line:-[0-9]*}:" <<<"$(grep -F -- "$want" <<<"$out")"; then
			fail "plant $n ($kind) in $doc not caught at line ${line:-?}: wanted '$want', got: ${out:-nothing}"
		fi
	done <<<"$2"
}
plant "$pages" "$plants"

# and in doc/recipe-format.md (its recipe blocks load as recipes)
plant doc/recipe-format.md "$(cat <<'P'
a recipe key that does not exist	0,/^stdin = corpus.bin/s//stdn = corpus.bin/	unknown key 'stdn'
a build system that does not exist	0,/^system = meson                ; autotools/s//system = mesonn                ; autotools/	unknown build system 'mesonn'
a wrong path	0,/`workloads\/python3`/s//`workloads\/python`/	no such path in the tree
a bare option no command has	0,/`--disable-shared`/s//`--disable-shard`/	no command has the option --disable-shard
a mistyped recipe key in prose	0,/`build_args =`/s//`build_arg =`/	'build_arg': no study or recipe key
a command's option it does not have	0,/`flagscope run --workloads NAME`/s//`flagscope run --workload NAME`/	'run' has no option --workload
P
)"
ok "$n kinds of planted mistakes, $((n - failures)) caught"
finish_counted
