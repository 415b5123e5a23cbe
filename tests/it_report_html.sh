#!/bin/bash
# it_report_html.sh - the HTML report of a real tiny study (three
# configurations of the tiny fixture): one self-contained file, opened in
# headless Chromium; the DOM it builds has the expected SVG charts and
# marks, and the screenshot shows them drawn (the charts' frames found by
# colour, data marks inside).  A copy with the marks removed must fail the
# same pixel check, so the check can tell a drawn chart from a blank one.
set -euo pipefail
. "${FLAGSCOPE_SRC:?}/tests/lib_it.sh" it_report_html

cat > three.study <<'S'
; expect: three ok configurations; -O0 the baseline, -O1/-O2 faster and
; smaller, so the bars and the Pareto scatter have something to show
[study]
name = three
workloads = tiny
repeat = 5
baseline = O0
[axis opt]
O0 = -O0
O1 = -O1
O2 = -O2
S
fs run three.study --db h.db -q > /dev/null
fs report --db h.db --format html > r.html
bytes=$(wc -c < r.html)
echo "# HTML report: $bytes bytes"

# 1. self-contained: nothing is fetched from anywhere
python3 - <<'P'
import re
h = open("r.html").read()
assert h.startswith("<!DOCTYPE html>") and h.rstrip().endswith("</html>")
for bad in ("http:", "https:", "<script", "<link", "<img", "@import", "url(", "src="):
    assert bad not in h, bad
assert h.count('<svg class="chart bars"') == 1, "one bar chart for the one workload"
assert h.count('<svg class="chart scatter"') == 2, "time vs size.text and time vs mem.res (VmHWM at exit, not maxrss)"
assert "pareto-time-mem.res" in h and "pareto-time-maxrss" not in h, "the rss front plots mem.res"
P
echo "ok 1 - one self-contained file ($bytes bytes)"

CHROMIUM=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$CHROMIUM" ]; then
	echo "SKIP: chromium is not installed (apt-get install chromium)"
	exit 77
fi
browse() { # browse OUT_FLAG FILE: one headless run with a fresh profile
	local prof; prof=$(mktemp -d "$T/profile.XXXXXX")
	timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu --disable-quic \
		--no-first-run --disable-background-networking --disable-component-update \
		--disable-sync --user-data-dir="$prof" --window-size=1200,2000 "$1" \
		"file://$T/$2" 2> "$T/chromium.err"
}
if ! browse --screenshot="$T/shot.png" r.html > /dev/null || [ ! -s shot.png ]; then
	echo "SKIP: chromium cannot start here: $(grep -v dbus chromium.err | tail -2)"
	exit 77
fi

# 2. the DOM Chromium built holds every chart element the data calls for
browse --dump-dom r.html > dom.html
python3 - <<'P'
import json, sqlite3
d = open("dom.html").read()
assert d.count('class="chart bars"') == 1 and d.count('class="chart scatter"') == 2, "charts"
assert d.count('class="bar"') == 3, ("a bar per configuration", d.count('class="bar"'))
w = d.count('class="whisker"')
assert 1 <= w <= 3, ("whiskers", w)
pts = d.count('<circle class="point')
assert pts == 6, ("three points per scatter", pts)
assert d.count('class="point front"') >= 2, "each front has at least one point"
for label in ("O0 (baseline)", "O1", "O2"):
    assert label in d, label
assert "binary tiny" in d and "recorded switches" in d and "glibc; interpreter" in d, "facts"
print("# DOM: %d bars, %d whiskers, %d points" % (3, w, pts))
P
echo "ok 2 - Chromium's DOM has the bars, whiskers, scatter points and facts"

# 3. the screenshot shows the charts drawn, not blank
python3 "$FLAGSCOPE_SRC/tests/tools/chart_pixels.py" shot.png > charts.txt
cat charts.txt | sed 's/^/# /'
python3 - <<'P'
rows = [l.split() for l in open("charts.txt")]
charts = [dict(h=int(r[4]), nonwhite=int(r[5]), marks=int(r[7])) for r in rows]
assert len(charts) >= 2, ("the bar chart and a scatter are on screen", charts)
assert any(c["h"] < 200 for c in charts) and any(c["h"] == 420 for c in charts), charts
# A blank chart has 0 mark pixels (step 4).  The floor stays well above
# that but low: the bars' length follows the measured ratios, which for a
# ~1 ms program can all lie near 1 (a run here drew 88 mark pixels).
for c in charts:
    assert c["marks"] >= 30, ("data marks drawn", c)
P
echo "ok 3 - screenshot: every chart on screen has its data marks drawn"

# 4. the same check fails on a report whose marks did not render
python3 - <<'P'
import re
h = open("r.html").read()
h = re.sub(r'<(rect class="bar"|g class="whisker"|circle class="point)[^>]*>.*?</(rect|g|circle)>',
           "", h, flags=re.S)
h = re.sub(r'<polyline class="front-line"[^>]*/>', "", h)
open("blank.html", "w").write(h)
P
browse --screenshot="$T/blank.png" blank.html > /dev/null
python3 "$FLAGSCOPE_SRC/tests/tools/chart_pixels.py" blank.png > blank.txt
python3 - <<'P'
rows = [l.split() for l in open("blank.txt")]
assert len(rows) >= 2, rows
assert all(int(r[7]) == 0 for r in rows), ("no marks in a blank chart", rows)
P
echo "ok 4 - a chart without its marks is told apart ($(awk '{s+=$8} END {print s}' blank.txt) mark pixels)"
echo "it_report_html: all passed"
