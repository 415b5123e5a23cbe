#!/bin/bash
# check_layers.sh [ROOT] - fail when a lower layer includes a higher one.
#
# Reads every #include "DIR/x.h" of every .c and .h under the layer folders
# of ROOT (default: the source tree this script is in) and checks DIR's
# layer against the table below, which is ../shared/DESIGN.md's "Layers"
# picture and CMakeLists.txt's flagscope_layer() lines.  Prints one line
# per violation, "FILE:LINE: includes X, but LAYER may include only ...",
# and exits 1 when there is any; 0 and a count when there is none.
set -euo pipefail

root=${1:-$(cd "$(dirname "$0")/.." && pwd)}

# folder -> layer
declare -A layer_of=(
	[base]=base
	[flagsets]=model [workloads]=model
	[harness]=harness
	[analysis]=analysis
	[pipeline]=pipeline
	[explorer]=explorer
)
# layer -> the layers it may include (itself first)
declare -A may=(
	[base]="base"
	[model]="model base"
	[harness]="harness model base"
	[analysis]="analysis model base"
	[pipeline]="pipeline harness analysis model base"
	[explorer]="explorer pipeline harness analysis model base"
)
# Known exceptions, "FILE INCLUDED-LAYER", each with who removes it.
# (none today; add "FILE INCLUDED-LAYER" with a TODO naming who removes it)
exceptions=()

is_exception() {
	local e
	for e in "${exceptions[@]}"; do
		[ "$e" = "$1 $2" ] && return 0
	done
	return 1
}

bad=0
files=0
for dir in "${!layer_of[@]}"; do
	[ -d "$root/$dir" ] || continue
	layer=${layer_of[$dir]}
	while IFS= read -r -d '' f; do
		rel=${f#"$root"/}
		files=$((files + 1))
		while IFS=: read -r line inc; do
			top=${inc%%/*}
			[ "$top" = "$inc" ] && continue       # "x.h": the folder's own
			target=${layer_of[$top]:-}
			[ -n "$target" ] || continue          # not a layer folder
			case " ${may[$layer]} " in
			*" $target "*) continue ;;
			esac
			is_exception "$rel" "$target" && continue
			echo "$rel:$line: includes $inc, but $layer may include only: ${may[$layer]}"
			bad=$((bad + 1))
		done < <(awk '/^[ \t]*#[ \t]*include[ \t]*"/ {
				s = $0; sub(/^[^"]*"/, "", s); sub(/".*/, "", s); print FNR ":" s }' "$f")
	done < <(find "$root/$dir" -type f \( -name '*.c' -o -name '*.h' \) -print0)
done

if [ "$bad" -gt 0 ]; then
	echo "check_layers: $bad include(s) of a higher layer (move the code down, or the call up; see shared/DESIGN.md \"Layers\")"
	exit 1
fi
echo "check_layers: $files files, every include within its layer"
