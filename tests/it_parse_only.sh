#!/bin/bash
# it_parse_only.sh - flagscope --parse-only CMD ARGS: a table of command
# lines, each accepted (exit 0, nothing printed, nothing written) or refused
# (exit 2, one line).  Every line it refuses is run for real too, in an
# empty folder: the command must refuse it as well (exit 2, nothing written),
# so --parse-only never refuses what the command takes.  The lines it takes
# that the command itself refuses (checks made after the parse, which need
# the study or database) are listed as KNOWN.
set -uo pipefail
. "${FLAGSCOPE_SRC:?}/tests/lib_it.sh"
scratch it_parse_only
count_failures

# expect|command line (words split by eval)
cases=$(cat <<'T'
ok|run
ok|run my.study -j2 --dry-run
ok|run my.study --pin 0 --source coremark=local:/src/coremark
ok|report --format json
ok|report --pivot libc --metric libcbench/malloc_big1
ok|list workloads
ok|list workloads my.study --format json
ok|list toolchains
ok|list presets
ok|list metrics --format json
ok|verify a.out --expect "-O3 -march=x86-64-v3"
ok|compare old.db new.db
ok|compare --baseline "O2 gcc" --candidate "O3 clang"
ok|compare --against before
ok|recommend --format make.conf -o make.conf.fragment
ok|why --db flagscope.db "gcc O2" "O3 clang" crc32
ok|search my.study --strategy ensemble --budget 40evals
ok|sysroot build --target mips64el-linux-gnuabi64 --cflags "-march=loongson2f -mabi=64"
ok|sysroot list
ok|sysroot build --target aarch64-linux-gnu
ok|merge out.db a.db b.db
ok|slurm my.study --shards 4
ok|baseline save before
ok|baseline list
ok|workload new zstd --source debian:libzstd
no|run a.study b.study
no|run --jobs 0
no|run --bogus
no|run --db
no|run --dry-run=yes
no|run --format yaml
no|report extra
no|report --format pdf
no|list
no|list presetz
no|list presets extra
no|list metrics extra
no|verify
no|compare old.db
no|compare --against before old.db
no|merge out.db
no|why a b
no|sysroot
no|sysroot build extra
no|baseline delete
no|baseline keep x
no|workload new
no|workload new zstd
no|sysroot build --cflags -O2
no|slurm my.study
no|workload old x --source debian:x
no|search
no|slurm
no|frobnicate
T
)
known=0
while IFS='|' read -r want line; do
	eval "set -- $line"
	out=$(fs --parse-only "$@" 2>&1)
	rc=$?
	if [ "$want" = ok ]; then
		[ $rc = 0 ] && [ -z "$out" ] || fail "--parse-only $line: exit $rc, '$out' (wanted 0, silent)"
		continue
	fi
	[ $rc = 2 ] || fail "--parse-only $line: exit $rc (wanted 2)"
	[ "$(printf '%s\n' "$out" | wc -l)" = 1 ] || fail "--parse-only $line: not one line: $out"
	# the command itself, in an empty folder, refuses it too
	mkdir -p real && (cd real && fs "$@" >/dev/null 2>&1 </dev/null)
	real=$?
	[ $real = 2 ] || fail "$line: --parse-only refused it but the command exits $real"
	[ -z "$(ls -A real)" ] || fail "$line: the command wrote $(ls -A real | tr '\n' ' ')"
	rm -rf real
done <<<"$cases"
ok "$(grep -c '^ok|' <<<"$cases") lines taken, $(grep -c '^no|' <<<"$cases") refused as the commands refuse them"

# what --parse-only cannot see (the commands check it later): said, not failed
for line in 'compare --against before --baseline O2' 'run --shard 3/2' \
	'search my.study --budget lots'; do
	eval "set -- $line"
	if fs --parse-only "$@" 2>/dev/null; then
		echo "KNOWN: --parse-only takes '$line' (the command refuses it after its parse)"
		known=$((known + 1))
	fi
done
echo "known gaps: $known"

# nothing was done: no database, no cache, no recipe
[ -z "$(ls -A . | grep -v '^cache$')" ] || fail "files left: $(ls -A)"
finish_counted
