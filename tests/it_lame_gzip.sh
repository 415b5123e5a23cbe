#!/bin/bash
# it_lame_gzip.sh - the lame and gzip recipes, driven by hand the way
# doc/recipe-format.md says the harness drives them: sources fetched by the
# debian: fetcher (upstream tarballs), inputs made by the [input] script,
# each workload built by its [build] script under two configurations
#   o2: gcc -O2 -frecord-gcc-switches           (dynamic)
#   o3: gcc -O3 -frecord-gcc-switches, -static  (static)
# and every [run] section run in its own folder.  Expected: PASS, with
#   - every compile unit recorded its switches and its last -O is the
#     configuration's (no unit got a later -O2 or a recipe's own -O3)
#   - the o3 binaries are static (no PT_INTERP, no dynamic section), the o2
#     ones dynamic: -static reached the link through libtool (-all-static)
#   - the cached source tree is not written by any build
#   - every run exits 0, its stdout equals `expect =` where given, and its
#     stdout and `outputs =` are byte-identical between o2 and o3
#   - gzip: decompress prints exactly the corpus, and the system's gunzip
#     restores the corpus from compress6/compress9's streams
#   - lame: the CBR 128 stream is 128 kbit/s long (320 kB for 20 s)
# gzip's corpus is 8 MiB, not the recipe's 50 (a copy of the recipe with
# that size, the rest as it is), lame's audio the recipe's own 20 s.
# SKIP when the Debian sources cannot be fetched (no deb-src entries: run
# scripts/deb-src.sh; or no network).
set -u
src=${FLAGSCOPE_SRC:?}
. "$src/tests/lib_it.sh"
tmp=${FLAGSCOPE_TEST_TMP:?}/it_lame_gzip
drv=$(dirname "${FLAGSCOPE_BIN:?}")/tests/test_fetch
rm -rf "$tmp"
mkdir -p "$tmp"
export FLAGSCOPE_CACHE=$tmp/cache
count_failures

