#!/bin/bash
# it_pgo.sh - the pgo axis end to end on the bundled crc32 and nbody (their
# `; test-args =` sizes, their own [train] sections): gcc and clang at -O2,
# pgo none and gen-use, one repetition.  Expected: PASS, with
#   - every build and run ok;
#   - per compiler and workload, the gen-use binary's code differs from the
#     none binary's (the bytes of .text, read with objcopy; size.text is
#     printed beside), so the profile reached the compiler;
#   - the measured gen-use binaries are not the instrumented ones: no
#     __gcov_init / __llvm_profile_runtime in them (nm);
#   - the stored fact pgo.train.NAME (read from the results database) names
#     the recipe's [train] run and the measured runs, and their inputs
#     differ; the report prints it;
#   - `flagscope verify --expect "-O2 -fprofile-use"` (gcc) and
#     "-fprofile-instr-use" (clang) accept the gen-use binaries and refuse
#     the none binaries;
#   - a second identical run builds nothing (the instrumented builds and
#     their profiles are reused, the profile-guided keys are stable);
#   - a cross-built configuration (MIPS n64 with Debian's cross glibc, when
#     its compiler is installed) is unsupported under gen-use, with why;
#   - a training run that writes no profile (/bin/true) fails the build;
#   - a recipe whose [train] run equals its [run] is refused with one line
#     recipe.ini:LINE before anything is built.
# SKIP when clang or llvm-profdata (scripts/packages.txt: clang, llvm-14)
# is missing.  About 20 s here.
set -u
: "${FLAGSCOPE_BIN:?}" "${FLAGSCOPE_SRC:?}" "${FLAGSCOPE_TEST_TMP:?}"
command -v clang >/dev/null || { echo "SKIP: clang is not installed"; exit 77; }
prof=$(dirname "$(readlink -f "$(command -v clang)")")/llvm-profdata
[ -x "$prof" ] || command -v llvm-profdata >/dev/null ||
	{ echo "SKIP: no llvm-profdata beside clang or on PATH (install llvm-14)"; exit 77; }
. "$FLAGSCOPE_SRC/tests/lib_it.sh"
scratch it_pgo
test_size_workloads crc32 nbody
cat >pgo.study <<'EOF'
[study]
workloads = crc32 nbody
repeat = 1
meters = rusage
[axis cc]
gcc = gcc
clang = clang
[axis opt]
O2 = -O2
[axis pgo]
none =
gen-use =
EOF
fs run pgo.study --db r.db >run.out 2>run.err || { cat run.err run.out; fail "run exited $?"; }
q() { sqlite3 r.db "$1"; }
[ "$(q "SELECT count(*) FROM builds WHERE status='ok'")" = 8 ] ||
	fail "not every build is ok: $(q "SELECT workload, status, detail FROM builds")"
bad=$(q "SELECT count(*) FROM runs WHERE status<>'ok'")
[ "$bad" = 0 ] || fail "$bad runs are not ok: $(q "SELECT * FROM runs WHERE status<>'ok' LIMIT 3")"

# the binary of configuration LABEL and workload W in the build cache
binary() {
	local key
	key=$(q "SELECT b.key FROM builds b JOIN configs c ON c.id=b.config_id AND c.study=b.study
		 WHERE c.label='$1' AND b.workload='$2'")
	echo "$FLAGSCOPE_CACHE/builds/$key/out/$2"
}
text_hash() { objcopy -O binary --only-section=.text "$1" "$T/text.bin" && sha256sum <"$T/text.bin"; }
size_text() {
	q "SELECT s.value FROM build_sizes s JOIN configs c ON c.id=s.config_id AND c.study=s.study
	   WHERE c.label='$1' AND s.workload='$2' AND s.metric='size.text'"
}
for cc in gcc clang; do
	for w in crc32 nbody; do
		none=$(binary "$cc O2 none" "$w")
		pgo=$(binary "$cc O2 gen-use" "$w")
		[ -x "$none" ] && [ -x "$pgo" ] || fail "$cc $w: binaries not found ($none, $pgo)"
		[ "$(text_hash "$none")" != "$(text_hash "$pgo")" ] ||
			fail "$cc $w: gen-use has the same code as none"
		echo "ok $cc $w: .text differs; size.text none $(size_text "$cc O2 none" "$w"), gen-use $(size_text "$cc O2 gen-use" "$w")"
		if out_has -E ' (__gcov_init|__llvm_profile_runtime)$' nm "$pgo"; then
			fail "$cc $w: the measured gen-use binary is instrumented"
		fi
		case $cc in gcc) use=-fprofile-use ;; clang) use=-fprofile-instr-use ;; esac
		fs verify "$pgo" --expect "-O2 $use" >verify.out 2>&1 ||
			{ cat verify.out; fail "$cc $w: verify refused the gen-use binary"; }
		if fs verify "$none" --expect "-O2 $use" >verify.out 2>&1; then
			fail "$cc $w: verify accepted $use on the none binary"
		fi
	done
