# lib_builds.sh - sourced by the libc integration tests (it_libc,
# it_tcpsvd): study_builds DB STUDY prints one line per build of the study,
# in study order: "label<TAB>status<TAB>detail<TAB>binary", the label's
# blanks turned into "_", "-" for an empty detail or no binary (the binary
# is the first file the build's ELF facts name).
study_builds() {
	python3 - "$1" "$2" <<'PY'
import json, sqlite3, sys
db = sqlite3.connect(sys.argv[1])
for label, status, detail, facts in db.execute(
        "select c.label, b.status, b.detail, b.facts from builds b join configs c "
        "on c.study = b.study and c.id = b.config_id where b.study = ? order by c.ord",
        (sys.argv[2],)):
    f = json.loads(facts or "[]")
    print("\t".join([label.replace(" ", "_"), status, detail or "-", f[0]["file"] if f else "-"]))
PY
}
