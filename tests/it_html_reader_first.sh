#!/bin/bash
# it_html_reader_first.sh - issue 28's HTML complaints: warnings and
# unsettled verdicts sat at the bottom under the configuration details;
# chart labels were clipped ("gcc O2-v..."); a Pareto axis spanning
# 0.997-1.000 made 0.3% look large.  A tiny study with long level names
# and two repetitions (so verdicts are left unsettled).  Expected:
#   1. "Verdicts not settled" (and the machine warning, when the machine
#      was busy) come before the ranking table, and not again below;
#   2. in the bar chart every label fits left of its bars (the label
#      column is at least as wide as the longest label), and in each
#      scatter every point label stays inside the chart;
#   3. every axis of a ratio spans at least 0.1 and includes 1, and each
#      scatter says where its axes start ("not 0").
set -euo pipefail
. "${FLAGSCOPE_SRC:?}/tests/lib_it.sh" it_html_reader_first
cat >long.study <<'S'
; expect: three ok configurations with long labels; verdicts not settled at repeat 2
[study]
name = long
workloads = tiny
repeat = 2
baseline = O2-vectorise-everything-baseline
[axis opt]
O2-vectorise-everything-baseline = -O2
O1-with-a-much-longer-level-name-than-before = -O1
O2-and-no-inlining-of-anything-at-all = -O2 -fno-inline
S
fs run long.study --db l.db -q >/dev/null 2>run.err || true
fs report --db l.db --format html >r.html 2>/dev/null || true
python3 - <<'P'
import re, sys
h = open("r.html").read()
fails = []
rank = h.find("<h2>Ranking</h2>")
fr = h.find("<h2>Verdicts not settled</h2>")
if fr < 0:
    fails.append("no unsettled verdicts listed (the study should leave some at repeat 2)")
elif not (0 <= fr < rank):
    fails.append("'Verdicts not settled' comes after the ranking")
if h.count("<h2>Verdicts not settled</h2>") > 1:
    fails.append("unsettled verdicts listed twice")
w = h.find('id="warning"')
if w >= 0 and w > rank:
    fails.append("the machine warning comes after the ranking")
for svg in re.findall(r'<svg class="chart bars".*?</svg>', h, re.S):
    width = float(re.search(r'width="(\d+)"', svg).group(1))
    for x, label in re.findall(r'<text x="([\d.]+)" y="[\d.]+" font-size="12" text-anchor="end">([^<]+)</text>', svg):
        if float(x) - 6.5 * len(label) < 0:
            fails.append("bar label clipped: %r at x=%s" % (label, x))
for svg in re.findall(r'<svg class="chart scatter".*?</svg>', h, re.S):
    width = float(re.search(r'width="(\d+)"', svg).group(1))
    for x, anchor, label in re.findall(r'<text class="point-label" x="([\d.-]+)" y="[\d.-]+" font-size="11" text-anchor="(\w+)">([^<]+)</text>', svg):
        x = float(x); ext = 6.5 * len(label)
        if (anchor == "start" and x + ext > width) or (anchor == "end" and x - ext < 0):
            fails.append("point label outside the chart: %r" % label)
    if "not 0" not in svg:
        fails.append("a scatter does not say where its axes start")
def ticks(svg, anchor):
    return [float(v) for v in re.findall(r'font-size="11" text-anchor="%s">([\d.]+)</text>' % anchor, svg)]
for svg in re.findall(r'<svg class="chart (?:bars|scatter)".*?</svg>', h, re.S):
    for anchor in ("middle", "end"):
        t = ticks(svg, anchor)
        if len(t) >= 2 and (max(t) - min(t) < 0.08 - 1e-9 or min(t) > 1 or max(t) < 1):
            fails.append("a ratio axis spans %g to %g: under 0.1, or without 1" % (min(t), max(t)))
if fails:
    print("FAIL: " + "; ".join(fails)); sys.exit(1)
print("ok: warnings and unsettled verdicts first, labels inside, ratio axes at least 0.1 wide with 1")
P
rm -rf "$T"
echo PASS
