#!/bin/bash
# check_readme.sh FILE.md [PREFIX] - what a README says that can be checked
# against the program and the tree (tests/readme_extract.awk finds it):
#   - every command line of its ```sh blocks, through flagscope --parse-only
#     (options, their values, the arguments), and the presets (run, search,
#     slurm STUDY) and workloads (--workloads, --source NAME=, why's
#     WORKLOAD) it names exist; in its other command lines, the tree's
#     paths exist and apt-get install's packages are scripts/packages.txt's;
#   - in `code spans`: a command's options (`run --pin`, `flagscope report
#     --pivot`), a bare `--option` (some command has it), a path of the tree
#     (`harness/pgo.c`, `tests/it_*.sh`), a file name (`rank.c`), an
#     environment variable (`$FLAGSCOPE_PATH`, `FLAGSCOPE_RUN=...`), a key
#     outside tables (`tie_margin = 1%`: a string the code compares), and
#     with PREFIX (an installed copy) `PREFIX/...` paths; an option, file or
#     variable no command has and no file has may still be one the code
#     says (`--disable-shared` passed to configure, a file it writes);
#   - every ```ini block with a [study] section loads (run --dry-run), and
#     its workloads exist;
#   - the "Where things live" table names every top-level folder and no
#     other, and with PREFIX the table of PREFIX/ paths names everything
#     installed and nothing else.
# Prints FILE:LINE: what is wrong (what to do), one line each; exit 1 when
# something was, 0 when not.  FLAGSCOPE_BIN is the program (default: the
# tree's build/flagscope), FLAGSCOPE_SRC the tree (default: this one's).
set -uo pipefail
doc=${1:?usage: check_readme.sh FILE.md [PREFIX]}
prefix=${2:-}
here=$(cd "$(dirname "$0")" && pwd)
src=${FLAGSCOPE_SRC:-$(dirname "$here")}
bin=$(realpath "${FLAGSCOPE_BIN:-$src/build/flagscope}")
[ -x "$bin" ] || { echo "check_readme: no flagscope at $bin (build it, or set FLAGSCOPE_BIN)" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
problems=0
say() { echo "$doc:$1: $2"; problems=$((problems + 1)); }

# what exists: commands and their options, presets, workloads, files
commands=" $("$bin" --help | awk '/^commands:/ {on = 1; next} on && /^  [a-z]/ {printf "%s ", $1}')"
declare -A opts
all_opts=" "
for c in $commands; do
	opts[$c]=" $("$bin" "$c" --help | grep -oE '^ +(-[a-zA-Z], )?--[a-z0-9-]+' |
		sed 's/.*--/--/' | tr '\n' ' ')--help "
	all_opts+="${opts[$c]} "
done
presets=" $(cd "$tmp" && "$bin" list presets | awk '{printf "%s ", $1}')"
workloads=" $(cd "$tmp" && "$bin" list workloads | awk '{printf "%s ", $1}')"
if git -C "$src" rev-parse --git-dir >/dev/null 2>&1; then
	git -C "$src" ls-files >"$tmp/files"
else
	(cd "$src" && find . -path ./build -prune -o -type f -print | sed 's|^\./||') >"$tmp/files"
fi
top_dirs=$(grep / "$tmp/files" | cut -d/ -f1 | grep -v '^\.' | sort -u)

# a path of the tree (globs allowed), a file name anywhere in it
tree_has() { compgen -G "$src/$(sed -E 's#(^|/)[A-Z][A-Z0-9_]*(/|$)#\1*\2#g' <<<"${1%/}")" >/dev/null; }
file_named() { grep -qx -- "$(sed 's/[.]/[.]/g; s/\*/.*/g' <<<"$1")" <<<"$(awk -F/ '{print $NF}' "$tmp/files")"; }
# every text file of the tree but the docs and this check (its self-test's
# planted mistakes), in one: what the code says
grep -vE '\.md$|^tests/(check_readme\.sh|readme_extract\.awk|it_readme\.sh)$' "$tmp/files" |
	(cd "$src" && xargs grep -Ih '' 2>/dev/null) >"$tmp/code"
