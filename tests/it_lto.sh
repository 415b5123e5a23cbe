#!/bin/bash
# it_lto.sh - LTO verified in the ELF and LTO failures said as such, on the
# fixture workloads (tests/fixtures/workloads), a study of O2 against
# "O2 lto" (-O2 -flto=auto), run twice each:
#   tiny     built with LTO: ok, its facts hold a GCC link-time unit
#            (-fltrans), and flagscope verify --expect "-O2 -flto=auto" on the
#            binary agrees;
#   ltodrop  links with -fno-lto: ok without LTO, FLAGS_NOT_APPLIED "no LTO"
#            under it;
#   ltobad   a type mismatch across units: ok without LTO, BUILD_FAILED
#            "LTO link failed: ... lto-type-mismatch" under it.
# Then report --pivot distro and recommend --format package.env show it.
# Takes about 15 s.
set -uo pipefail
. "$FLAGSCOPE_SRC/tests/lib_it.sh" it_lto
command -v gcc >/dev/null || { echo "SKIP: gcc is not installed"; exit 77; }
for w in ltobad ltodrop; do
	cp -r "$FLAGSCOPE_SRC/tests/fixtures/workloads/$w" "$T/home/workloads/"
done

cat >lto.study <<'S'
; the LTO question on the fixtures: see tests/it_lto.sh
[study]
name = lto-fixtures
workloads = tiny ltodrop ltobad
repeat = 2
baseline = O2

[axis opt]
O2 = -O2
lto = -O2 -flto=auto
S
fs run lto.study --db lto.db -q -j2 >run.out 2>&1 || true
status() { sql lto.db "SELECT b.status || ' ' || b.detail FROM builds b JOIN configs c ON
	c.study=b.study AND c.id=b.config_id WHERE c.label='$1' AND b.workload='$2'"; }

for w in tiny ltodrop ltobad; do
	s=$(status O2 $w)
	[ "${s%% *}" = ok ] || fail "$w at -O2: $s ($(cat run.out))"
done
s=$(status lto tiny)
[ "${s%% *}" = ok ] || fail "tiny under LTO: $s"
s=$(status lto ltodrop)
case $s in "flags_not_applied "*"no LTO: no unit was optimised at link time"*) ;;
	*) fail "ltodrop under LTO: $s" ;; esac
s=$(status lto ltobad)
case $s in "build_failed LTO link failed: "*"lto-type-mismatch"*) ;;
	*) fail "ltobad under LTO: $s" ;; esac

# the stored facts of tiny under LTO name the link-time unit; verify agrees
out_has -- -fltrans sql lto.db "SELECT b.facts FROM builds b JOIN configs c ON c.study=b.study AND
	c.id=b.config_id WHERE c.label='lto' AND b.workload='tiny'" ||
	fail "no -fltrans unit in tiny's facts"
bin=
for f in $(find cache -type f -name tiny -perm -u+x); do
	"$FLAGSCOPE_BIN" verify "$f" --expect "-O2 -flto=auto" >/dev/null 2>&1 && { bin=$f; break; }
done
[ -n "$bin" ] || fail "no cached tiny passes verify --expect '-O2 -flto=auto'"
fs verify "$(out_head 1 find cache -type f -name ltodrop -perm -u+x)" --expect "-O2 -flto=auto" \
	>v.out 2>&1 && fail "an ltodrop binary passes the LTO check: $(cat v.out)"

# what the outputs say
fs report --db lto.db --pivot distro >pivot.out 2>&1 || fail "pivot: $(cat pivot.out)"
grep -q "ltobad, lto: build_failed: LTO link failed" pivot.out || fail "pivot: $(cat pivot.out)"
fs recommend --db lto.db --format package.env -o env >rec.out 2>&1 || fail "recommend: $(cat rec.out)"
grep -q "#   ltobad: build_failed: LTO link failed" env/make.conf.fragment ||
	fail "no no-lto list: $(cat env/make.conf.fragment)"
echo "it_lto: ok"
