#!/bin/bash
# it_recommend_choose.sh - recommend --choose LABEL: the configuration a
# distribution ships, named by hand.  tiny and tiny2 (gentoo =
# app-misc/tiny2; it prints a wrong sum under -O3) at O2 (the baseline) and
# O3, two repetitions.  Expected:
#   - without --choose: the rule keeps O2 (O3 broke tiny2), tiny2's
#     package.env line no-O3.conf is commented out;
#   - --choose O3: COMMON_FLAGS is -O3, the evidence says the rule chose O2,
#     tiny2's line is active, debian-rules.mk gives tiny2 (by DEB_SOURCE)
#     the baseline's lines and no-O3.mk; JSON recommends O3 with
#     rule_choice O2;
#   - --choose O4: exit 2 and one line naming the study's labels;
#   - --choose broken (its build fails on every workload): exit 2 and one
#     line saying it did not build, no contradicting "chosen" evidence;
#   - --choose half (its build fails on tiny2 only): chosen, said once as
#     not valid on every workload, not also "refused".
set -euo pipefail
. "$FLAGSCOPE_SRC/tests/lib_it.sh" it_recommend_choose
count_failures
sed -i 's/^script = /script = case "$CFLAGS" in *BREAK_ALL*) exit 1;; esac; /' home/workloads/tiny/recipe.ini
tiny_copy tiny2 "tiny, wrong under -O3" 'case "$CFLAGS" in *-O3*) CFLAGS="$CFLAGS -DPLANT_WRONG";; *BREAK_TWO*) exit 1;; esac; '
sed -i 's/^source = bundled/source = bundled\ngentoo = app-misc\/tiny2/' home/workloads/tiny2/recipe.ini
cat >c.study <<'S'
; expect: tiny2 wrong_output at O3, the rest ok
[study]
name = c
workloads = tiny tiny2
repeat = 2
baseline = O2
[axis opt]
O2 = -O2
O3 = -O3
broken = -O2 -DBREAK_ALL
half = -O2 -DBREAK_TWO
S
fs run c.study -q >run.out 2>&1 || fail "run: $(tail -3 run.out)"

fs recommend --format package.env -o rule >/dev/null 2>rule.err || fail "recommend: $(cat rule.err)"
grep -qx '#app-misc/tiny2 no-O3.conf' rule/package.env ||
	fail "without --choose tiny2's no-O3 line is not commented: $(cat rule/package.env)"

fs recommend --format package.env --choose O3 -o o3 >/dev/null 2>o3.err || fail "--choose O3: $(cat o3.err)"
grep -qx 'COMMON_FLAGS="-O3"' o3/make.conf.fragment || fail "--choose O3: $(grep FLAGS o3/make.conf.fragment)"
grep -qx '# chosen with --choose: O3 (the rule.s choice: O2)' o3/make.conf.fragment ||
	fail "--choose O3's evidence: $(grep -i chosen o3/make.conf.fragment)"
grep -qx 'app-misc/tiny2 no-O3.conf' o3/package.env || fail "--choose O3: tiny2's line not active: $(cat o3/package.env)"
grep -q 'CFLAGS="${CFLAGS} -O2"' o3/env/no-O3.conf || fail "env/no-O3.conf: $(cat o3/env/no-O3.conf)"

fs recommend --format dpkg-buildflags --choose O3 -o deb >/dev/null 2>deb.err || fail "dpkg-buildflags --choose O3: $(cat deb.err)"
grep -qx 'ifeq (,$(filter tiny2,$(DEB_SOURCE)))' deb/debian-rules.mk &&
	grep -qx 'include $(flagscope_dir)no-O3.mk' deb/debian-rules.mk ||
	fail "debian-rules.mk does not keep tiny2 off -O3: $(cat deb/debian-rules.mk)"

fs recommend --format json --choose O3 >c.json 2>json.err || fail "json --choose O3: $(cat json.err)"
python3 -c "import json; r = json.load(open('c.json')); assert (r['recommended'], r['rule_choice']) == ('O3', 'O2'), r" 2>/dev/null ||
	fail "JSON --choose O3: $(head -c 300 c.json)"

rc=0
fs recommend --choose O4 >bad.out 2>bad.err || rc=$?
[ $rc = 2 ] || fail "--choose O4: exit $rc, expected 2"
[ "$(wc -l <bad.err)" = 1 ] && grep -q "^flagscope: .*--choose 'O4'.*'O2', 'O3'" bad.err ||
	fail "--choose O4 is not one line naming the labels: $(cat bad.err)"

rc=0
fs recommend --choose broken >broken.out 2>broken.err || rc=$?
[ $rc = 2 ] || fail "--choose broken (built nowhere): exit $rc, expected 2: $(cat broken.out)"
[ "$(wc -l <broken.err)" = 1 ] &&
	grep -qx "flagscope: .*broken did not build (build_failed): nothing to recommend from it.*" broken.err ||
	fail "--choose broken is not one line saying it did not build: $(cat broken.err)"

fs recommend --choose half >half.out 2>half.err || fail "--choose half: $(cat half.err)"
grep -q '^# chosen with --choose: half ' half.out && grep -q '^#   not valid on every workload: build_failed' half.out ||
	fail "--choose half's evidence: $(grep -i 'chosen\|valid' half.out)"
! grep -q '^# refused half:' half.out || fail "--choose half is both chosen and refused: $(grep half half.out)"
finish_counted