code_says() { grep -qwF -- "$1" "$tmp/code"; }
code_has() { grep -qF -- "$1" "$tmp/code"; } # -DBUILD_SHARED_LIBS=: not a word

# the options of command $1 in the words $2..: unknown ones said at line $L
check_options() {
	local c=$1 w o
	shift
	for w in "$@"; do
		[[ $w == --* ]] || continue
		for o in ${w//\// }; do
			o=${o%%=*}
			[[ ${opts[$c]} == *" $o "* ]] ||
				say "$L" "'$c' has no option $o (see flagscope $c --help)"
		done
	done
}

# the presets and workloads a command line names
check_names() {
	local c=$1 prev="" w n
	shift
	if [[ " run search slurm " == *" $c "* && $# -gt 0 && $1 != -* && $1 != *[./]* &&
		$1 != *[A-Z]* ]] && [[ $presets != *" $1 "* ]]; then
		say "$L" "no preset '$1' (flagscope list presets names them)"
	fi
	[ "$c" = why ] && [ $# -ge 3 ] && set -- "$@" --workloads "${!#}"
	for w in "$@"; do
		case $prev in
		--workloads | -w)
			for n in $w; do
				[[ $workloads == *" $n "* || $n == *[A-Z]* ]] ||
					say "$L" "no workload '$n' (flagscope list workloads names them)"
			done ;;
		--source) # NAME=SPEC (workload new's is a SPEC alone)
			n=${w%%=*}
			n=${n%%.*}
			[[ $w != *=* || $workloads == *" $n "* || $n == *[A-Z]* ]] ||
				say "$L" "--source $w: no workload '$n' (flagscope list workloads names them)" ;;
		esac
		prev=$w
	done
}

awk -f "$here/readme_extract.awk" "$doc" >"$tmp/records"

# command lines of the sh blocks
while IFS=$'\t' read -r L text; do
	first=${text%% *}
	[[ $first == *[A-Z]* ]] && continue # flagscope COMMAND --help
	if [[ $text == *'$('* || $text == *'`'* ]]; then
		say "$L" "command not checked: it runs a command substitution"
		continue
	fi
	eval "set -- $text"
	[ "$1" = --parse-only ] && shift # a line that shows --parse-only itself
	if ! out=$("$bin" --parse-only "$@" 2>&1); then
		say "$L" "flagscope $text: ${out#flagscope: }"
		continue
	fi
	c=$1
	shift
	check_names "$c" "$@"
done < <(awk -F'\t' '$1 == "cmd" {print $2 "\t" $3}' "$tmp/records")

