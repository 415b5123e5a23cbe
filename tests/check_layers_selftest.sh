#!/bin/bash
# check_layers_selftest.sh - check_layers.sh fails on a tree that includes
# upward (tests/fixtures/layers/bad: each violation named by file:line,
# search/ past the pipeline into the harness among them),
# passes on one that does not
# (tests/fixtures/layers/good), and passes on the real tree.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
fail() { echo "FAIL: $*"; exit 1; }

out=$(bash "$here/check_layers.sh" "$here/fixtures/layers/bad") && fail "the bad tree passed: $out"
echo "$out"
for want in "flagsets/study.c:3: includes harness/meter.h" "analysis/why.c:5: includes pipeline/plan.h" \
	    "base/util.h:2: includes analysis/store.h" "analysis/why.c:3: includes harness/build.h" \
	    "harness/run.c:4: includes ../analysis/store.h" "harness/run.c:5: includes analysis/rank.h" \
	    "harness/run.c:6: includes base/../pipeline/pipeline.h" \
	    "harness/sub/deep.h:3: includes ../../explorer/options.h" \
	    "search/eval.c:4: includes harness/build.h, but search may include only: search pipeline analysis model base" \
	    "search/eval.c:6: includes explorer/options.h" "pipeline/plan.c:3: includes search/search.h" \
	    "11 include(s) of a higher layer"; do
	grep -qF "$want" <<<"$out" || fail "no '$want'"
done

out=$(bash "$here/check_layers.sh" "$here/fixtures/layers/good") || fail "the good tree failed: $out"
echo "$out"
out=$(bash "$here/check_layers.sh" "$here/..") || fail "the real tree: $out"
echo "$out"
echo "ok - check_layers"
