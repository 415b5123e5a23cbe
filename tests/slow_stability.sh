#!/bin/bash
# slow_stability.sh - repeat = stable (pipeline/schedule.c, analysis/rank.h
# "Settled") on a workload of controlled noise: the fixture `jitter`, whose
# metric `drawn` is 10 ms x FACTOR% x (1 + 4% normal noise), seeded by
# $JITTER_SEED (tests/fixtures/workloads/jitter).
# Expect: three configurations 6% and 30% apart (a 100, b 106, c 130);
# with the adaptive default two independent studies (seeds S and S+100)
# give the same rank groups in at least 9 of 10 seeds; with repeat = 5
# the reports of some seeds carry "not settled after 5 runs" (a 6%
# difference in 4% noise is often not settled by 5 runs), in text and JSON.
# About 60 to 100 s on 2 cores (40 small studies, every build cached after the first).
set -euo pipefail
. "$FLAGSCOPE_SRC/tests/lib_it.sh" slow_stability
. "$FLAGSCOPE_SRC/tests/lib_jitter.sh"
# expect: groups a < b < c
levels=("a = -O2 -DFACTOR=100" "b = -O2 -DFACTOR=106" "c = -O2 -DFACTOR=130")
jitter_study stable "" "${levels[@]}"
jitter_study fixed "repeat = 5" "${levels[@]}"
groups() { python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
print(' '.join('%s=%s' % (c['label'], c['rank']) for c in sorted(d['configs'], key=lambda c: c['label'])))" "$1"; }

same=0; fixed_same=0; fragile=0
for s in 1 2 3 4 5 6 7 8 9 10; do
	for t in $s $((s + 100)); do
		JITTER_SEED=$t fs run stable.study --db "stable$t.db" --format json -q > "stable$t.json"
		JITTER_SEED=$t fs run fixed.study --db "fixed$t.db" --format json -q > "fixed$t.json"
	done
	a=$(groups "stable$s.json"); b=$(groups "stable$((s + 100)).json")
	[ "$a" = "$b" ] && same=$((same + 1))
	[ "$(groups "fixed$s.json")" = "$(groups "fixed$((s + 100)).json")" ] && fixed_same=$((fixed_same + 1))
	if python3 -c "import json,sys; sys.exit(0 if json.load(open(sys.argv[1]))['fragile'] else 1)" "fixed$s.json"; then
		fragile=$((fragile + 1))
		out_has ": not settled after 5 runs" fs report --db "fixed$s.db" ||
			fail "seed $s, repeat = 5: JSON lists a fragile verdict, the text report does not"
	fi
	echo "# seed $s: stable $a | $b"
done
echo "# same rank groups: adaptive $same/10 seeds, repeat = 5 $fixed_same/10; repeat = 5 fragile in $fragile/10"
[ "$same" -ge 9 ] || fail "adaptive: the same rank groups in only $same of 10 seeds"
echo "ok 1 - repeat = stable: two studies give the same groups in $same of 10 seeds"
[ "$fragile" -ge 1 ] || fail "repeat = 5: no report says a verdict is not settled"
echo "ok 2 - repeat = 5: $fragile of 10 reports list the verdicts not settled"
# the stable studies stopped on their own or at the cap, and said so
n=$(python3 -c "
import json
print(max(c['workloads'][0]['n'] for s in range(1, 11) for c in json.load(open('stable%d.json' % s))['configs']))")
[ "$n" -le 30 ] || fail "repeat = stable ran $n repetitions, past max_repeat 30"
echo "ok 3 - at most max_repeat (30) repetitions ($n)"