# recipe.ini -> "build<TAB>script", "binaries<TAB>list", "input<TAB>script",
# "source<TAB>spec" and per [run]: "run<TAB>name<TAB>args<TAB>stdin<TAB>
# outputs<TAB>expect" (empty fields "-").  Inline comments follow inih:
# " ;" starts one.
parse_recipe() {
	awk '
	function trim(s) { sub(/^[ \t]+/, "", s); sub(/[ \t]+$/, "", s); return s }
	function dash(s) { return s == "" ? "-" : s }
	function flush() {
		if (inrun)
			printf "run\t%s\t%s\t%s\t%s\t%s\n", name, args, dash(stdin), dash(outputs), dash(expect)
		inrun = 0; args = stdin = outputs = expect = ""
	}
	/^\[/ {
		flush(); sect = $0; sub(/^\[/, "", sect); sub(/\].*$/, "", sect)
		if (sect ~ /^run( |$)/) { inrun = 1; name = trim(substr(sect, 4)); if (name == "") name = "run" }
		next
	}
	/^[ \t]*[;#]/ || /^[ \t]*$/ { next }
	{
		line = $0; sub(/[ \t]+;.*$/, "", line)
		k = trim(substr(line, 1, index(line, "=") - 1)); v = trim(substr(line, index(line, "=") + 1))
		if (sect == "build" && (k == "script" || k == "binaries")) printf "%s\t%s\n", k == "script" ? "build" : k, v
		else if (sect == "input" && k == "script") printf "input\t%s\n", v
		else if (sect == "workload" && k == "source") printf "source\t%s\n", v
		else if (inrun && k == "args") args = v
		else if (inrun && k == "stdin") stdin = v
		else if (inrun && k == "outputs") outputs = v
		else if (inrun && k == "expect") expect = v
	}
	END { flush() }' "$1"
}

field() { awk -F'\t' -v k="$1" '$1 == k { print $2 }' "$2"; }

# The last -O option of each recorded command line of an ELF file, one per
# line; "none" for a file without the section.
recorded_opt_levels() {
	if ! out_has 'GNU' readelf -p .GCC.command.line "$1" 2>/dev/null; then
		echo none
		return
	fi
	readelf -p .GCC.command.line "$1" | grep 'GNU' |
		awk '{ last = "none"; for (i = 1; i <= NF; i++) if ($i ~ /^-O/) last = $i; print last }'
}

check_switches() { # build_dir want_opt
	local dir=$1 want=$2 units=0 bad=0 o lv
	while IFS= read -r o; do
		units=$((units + 1))
		for lv in $(recorded_opt_levels "$o"); do
			if [ "$lv" != "$want" ]; then
				[ $bad -lt 5 ] && echo "  $o: last -O is $lv"
				bad=$((bad + 1))
			fi
		done
	done < <(find "$dir" -name '*.o')
	if [ $units -lt 10 ]; then
		fail "$dir: only $units object files found"
	elif [ $bad -gt 0 ]; then
		fail "$dir: $bad recorded command line(s) without $want last"
	else
		ok "$dir: all $units units recorded $want as their last -O"
	fi
}

is_static() { ! out_has 'INTERP' readelf -lW "$1" && ! out_has NEEDED readelf -d "$1" 2>/dev/null; }

# run_section WL CFG NAME ARGS STDIN OUTPUTS EXPECT
run_section() {
	local wl=$1 cfg=$2 name=$3 args=$4 stdin=$5 outputs=$6 expect=$7
	local build=$tmp/$wl/build-$cfg in=$tmp/$wl/in dir=$tmp/$wl/run-$cfg-$name
	mkdir -p "$dir"
	args=${args//'${IN}'/$in}
	args=${args//'${BUILD}'/$build}
	# shellcheck disable=SC2086
	set -- $args
	local prog=$1
	shift
	local input=/dev/null
	[ "$stdin" != - ] && input=$in/$stdin
	(cd "$dir" && timeout 900 "$build/$prog" "$@" <"$input" >stdout 2>stderr)
	local rc=$?
	if [ $rc != 0 ]; then
		fail "$wl/$cfg/$name: exit status $rc ($(tail -1 "$dir/stderr"))"
		return
	fi
	if [ "$expect" != - ] && ! cmp -s "$dir/stdout" "$src/workloads/$wl/$expect"; then
		fail "$wl/$cfg/$name: stdout differs from $expect"
	fi
	local f
	[ "$outputs" = - ] && outputs=
	for f in $outputs; do
		[ -s "$dir/$f" ] || fail "$wl/$cfg/$name: output $f missing or empty"
	done
}

(cd "$tmp" && small_recipe gzip 's/gencorpus 50 >corpus.bin/gencorpus 8 >corpus.bin/') || exit 1
for wl in gzip lame; do
	recipe=$src/workloads/$wl
	[ $wl = gzip ] && recipe=$tmp/workloads/gzip
	parsed=$tmp/$wl.parsed
	mkdir -p "$tmp/$wl"
	parse_recipe "$recipe/recipe.ini" >"$parsed"
	spec=$(field source "$parsed")
	if ! out=$("$drv" fetch "$spec" "$recipe" 2>&1); then
		echo "SKIP: cannot fetch $spec: $out"
		exit 77
	fi
	SRC=$(sed -n 1p <<<"$out")
	ok "$wl: $spec fetched into $SRC"
	touch "$tmp/$wl/marker"
	sleep 1 # mtimes have one-second granularity on some file systems

	mkdir -p "$tmp/$wl/in"
	if ! (cd "$tmp/$wl/in" && IN=$tmp/$wl/in RECIPE=$recipe sh -e -c "$(field input "$parsed")") \
		>"$tmp/$wl/input.log" 2>&1; then
		fail "$wl: input script failed: $(tail -3 "$tmp/$wl/input.log")"
		continue
	fi

	for cfg in o2 o3; do
		build=$tmp/$wl/build-$cfg
		mkdir -p "$build"
		opt=-O${cfg#o}
		ldflags=
		[ $cfg = o3 ] && ldflags=-static
		start=$(date +%s)
		if ! (cd "$build" && env CC=gcc CFLAGS="$opt -frecord-gcc-switches" LDFLAGS="$ldflags" \
			SRC="$SRC" RECIPE="$recipe" JOBS=2 HOST= SYSROOT= LC_ALL=C \
			sh -e -c "$(field build "$parsed")") >"$tmp/$wl/build-$cfg.log" 2>&1; then
			fail "$wl/$cfg: build failed: $(tail -3 "$tmp/$wl/build-$cfg.log")"
			continue
		fi
		ok "$wl/$cfg: built in $(($(date +%s) - start)) s"
		for b in $(field binaries "$parsed"); do
			if [ ! -x "$build/$b" ]; then
				fail "$wl/$cfg: binary $b missing"
			elif [ $cfg = o3 ] && ! is_static "$build/$b"; then
				fail "$wl/$cfg: $b is not static although LDFLAGS=-static"
			elif [ $cfg = o2 ] && is_static "$build/$b"; then
				fail "$wl/$cfg: $b is static although LDFLAGS is empty"
			else
				ok "$wl/$cfg: $b is $([ $cfg = o3 ] && echo static || echo dynamic)"
			fi
		done
		check_switches "$build" "$opt"

		while IFS=$'\t' read -r kind name args stdin outputs expect; do
			[ "$kind" = run ] || continue
			run_section "$wl" "$cfg" "$name" "$args" "$stdin" "$outputs" "$expect"
		done <"$parsed"
	done

	# o2 and o3 agree on every run's stdout and outputs
	while IFS=$'\t' read -r kind name args stdin outputs expect; do
		[ "$kind" = run ] || continue
		[ "$outputs" = - ] && outputs=
		for f in stdout $outputs; do
			a=$tmp/$wl/run-o2-$name/$f
			b=$tmp/$wl/run-o3-$name/$f
			if [ -f "$a" ] && [ -f "$b" ] && cmp -s "$a" "$b"; then
				ok "$wl/$name: $f identical under -O2 and -O3 ($(stat -c %s "$a") bytes)"
			else
				fail "$wl/$name: $f differs between -O2 and -O3 (or is missing)"
			fi
		done
	done <"$parsed"

	changed=$(out_head 5 find "$SRC" -newer "$tmp/$wl/marker")
	if [ -n "$changed" ]; then
		fail "$wl: the build wrote into the cached source: $changed"
	else
		ok "$wl: cached source untouched"
	fi
done

# workload-specific facts of the outputs
corpus=$tmp/gzip/in/corpus.bin
if [ -f "$tmp/gzip/run-o2-decompress/stdout" ]; then
	cmp -s "$tmp/gzip/run-o2-decompress/stdout" "$corpus" &&
		ok "gzip/decompress: stdout is the corpus" || fail "gzip/decompress: stdout is not the corpus"
	for lv in 6 9; do
		s=$tmp/gzip/run-o3-compress$lv/stdout
		if gzip -d -c <"$s" 2>/dev/null | cmp -s - "$corpus"; then
			ok "gzip/compress$lv: the system's gunzip restores the corpus ($(stat -c %s "$s") bytes)"
		else
			fail "gzip/compress$lv: the system's gunzip does not restore the corpus"
		fi
	done
fi
mp3=$tmp/lame/run-o2-cbr128/out.mp3
if [ -f "$mp3" ]; then
	size=$(stat -c %s "$mp3")
	# 128 kbit/s * 20 s = 320000 bytes, give or take a frame and the tag
	if [ "$size" -gt 316000 ] && [ "$size" -lt 324000 ]; then
		ok "lame/cbr128: $size bytes for 20 s at 128 kbit/s"
	else
		fail "lame/cbr128: $size bytes, not about 320000"
	fi
	v=$tmp/lame/run-o2-vbr2/out.mp3
	[ -f "$v" ] && [ "$(stat -c %s "$v")" != "$size" ] && ok "lame/vbr2: $(stat -c %s "$v") bytes (VBR)" ||
		fail "lame/vbr2: missing, or the same size as CBR"
fi

if [ $failures = 0 ]; then
	rm -rf "$tmp"
	echo "it_lame_gzip: all checks passed"
	exit 0
fi
echo "it_lame_gzip: $failures failure(s); files kept in $tmp"
exit 1
