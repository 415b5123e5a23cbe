#!/bin/bash
# test.sh - set up, build with AddressSanitizer and UndefinedBehaviorSanitizer
# into build-test/, and run every test (slow ones included, each on its
# smallest configuration).  Extra arguments go to ctest (e.g. -LE slow).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
bash "$here/scripts/setup.sh" "$here/build-test" -DFLAGSCOPE_SANITIZE=ON
cd "$here/build-test"
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
ctest --output-on-failure -j2 "$@"
