#!/bin/bash
# quickstart.sh - set up, build, and run the default study: prints the
# ranking of gcc/clang x -O2/-O3 on the bundled workloads.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
bash "$here/scripts/setup.sh" "$here/build"
exec "$here/build/flagscope" run "$@"