# other command lines: the tree's scripts they run exist, and the packages
# they install are scripts/packages.txt's
while IFS=$'\t' read -r L text; do
	read -ra w <<<"$text"
	for x in "${w[@]}"; do
		if [[ $x =~ ^[a-z][a-z0-9_-]*/ ]] && grep -qx "${x%%/*}" <<<"$top_dirs"; then
			tree_has "$x" || say "$L" "$x: no such path in the tree"
		fi
	done
	[[ $text =~ ^(sudo )?apt(-get)?\ install\ (.*) ]] || continue
	for x in ${BASH_REMATCH[3]}; do
		[[ $x == -* || $x == */* ]] && continue
		grep -q "^$x\b" "$src/scripts/packages.txt" ||
			say "$L" "$x is not in scripts/packages.txt (add it there, or drop it here)"
	done
done < <(awk -F'\t' '$1 == "sh" {print $2 "\t" $3}' "$tmp/records")

# code spans
while IFS=$'\t' read -r kind L s; do
	read -ra w <<<"$s"
	[ ${#w[@]} -gt 0 ] || continue
	case ${w[0]} in
	flagscope | build/flagscope)
		c=${w[1]:-}
		if [ -z "$c" ] || [[ $c == -* || $c == *[A-Z]* ]]; then
			:
		elif [[ $commands != *" $c "* ]]; then
			say "$L" "'$c' is not a flagscope command (see flagscope --help)"
		else
			check_options "$c" "${w[@]:2}"
			check_names "$c" "${w[@]:2}"
		fi ;;
	--*)
		for o in ${w[0]//\// }; do
			o=${o%%=*}
			[[ $all_opts == *" $o "* ]] || code_says "$o" ||
				say "$L" "no command has the option $o, and no code passes it to a tool (see flagscope COMMAND --help)"
		done ;;
	PREFIX/*)
		if [ -n "$prefix" ] && ! compgen -G "$prefix/${w[0]#PREFIX/}" >/dev/null; then
			say "$L" "${w[0]}: not in an installed copy (cmake --install)"
		fi ;;
	\$[A-Z]*)
		n=${w[0]#\$}
		n=${n%%[^A-Z0-9_]*}
		code_says "$n" || say "$L" "\$$n: nothing reads it (a mistyped variable, or one the code no longer reads)" ;;
	*)
		if [[ " $commands " == *" ${w[0]} "* && ${w[1]:-} == --* ]]; then
			check_options "${w[0]}" "${w[@]:1}"
		elif [[ ${w[0]} =~ ^\.?[a-z][a-z0-9_-]*/ ]] && grep -qx "${w[0]%%/*}" <<<"$top_dirs$(printf '\n.ci')"; then
			tree_has "${w[0]}" || say "$L" "${w[0]}: no such path in the tree"
		elif [[ ${w[0]} =~ ^[A-Za-z0-9_*.-]+\.(c|h|sh|py|study|cmake)$ ]]; then
			file_named "${w[0]}" || code_says "${w[0]}" ||
				say "$L" "${w[0]}: no such file in the tree, and the code names none"
		elif [[ $kind == span && $s =~ ^([a-z][a-z0-9_]*)(\.[A-Za-z_]+)?\ =(\ |$) ]]; then
			# a study or recipe key in prose (a table's are levels: gcc12 = gcc-12)
			code_says "\"${BASH_REMATCH[1]}${BASH_REMATCH[2]:+.}\"" || code_says "\"${BASH_REMATCH[1]}\"" ||
				say "$L" "'${BASH_REMATCH[1]}${BASH_REMATCH[2]}': no study or recipe key of that name in the code"
		elif [[ ${w[0]} =~ ^[A-Z][A-Z0-9_]*= ]]; then
			for x in "${w[@]}"; do
				[[ $x =~ ^([A-Z][A-Z0-9_]*)= ]] || continue
				code_has "${BASH_REMATCH[1]}=" ||
					say "$L" "${BASH_REMATCH[1]}: nothing reads it (a mistyped variable, or one the code no longer reads)"
			done
		fi ;;
	esac
done < <(awk -F'\t' '$1 ~ /span$/ {print $1 "\t" $2 "\t" $3}' "$tmp/records")

