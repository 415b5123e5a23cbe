#!/usr/bin/env python3
"""aa_count.py - count the A/A pairs a report calls significant (issue 27).

Used by bench/calibrate.sh and bench/aa_layouts.sh: every configuration of
their studies differs from the baseline in layout only, so every workload
of every configuration is an A/A pair, and a verdict that holds its level
calls at most 5% of them improved or regressed.

  aa_count.py REPORT.json [LABEL]
      one line: LABEL pairs, significant, the share; the pairs whose build
      is identical to the baseline's (the same runs) left out and counted,
      the significant ones listed, and how many the report left unchanged
      because they are within layout noise (--min-effect auto).
  aa_count.py --per-binary DB STUDY METRIC
      the same pairs judged per binary, as a study without layouts would:
      each layout variant of a configuration against the baseline's variant
      of the same number (its own build, its own runs), exact two-sided
      Mann-Whitney p < 0.05 and |ratio - 1| >= 1%.  The contrast that says
      what the nested rule changes on these runs.
"""
import json
import sqlite3
import statistics
import sys


def count_report(path):
    d = json.load(open(path))
    pairs, same, within, sig = 0, 0, 0, []
    for c in d["configs"]:
        if c["baseline"]:
            continue
        same_on = set(c.get("identical_on") or []) if c.get("identical_to") else set()
        for w in c["workloads"]:
            if w["ratio"] is None:
                continue
            if w["name"].split("/")[0] in same_on:
                same += 1
                continue
            pairs += 1
            within += w.get("layout_noise") is not None
            if w["verdict"] in ("improved", "regressed"):
                sig.append(f"{c['label']} {w['name']} {w['ratio']:.4f} (p {w['p']:.3g},"
                           f" layouts {w.get('layouts')})")
    return pairs, same, within, sig


def mwu_exact_p(a, b):
    """Two-sided exact Mann-Whitney p without ties (as R's wilcox.test);
    with ties the normal approximation is not needed here: runs of a time
    metric are microsecond readings, ties leave p as computed by ranks."""
    m, n = len(a), len(b)
    u = sum(1.0 if x > y else 0.5 if x == y else 0.0 for x in a for y in b)
    # f[k] = number of arrangements with U = k, built up one element at a time
    f = [[[0] * (i * j + 1) for j in range(n + 1)] for i in range(m + 1)]
    for i in range(m + 1):
        for j in range(n + 1):
            if i == 0 or j == 0:
                f[i][j][0] = 1
                continue
            for k in range(i * j + 1):
                f[i][j][k] = (f[i - 1][j][k - j] if k >= j else 0) + \
                    (f[i][j - 1][k] if k <= (i) * (j - 1) else 0)
    tot = sum(f[m][n])
    lo = sum(f[m][n][k] for k in range(int(u) + 1)) / tot
    hi = sum(f[m][n][k] for k in range(int(u + 0.5), m * n + 1)) / tot
    return min(1.0, 2 * min(lo, hi))


def per_binary(db, study, metric):
    con = sqlite3.connect(db)
    rows = con.execute(
        "select c.label, c.layout, coalesce(p.label, c.label), s.workload, s.value"
        " from samples s join runs r using (study, config_id, workload, run, rep)"
        " join configs c on c.study = s.study and c.id = s.config_id"
        " left join configs p on p.study = c.study and p.id = c.layout_of"
        " where s.study = ? and s.metric = ? and s.rep >= 1 and r.status = 'ok'",
        (study, metric)).fetchall()
    base = con.execute("select label from configs where study = ? and is_baseline = 1",
                       (study,)).fetchone()
    runs = {}
    for _, layout, plain, w, v in rows:
        runs.setdefault((plain, layout, w), []).append(v)
    base = base[0] if base else None
    pairs, sig = 0, []
    for (plain, layout, w), v in sorted(runs.items()):
        b = runs.get((base, layout, w))
        # a median of 0 (a part shorter than the meter's tick) has no ratio,
        # as report leaves it out
        if plain == base or not b or len(v) < 2 or len(b) < 2 or not statistics.median(b):
            continue
        pairs += 1
        ratio = statistics.median(v) / statistics.median(b)
        p = mwu_exact_p(v, b)
        if p < 0.05 and abs(ratio - 1) >= 0.01:
            sig.append(f"{plain} [layout {layout}] {w} {ratio:.4f} (p {p:.3g})")
    return pairs, sig


def show(label, pairs, sig, extra=""):
    print(f"{label}: {len(sig)} of {pairs} A/A pairs significant = "
          f"{100 * len(sig) / max(pairs, 1):.1f}%{extra}")
    for s in sig:
        print(f"    {s}")


def main(argv):
    if len(argv) == 5 and argv[1] == "--per-binary":
        pairs, sig = per_binary(argv[2], argv[3], argv[4])
        show(f"per binary ({argv[4]})", pairs, sig)
        return 0
    if len(argv) not in (2, 3):
        print(__doc__, file=sys.stderr)
        return 2
    pairs, same, within, sig = count_report(argv[1])
    extra = f"; {same} identical to the baseline's build left out" if same else ""
    extra += f"; {within} within layout noise" if within else ""
    show(argv[2] if len(argv) == 3 else argv[1], pairs, sig, extra)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