done

# which training run was used, from the stored facts: not a measured input
for w in crc32 nbody; do
	fact=$(q "SELECT value FROM facts WHERE key='pgo.train.$w'")
	train=$(sed -n 's/^\[train\] \(.*\); measured:.*/\1/p' <<<"$fact")
	measured=$(sed -n 's/.*; measured: \[run\] \(.*\)$/\1/p' <<<"$fact")
	want=$(awk '/^\[train\]/ {t = 1; next} /^\[/ {t = 0} t && /^args = / {sub(/^args = /, ""); print}' "workloads/$w/recipe.ini")
	[ -n "$train" ] && [ -n "$measured" ] || fail "$w: fact pgo.train.$w is '$fact'"
	[ "$train" = "$want" ] || fail "$w: the fact's training run '$train' is not the recipe's '$want'"
	[ "$train" != "$measured" ] || fail "$w: trained on the measured input '$measured'"
	grep -q "pgo.train.$w: \[train\] $train" run.out || fail "$w: the report does not name the training run"
	echo "ok $w: trained on '$train', measured '$measured'"
done

# again: nothing to build
fs run pgo.study --db r.db >run2.out 2>run2.err || fail "second run exited $?"
grep -q 'builds in the last run: 0 built, 8 cached, 0 failed' run2.out ||
	fail "the second run built again: $(grep 'builds in' run2.out)"

# a cross-built configuration is refused under gen-use, with why (when
# Debian's MIPS cross compiler is here: glibc needs no sysroot build)
if command -v mips64el-linux-gnuabi64-gcc >/dev/null; then
	cat >cross.study <<'EOF'
[study]
workloads = crc32
[axis target]
n64 = mips64el-linux-gnuabi64
[axis libc]
glibc =
[axis pgo]
none =
gen-use =
EOF
	fs run cross.study --db c.db --build-only >cross.out 2>&1 || { cat cross.out; fail "cross study exited $?"; }
	got=$(sqlite3 c.db "SELECT c.label || ': ' || b.status || ' ' || b.detail FROM builds b
			    JOIN configs c ON c.id=b.config_id AND c.study=b.study ORDER BY c.label")
	grep -q '^n64 glibc gen-use: unsupported pgo gen-use: not for cross-built configurations' <<<"$got" &&
		grep -q '^n64 glibc none: ok' <<<"$got" || fail "cross: $got"
	echo "ok cross: gen-use unsupported, none built"
else
	echo "SKIP part: no mips64el-linux-gnuabi64-gcc for the cross refusal"
fi

# a training run that never runs the instrumented binary trains nothing:
# the build fails with why, instead of passing for a profile-guided one
cp -r workloads/crc32 workloads/untrained
sed -i 's|^args = crc32 1$|args = /bin/true|' workloads/untrained/recipe.ini
printf '[study]\nworkloads = untrained\n[axis pgo]\ngen-use =\n' >untrained.study
fs run untrained.study --db u.db --build-only >untrained.out 2>&1
got=$(sqlite3 u.db "SELECT status || ' ' || detail FROM builds")
grep -q '^build_failed pgo training run \[train\] /bin/true failed: it wrote no profile' <<<"$got" ||
	fail "a training run that wrote no profile: $got"
echo "ok: a training run without a profile fails the build"

# a training run equal to the measured one is refused at its line
sed -i 's/^args = crc32 1$/args = crc32  2/' workloads/crc32/recipe.ini
line=$(grep -n '^\[train\]' workloads/crc32/recipe.ini | cut -d: -f1)
if fs run pgo.study --db r.db --dry-run >refused.out 2>&1; then
	fail "a training run equal to the measured run was accepted"
fi
grep -q "workloads/crc32/recipe.ini:$((line + 1)): \[train\] runs what \[run\] measures" refused.out ||
	fail "refusal: $(cat refused.out)"
[ "$(grep -vc 'warning: workload .* shadows the bundled one' refused.out)" = 1 ] || fail "the refusal is not one line: $(cat refused.out)"
echo "PASS"
