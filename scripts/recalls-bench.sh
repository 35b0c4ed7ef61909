#!/usr/bin/env bash
# Times `crmem recalls --report` on the 100k corpus and 10,000 recalls in
# 500 generated sessions against `crmem ls --json` on the same file, whole
# processes, for this tree's build (B) and an older revision's (A, default
# HEAD~1), run A B ls, B A ls, … (the order flips every round) so load on
# the machine hits each alike. Prints the median and min–max CPU time (user
# + system) of each, the ratio of each build's median to ls --json's, the
# ratio A/B, each one's median peak RSS, and the sessions' size; and checks
# that A and B print the same report (--json, byte for byte).
#
#   scripts/recalls-bench.sh [OLD_REV] [BIG_DB] [SESSIONS_DIR]
#
# BIG_DB defaults to /tmp/crmem-bench/big.db (made with
# ../shared/tools/gen_corpus.py --seed 7 when missing); SESSIONS_DIR to
# /tmp/crmem-bench/sessions (made with scripts/gen-sessions.py from the
# corpus' ls --json when missing: 500 sessions, 10,000 recalls, 240 MB).
# ROUNDS (default 5) sets the rounds. Not part of go test.
set -euo pipefail
cd "$(dirname "$0")/.."
old=${1:-HEAD~1}
big=${2:-/tmp/crmem-bench/big.db}
sessions=${3:-/tmp/crmem-bench/sessions}
gen=../shared/tools/gen_corpus.py

if [ ! -f "$big" ]; then
  [ -f "$gen" ] || { echo "missing corpus $big (and $gen to make it)" >&2; exit 1; }
  mkdir -p "$(dirname "$big")"
  python3 "$gen" --entries 100000 --seed 7 --crmem "$big" >/dev/null
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. scripts/build-ab.sh
if [ ! -d "$sessions" ]; then
  "$tmp/B" --db "$big" ls --json >"$tmp/entries.json"
  python3 scripts/gen-sessions.py --entries "$tmp/entries.json" --out "$sessions" >&2
fi
"$tmp/A" --db "$big" recalls --report --json --sessions "$sessions" >"$tmp/A.json"
"$tmp/B" --db "$big" recalls --report --json --sessions "$sessions" >"$tmp/B.json"
cmp -s "$tmp/A.json" "$tmp/B.json" && echo "A and B print the same report (--json)" || echo "A and B REPORTS DIFFER" >&2

uptime
echo "sessions: $(du -sh "$sessions" | cut -f1), $(find "$sessions" -name 'step-*' | wc -l) steps"
python3 - "$tmp" "$big" "$sessions" "${ROUNDS:-5}" <<'PY'
import os, statistics, subprocess, sys

tmp, big, sessions, rounds = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
cmds = {
    "A": [f"{tmp}/A", "--db", big, "recalls", "--report", "--sessions", sessions],
    "B": [f"{tmp}/B", "--db", big, "recalls", "--report", "--sessions", sessions],
    "ls": [f"{tmp}/B", "--db", big, "ls", "--json"],
}

def run(argv):
    pid = os.fork()
    if pid == 0:
        fd = os.open(os.devnull, os.O_WRONLY)
        os.dup2(fd, 1)
        os.execv(argv[0], argv)
    _, status, ru = os.wait4(pid, 0)
    if status != 0:
        sys.exit(f"{argv} failed: {status}")
    return ru.ru_utime + ru.ru_stime, ru.ru_maxrss / 1024

got = {k: [] for k in cmds}
for r in range(rounds):
    order = ["A", "B", "ls"] if r % 2 == 0 else ["B", "A", "ls"]
    for k in order:
        got[k].append(run(cmds[k]))
med = {k: statistics.median(c for c, _ in v) for k, v in got.items()}
for k, v in got.items():
    cpu = [c for c, _ in v]
    print(f"{k:3} CPU median {med[k]:.2f} s (min {min(cpu):.2f}, max {max(cpu):.2f}), "
          f"{med[k] / med['ls']:.1f}x ls --json, peak RSS {statistics.median(m for _, m in v):.0f} MB")
print(f"A/B CPU {med['A'] / med['B']:.2f}")
PY
