#!/usr/bin/env bash
# Times the TUI's first usable screen in a real terminal: from the start of
# the process to the list's position (1/N) on screen, for this tree's build
# (B) and an older revision's (A, default HEAD~1), alternating A B B A…, in
# a private tmux server at 120×40. scripts/first-screen.py runs inside the
# pane: it spawns crmem on a pty, passes its output on to tmux and tmux's
# replies (to the terminal queries) back, and notes the times. Prints the
# median and min–max for each, and a bare Go hello-world's first byte for
# scale. The pane is inside tmux, as a tmux user's is ($TMUX set).
#
#   scripts/first-screen.sh [OLD_REV] [DB]
#
# DB defaults to /tmp/crmem-bench/3k.db (made with ../shared/tools/
# gen_corpus.py --entries 3000 --seed 7 when missing); it is only read.
# ROUNDS (default 10) sets the runs of each. Needs tmux. Not part of go test.
set -euo pipefail
cd "$(dirname "$0")/.."
old=${1:-HEAD~1}
db=${2:-/tmp/crmem-bench/3k.db}
if [ ! -f "$db" ]; then
  mkdir -p "$(dirname "$db")"
  python3 ../shared/tools/gen_corpus.py --entries 3000 --seed 7 --crmem "$db" >/dev/null
fi
tmp=$(mktemp -d)
trap 'tmux -S "$tmp/sock" kill-server 2>/dev/null || true; rm -rf "$tmp"' EXIT
. scripts/build-ab.sh
n=$("$tmp/B" ls --db "$db" --json | python3 -c 'import json,sys; print(f"{len(json.load(sys.stdin)):,}")')
marker="1/$n"

lines() { if [ -f "$1" ]; then wc -l <"$1"; else echo 0; fi; }

run() { # name marker command...
  local name=$1 mark=$2
  shift 2
  local before
  before=$(lines "$tmp/$name.times")
  tmux -S "$tmp/sock" -f /dev/null new-session -d -x 120 -y 40 \
    "env TERM=xterm-256color python3 '$PWD/scripts/first-screen.py' '$tmp/$name.times' '$mark' $*"
  for _ in $(seq 300); do
    [ "$(lines "$tmp/$name.times")" -gt "$before" ] && break
    sleep 0.05
  done
  tmux -S "$tmp/sock" kill-server 2>/dev/null || true
}

uptime
for i in $(seq "${ROUNDS:-10}"); do
  if [ $((i % 2)) = 1 ]; then run A "$marker" "$tmp/A" "$db"; run B "$marker" "$tmp/B" "$db"
  else run B "$marker" "$tmp/B" "$db"; run A "$marker" "$tmp/A" "$db"; fi
  run hello hello "$tmp/hello"
done
python3 - "$tmp" "$old" <<'PY'
import statistics, sys
tmp, old = sys.argv[1:3]
def col(name, i):
    vals = [float(l.split()[i]) for l in open(f"{tmp}/{name}.times") if l.split()[i] != "-"]
    return statistics.median(vals), min(vals), max(vals), len(vals)
print(f"{'':28} {'median':>8} {'min':>8} {'max':>8}  runs")
for name, label in (("A", f"A ({old})"), ("B", "B (this tree)")):
    for i, what in ((0, "first byte"), (1, "list on screen")):
        m, lo, hi, k = col(name, i)
        print(f"{label + ' ' + what:28} {m:8.1f} {lo:8.1f} {hi:8.1f}  {k}")
m, lo, hi, k = col("hello", 0)
print(f"{'hello-world first byte':28} {m:8.1f} {lo:8.1f} {hi:8.1f}  {k}")
PY
