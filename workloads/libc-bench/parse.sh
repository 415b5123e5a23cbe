#!/bin/sh
# parse.sh NAME < OUTPUT - the figures of one benchmark from libc-bench's
# output (its main.c prints, per benchmark, the label "b_FUNC (ARG)" --
# ARG as written in main.c: 0 or a quoted string -- then
# "  time: S.NNNNNNNNN, virt: V, res: R, dirty: D" and an empty line; virt,
# res and dirty are kB summed from /proc/self/smaps over the anonymous
# mappings at the end of the benchmark).
# NAME is a flagscope run name, the bundled libcbench's (see recipe.ini).
# stdout: "NAME ok" (deterministic); stderr: "time: S", "heap_virt: V",
# "heap_res: R", "heap_dirty: D", one a line.  Exit 1, saying why, when
# NAME is unknown or the output has no figures for it (the benchmark's
# process crashed: libc-bench goes on with the next one).
name=$1
case $name in
malloc_sparse | malloc_bubble | malloc_tiny1 | malloc_tiny2 | malloc_big1 | malloc_big2 | \
	malloc_thread_stress | malloc_thread_local | string_memset | string_strchr | \
	string_strlen | pthread_createjoin_serial1 | pthread_createjoin_serial2 | \
	pthread_create_serial1 | pthread_uselesslock | pthread_createjoin_minimal1 | \
	pthread_createjoin_minimal2 | utf8_bigbuf | utf8_onebyone | stdio_putcgetc | \
	stdio_putcgetc_unlocked)
	label="b_$name (0)" ;;
string_strstr_abc) label='b_string_strstr ("abcdefghijklmnopqrstuvwxyz")' ;;
string_strstr_azby) label='b_string_strstr ("azbycxdwevfugthsirjqkplomn")' ;;
string_strstr_a14c12) label='b_string_strstr ("aaaaaaaaaaaaaacccccccccccc")' ;;
string_strstr_a25c) label='b_string_strstr ("aaaaaaaaaaaaaaaaaaaaaaaaac")' ;;
string_strstr_a32c) label='b_string_strstr ("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaac")' ;;
regex_compile) label='b_regex_compile ("(a|b|c)*d*b")' ;;
regex_search_abcdb) label='b_regex_search ("(a|b|c)*d*b")' ;;
regex_search_a25b) label='b_regex_search ("a{25}b")' ;;
*)
	echo "parse.sh: no libc-bench benchmark is called '$name'" >&2
	exit 1 ;;
esac
awk -v name="$name" -v label="$label" '
	$0 == label { seen = 1; next }
	seen && /^  time: / {
		line = $0
		sub(/^  time: /, "", line)
		n = split(line, f, /, (virt|res|dirty): /)
		if (n != 4) { bad = $0; exit }
		printf "%s ok\n", name
		printf "time: %s\nheap_virt: %s\nheap_res: %s\nheap_dirty: %s\n", f[1], f[2], f[3], f[4] > "/dev/stderr"
		found = 1
		exit
	}
	seen && /^b_/ { exit }
	END {
		if (found)
			exit 0
		if (bad != "")
			printf "parse.sh: %s: cannot read the figures line: %s\n", name, bad > "/dev/stderr"
		else if (seen)
			printf "parse.sh: %s: libc-bench printed no figures for it (its process crashed?)\n", name > "/dev/stderr"
		else
			printf "parse.sh: %s: libc-bench did not run it (no line \"%s\")\n", name, label > "/dev/stderr"
		exit 1
	}'
