# readme_extract.awk - what a README (Markdown) says that can be checked,
# one record a line, tab-separated: KIND LINE TEXT.  Used by
# tests/check_readme.sh.
#   cmd     a command line of a ```sh block: the words after "flagscope"
#           (a "$ " prompt, "build/" or "PREFIX/bin/" before it, a trailing
#           "# comment" and "\" continuations are dropped; a word a|b|c
#           outside quotes is three command lines)
#   sh      any other command line of a ```sh block (bash scripts/test.sh)
#   span    an inline `code span` outside code blocks (tspan: in a table row)
#   ini     a line of a ```ini block, or of a block of no language (KIND
#           ini, LINE, "BLOCKSTART<TAB>text"); tini in the README's tour
#           (between <!-- tour and <!-- /tour -->), whose files
#           tests/it_tour.sh makes and runs for real
#   layout  the first column's folders of the "Where things live" table
#   install the first column of a table row naming PREFIX/...
function emit(kind, line, text) { printf "%s\t%d\t%s\n", kind, line, text }

# a command line, each alternative of its first unquoted a|b word apart
function emit_cmd(line, text,    n, w, i, j, k, alts, m, out) {
	n = split(text, w, " ")
	for (i = 1; i <= n; i++)
		if (w[i] ~ /^[a-z0-9-]+(\|[a-z0-9-]+)+$/) {
			m = split(w[i], alts, "|")
			for (k = 1; k <= m; k++) {
				out = ""
				for (j = 1; j <= n; j++)
					out = out (j > 1 ? " " : "") (j == i ? alts[k] : w[j])
				emit("cmd", line, out)
			}
			return
		}
	emit("cmd", line, text)
}

# the text before an unquoted " #"
function strip_comment(s,    i, c, q, out) {
	q = ""
	for (i = 1; i <= length(s); i++) {
		c = substr(s, i, 1)
		if (q == "" && (c == "\"" || c == "'"))
			q = c
		else if (c == q)
			q = ""
		else if (q == "" && c == "#" && i > 1 && substr(s, i - 1, 1) ~ /[ \t]/)
			return substr(s, 1, i - 1)
	}
	return s
}

BEGIN { block = ""; cont = ""; tour = 0 }

/^<!-- tour/ { tour = 1 }
/^<!-- \/tour -->/ { tour = 0 }

/^```/ {
	if (block == "") {
		block = substr($0, 4)
		if (block == "")
			block = "text"
		start = NR
	} else {
		block = ""
	}
	next
}

block == "sh" || block == "bash" || block == "shell" {
	line = $0
	if (cont != "") {
		line = cont " " line
	} else {
		cline = NR
	}
	line = strip_comment(line)
	if (line ~ /\\[ \t]*$/) {
		sub(/\\[ \t]*$/, "", line)
		cont = line
		next
	}
	cont = ""
	sub(/^[ \t]*(\$ )?/, "", line)
	if (line ~ /^(build\/|PREFIX\/bin\/|[^ ]*\/bin\/)?flagscope( |$)/) {
		sub(/^[^ ]*flagscope */, "", line)
		gsub(/[ \t]+$/, "", line)
		emit_cmd(cline, line)
	} else if (line != "") {
		emit("sh", cline, line)
	}
	next
}

block == "ini" || block == "text" { emit(tour ? "tini" : "ini", NR, start "\t" $0); next }

block != "" { next }

/^## / { section = substr($0, 4) }

/^\|/ && section ~ /^Where things live/ {
	split($0, col, "|")
	s = col[2]
	while (match(s, /`[^`]*\/`/)) {
		emit("layout", NR, substr(s, RSTART + 1, RLENGTH - 2))
		s = substr(s, RSTART + RLENGTH)
	}
}

/^\| *`PREFIX\// {
	split($0, col, "|")
	if (match(col[2], /`[^`]*`/))
		emit("install", NR, substr(col[2], RSTART + 1, RLENGTH - 2))
}

{
	s = $0
	while (match(s, /`[^`]+`/)) {
		emit(/^\|/ ? "tspan" : "span", NR, substr(s, RSTART + 1, RLENGTH - 2))
		s = substr(s, RSTART + RLENGTH)
	}
}
