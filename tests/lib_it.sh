# lib_it.sh - sourced by integration tests that study the tiny fixture
# workload: a fresh scratch folder $T with tiny as the only workload
# (FLAGSCOPE_HOME) and its own build cache, the helpers fs (run flagscope)
# and fail, and the current directory set to $T.
# Usage: . "$FLAGSCOPE_SRC/tests/lib_it.sh" NAME
: "${FLAGSCOPE_BIN:?}" "${FLAGSCOPE_SRC:?}" "${FLAGSCOPE_TEST_TMP:?}"
T=$FLAGSCOPE_TEST_TMP/$1
rm -rf "$T"; mkdir -p "$T/home/workloads"
cp -r "$FLAGSCOPE_SRC/tests/fixtures/workloads/tiny" "$T/home/workloads/"
export FLAGSCOPE_HOME=$T/home FLAGSCOPE_CACHE=$T/cache
fs() { "$FLAGSCOPE_BIN" "$@"; }
fail() { echo "FAIL: $*" >&2; exit 1; }
cd "$T"
