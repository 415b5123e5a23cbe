#!/bin/bash
# it_facts_resume.sh - a study that stopped after its last run's row but
# before that run's "higher_better.METRIC" fact (killed there, or the disk
# filled between the two writes) must not rank that metric upside down:
# the fact came with each run's row, so with every run stored no resume
# wrote it again, and the report took a higher-is-better metric as
# lower-is-better.  Simulated by deleting the fact from a finished study.
# Expect: the resumed run (nothing left to measure) stores the fact again;
# the report says higher is better.
set -euo pipefail
. "$FLAGSCOPE_SRC/tests/lib_it.sh" it_facts_resume
mkdir -p workloads # shadows the bundled tiny for a study in this folder
cp -r "$FLAGSCOPE_SRC/tests/fixtures/workloads/tiny" workloads/
sed -i 's/^metric.sum = .*/&\nhigher_better.sum = yes/' workloads/tiny/recipe.ini
grep -q '^higher_better.sum = yes' workloads/tiny/recipe.ini || fail "the recipe copy lacks higher_better"
tiny_study hb.study 2 "sum ranked higher-is-better" O2 O1
fs run hb.study --db hb.db --metric sum -q -f json > first.json
python3 -c "import json; assert json.load(open('first.json'))['higher_better'] is True" ||
	fail "higher_better.sum = yes not honoured at all"
python3 -c "
import sqlite3
db = sqlite3.connect('hb.db')
db.execute(\"delete from facts where key='higher_better.sum'\")
db.commit()"
fs run hb.study --db hb.db --metric sum -q -f json > resumed.json
python3 -c "import json; assert json.load(open('resumed.json'))['higher_better'] is True" ||
	fail "after the resume the report takes sum as lower-is-better"
echo "ok - a metric's direction is stored with the study, not only with a run"
rm -rf "$T"
