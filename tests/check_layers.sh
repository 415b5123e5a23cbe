#!/bin/bash
# check_layers.sh [ROOT] - fail when a lower layer includes a higher one.
#
# Reads every #include "..." and #include <...> of every .c and .h under
# the layer folders of ROOT (default: the source tree this script is in),
# resolves it as the compiler does with -I ROOT ("../x/y.h" and "./y.h"
# from the including file's folder, "a/../b/y.h" normalised), and checks
# the layer of the folder it lands in against the table below, which is ../shared/DESIGN.md's "Layers"
# picture and CMakeLists.txt's flagscope_layer() lines.  Prints one line
# per violation, "FILE:LINE: includes X, but LAYER may include only ...",
# and exits 1 when there is any; 0 and a count when there is none.
# The build enforces the same rule (each layer compiles against its own
# include tree, CMakeLists.txt; check_layer_includes.sh proves it); this
# script also reads the files the build does not compile, and names the
# rule a line breaks.
set -euo pipefail

root=${1:-$(cd "$(dirname "$0")/.." && pwd)}

# folder -> layer
declare -A layer_of=(
	[base]=base
	[flagsets]=model [workloads]=model
	[harness]=harness
	[analysis]=analysis
	[pipeline]=pipeline
	[search]=search
	[explorer]=explorer
)
# layer -> the layers it may include (itself first)
declare -A may=(
	[base]="base"
	[model]="model base"
	[harness]="harness model base"
	[analysis]="analysis model base"
	[pipeline]="pipeline harness analysis model base"
	[search]="search pipeline analysis model base"
	[explorer]="explorer search pipeline harness analysis model base"
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

# include_path DIR KIND INC: sets path to the file INC names, relative to
# ROOT, when included from a file in DIR ("q" for "INC", "a" for <INC>): a
# quoted include is looked up beside the includer first, as the compiler
# does.  (A variable, not output: a subshell per include costs seconds.)
include_path() {
	local dir=$1 kind=$2 inc=$3
	case "$kind:$inc" in
	q:./* | q:../*) path=$dir/$inc ;;
	q:*) if [ -e "$root/$dir/$inc" ]; then path=$dir/$inc; else path=$inc; fi ;;
	*) path=$inc ;;
	esac
	case "/$path/" in
	*/./* | */../*) path=$(realpath -m --relative-to="$root" "$root/$path") ;;
	esac
}

bad=0
files=0
for dir in "${!layer_of[@]}"; do
	[ -d "$root/$dir" ] || continue
	layer=${layer_of[$dir]}
	while IFS= read -r -d '' f; do
		rel=${f#"$root"/}
		files=$((files + 1))
		here=${rel%/*}
		while IFS=: read -r line kind inc; do
			include_path "$here" "$kind" "$inc"
			top=${path%%/*}
			[ "$top" = "$path" ] && continue      # <stdio.h>, or outside ROOT
			target=${layer_of[$top]:-}
			[ -n "$target" ] || continue          # not a layer folder
			case " ${may[$layer]} " in
			*" $target "*) continue ;;
			esac
			is_exception "$rel" "$target" && continue
			echo "$rel:$line: includes $inc, but $layer may include only: ${may[$layer]}"
			bad=$((bad + 1))
		done < <(awk '/^[ \t]*#[ \t]*include[ \t]*["<]/ {
				s = $0; sub(/^[^"<]*/, "", s); k = substr(s, 1, 1) == "<" ? "a" : "q"
				s = substr(s, 2); sub(/[">].*/, "", s); print FNR ":" k ":" s }' "$f")
	done < <(find "$root/$dir" -type f \( -name '*.c' -o -name '*.h' \) -print0)
done

if [ "$bad" -gt 0 ]; then
	echo "check_layers: $bad include(s) of a higher layer (move the code down, or the call up; see shared/DESIGN.md \"Layers\")"
	exit 1
fi
echo "check_layers: $files files, every include within its layer"
