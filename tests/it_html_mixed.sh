#!/bin/bash
# it_html_mixed.sh - issue 28's HTML: a "mixed" verdict had no colour of
# its own and did not say which workloads went which way.  The synthetic
# mixed.db of tests/test_verdict.c (v2 25% faster on lz4/default, 25%
# slower on lz4/best).  Expected, in `report --format html`:
#   1. the style gives .mixed a colour (not the improved green, the
#      regressed red or the unchanged grey), and a legend before the
#      ranking names every verdict with its class;
#   2. v2's row: its verdict cell has class "mixed" and says mixed, its
#      ratio cell the same class, and the row lists the parts as the text
#      report does ("mixed: +25.4% lz4/best, -24.7% lz4/default": the
#      verdict_mixed_text of analysis/verdict.h), each part's sign and name;
#   3. no other configuration is marked mixed.
# FLAGSCOPE_VERDICT_WRITER may name another test_verdict to write the
# database (to read it with another build's flagscope).
set -euo pipefail
. "${FLAGSCOPE_SRC:?}/tests/lib_it.sh" it_html_mixed
command -v python3 > /dev/null || { echo "SKIP: python3 reads the HTML"; exit 77; }
writer=${FLAGSCOPE_VERDICT_WRITER:-$(dirname "$FLAGSCOPE_BIN")/tests/test_verdict}
[ -x "$writer" ] || fail "no $writer to write the synthetic database (build the tests)"
"$writer" --write-dbs "$T" > /dev/null
fs report --db "$T/mixed.db" > r.txt
fs report --db "$T/mixed.db" --format html > r.html
parts=$(sed -n 's/^  v2: //p' r.txt)
[ -n "$parts" ] || fail "the text report lists no mixed parts for v2: $(cat r.txt)"
PARTS=$parts python3 - <<'P'
import html, os, re, sys
h = open("r.html").read()
parts = os.environ["PARTS"]
fails = []
style = re.search(r"<style>(.*?)</style>", h, re.S).group(1)
m = re.search(r"\.mixed\{color:(#[0-9a-f]+)", style)
others = {c: re.search(r"\.%s\{color:(#[0-9a-f]+)" % c, style) for c in ("improved", "regressed")}
if not m:
    fails.append("no colour for .mixed in the style")
elif any(o and o.group(1) == m.group(1) for o in others.values()) or m.group(1) == "#90a4ae":
    fails.append("mixed has another verdict's colour %s" % m.group(1))
legend = h.find('id="legend"')
rank = h.find("<h2>Ranking</h2>")
if not (0 <= legend < rank):
    fails.append("no legend before the ranking")
else:
    text = h[legend:h.find("</p>", legend)]
    for v in ("improved", "regressed", "mixed"):
        if '<span class="%s">%s</span>' % (v, v) not in text:
            fails.append("the legend does not show %s in its colour" % v)
row = re.search(r'<tr class="config"><td>\d*</td><td>v2</td>(.*?)</tr>', h, re.S)
if not row:
    fails.append("no row for v2")
else:
    r = row.group(1)
    if '<td class="mixed">mixed</td>' not in r:
        fails.append("v2's verdict cell is not class mixed: %s" % r)
    if '<td class="num mixed">' not in r:
        fails.append("v2's ratio is not in the mixed colour: %s" % r)
    if html.escape(parts, quote=False) not in r:
        fails.append("v2's parts %r are not listed: %s" % (parts, r))
    for sign, name in re.findall(r"([+-][\d.]+%) ([\w/]+)", parts):
        if sign not in r or name not in r:
            fails.append("part %s %s not in v2's row" % (sign, name))
n = len(re.findall(r'<td class="mixed">mixed</td>', h))
if n != 1:
    fails.append("%d configurations marked mixed, want 1 (v2)" % n)
if fails:
    print("FAIL: " + "; ".join(fails)); sys.exit(1)
print("ok: mixed has its colour and legend, v2 lists its parts: %s" % parts)
P
rm -rf "$T"
echo PASS