# a recipe block (it starts at README line $2) loads: a dry run of a study
# of it; the files it names (expect =) are made empty, as a recipe's folder
# would hold them
check_recipe() {
	local r=$tmp/recipe/workloads/readme out m tries
	rm -rf "$tmp/recipe" && mkdir -p "$r" && cp "$1" "$r/recipe.ini"
	printf '[study]\nname = readme\nworkloads = readme\nbaseline = O2\n[axis opt]\nO2 = -O2\n' \
		>"$tmp/recipe/r.study"
	for tries in 1 2 3 4 5; do
		out=$(cd "$tmp/recipe" && "$bin" run r.study --dry-run 2>&1 >/dev/null) && return
		[[ $out =~ recipe\.ini:[0-9]+:\ [^\']*\'([^\'/]+)\'\ does\ not\ exist ]] || break
		: >"$r/${BASH_REMATCH[1]}"
	done
	while IFS= read -r m; do
		if [[ $m =~ recipe\.ini:([0-9]+):\ (.*) ]]; then
			say "$(($2 + BASH_REMATCH[1]))" "the recipe does not load: ${BASH_REMATCH[2]}"
		elif [[ $m != *"; recipe "* ]]; then # the source line that follows an error
			say "$(($2 + 1))" "the recipe does not load: ${m#flagscope: }"
		fi
	done <<<"$out"
}

# study files and recipes in ini blocks: they load, and a study's workloads
# exist
awk -F'\t' '$1 == "ini" {print substr($0, length($1 $2 $3) + 4) > (D "/block-" $3); print $2 > (D "/lines-" $3)}' \
	D="$tmp" "$tmp/records"
for b in "$tmp"/block-*; do
	[ -e "$b" ] || continue
	start=${b##*-}
	if grep -q '^\[workload\]' "$b"; then
		check_recipe "$b" "$start"
		continue
	fi
	cp "$b" "$tmp/readme.study"
	grep -q '^\[study\]' "$tmp/readme.study" || continue
	while read -r L; do
		line=$(sed -n "$((L - start))p" "$tmp/readme.study")
		[[ $line =~ ^workloads[[:space:]]*=([^\;]*) ]] || continue
		for n in ${BASH_REMATCH[1]}; do
			[[ $workloads == *" $n "* ]] ||
				say "$L" "no workload '$n' (flagscope list workloads names them)"
		done
	done <"$tmp/lines-$start"
	if ! out=$(cd "$tmp" && "$bin" run readme.study --dry-run 2>&1 >/dev/null); then
		while IFS= read -r m; do
			m=${m#flagscope: }
			if [[ $m =~ ^readme\.study:([0-9]+):\ (.*) ]]; then
				say "$((start + BASH_REMATCH[1]))" "the study does not load: ${BASH_REMATCH[2]}"
			else
				say "$((start + 1))" "the study does not load: ${m#readme.study: }"
			fi
		done <<<"$out"
	fi
done

# the layout table: every top-level folder, and only those
layout=$(awk -F'\t' '$1 == "layout" {print $2 "\t" $3}' "$tmp/records")
if [ -n "$layout" ]; then
	while IFS=$'\t' read -r L d; do
		[ -d "$src/$d" ] || say "$L" "'$d' in the layout table: no such folder"
	done <<<"$layout"
	first=$(head -1 <<<"$layout" | cut -f1)
	for d in $top_dirs; do
		cut -f2 <<<"$layout" | grep -qx "$d/" ||
			say "$first" "the layout table has no row for $d/ (add one: what it holds)"
	done
fi

# the install table: everything installed, and only that
install=$(awk -F'\t' '$1 == "install" {print $2 "\t" $3}' "$tmp/records")
if [ -n "$prefix" ] && [ -n "$install" ]; then
	while IFS=$'\t' read -r L p; do
		[ -e "$prefix/${p#PREFIX/}" ] || say "$L" "$p in the install table: not in an installed copy"
	done <<<"$install"
	first=$(head -1 <<<"$install" | cut -f1)
	(cd "$prefix" && ls -d bin/* lib/flagscope/* share/flagscope/* share/man/man1/* share/doc/flagscope 2>/dev/null) |
	while read -r p; do
		listed=0
		while IFS=$'\t' read -r _ q; do
			q=${q#PREFIX/}
			q=${q%/}
			[[ $p == "$q" || $p == "$q"/* ]] && listed=1
		done <<<"$install"
		[ $listed = 1 ] || echo "$doc:$first: the install table does not name PREFIX/$p (add a row)"
	done >"$tmp/unlisted"
	if [ -s "$tmp/unlisted" ]; then
		cat "$tmp/unlisted"
		problems=$((problems + $(wc -l <"$tmp/unlisted")))
	fi
fi

[ $problems = 0 ]
