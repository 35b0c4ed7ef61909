#!/usr/bin/env bash
# Measures SPEC §8's TUI rows: first screen at 100k, keystroke to frame at
# 10k and 100k for every key that does work (sort switches, filters, marks,
# reloads while sorted by name or size, search, explain, help), external
# write to updated screen.
#
#   scripts/tui-bench.sh [BIG_DB] [10K_DB]
#
# Defaults: /work/bench/big.db and /work/bench/10k.db (made with
# ../shared/tools/gen_corpus.py); they are only read (writes go to copies). Needs tmux for the real-terminal figures.
# Part 1 drives the model directly (Go benchmarks in tui/bench_test.go);
# part 2 runs the built binary in tmux and times what appears on screen,
# polling capture-pane every 10 ms (so figures include up to ~10 ms of
# polling and tmux's own latency).
set -euo pipefail
cd "$(dirname "$0")/.."
big=${1:-/work/bench/big.db}
small=${2:-/work/bench/10k.db}
for f in "$big" "$small"; do
  [ -f "$f" ] || { echo "missing corpus $f" >&2; exit 1; }
done

echo "== model benchmarks (ms/key = keystroke to frame, search included)"
for db in "$small" "$big"; do
  echo "-- $db"
  CRMEM_BENCH_DB=$db go test ./tui -run '^$' -bench 'FirstScreen|Keystroke|Navigate|ExternalWrite' -benchtime 5x -count 1 | grep -E '^Benchmark'
done

# Every key: the work it does on the update loop (its Update, the Updates
# of the results its commands bring back, and the frame), 20 times each on
# a copy of the corpus. Target: 16 ms at 10k, 50 ms at 100k.
echo "== every key, loop work per key in ms (p50 p99 max over 20 presses)"
for db in "$small" "$big"; do
  echo "-- $db"
  CRMEM_BENCH_DB=$db go test ./tui -run '^$' -bench '^BenchmarkKeys$' -benchtime 1x -count 1 |
    awk '/^BenchmarkKeys/ {
      for (i = 3; i < NF; i += 2) { split($(i+1), p, "-"); k = $(i+1); sub(/-(p50|p99|max)-ms$/, "", k)
        v[k, p[length(p)-1]] = $i; if (!(k in seen)) { seen[k] = 1; order[++n] = k } }
    } END {
      printf "%-22s %8s %8s %8s\n", "key", "p50", "p99", "max"
      for (j = 1; j <= n; j++) printf "%-22s %8s %8s %8s\n", order[j], v[order[j], "p50"], v[order[j], "p99"], v[order[j], "max"]
    }'
done

command -v tmux >/dev/null || { echo "tmux not installed: skipping the real-terminal part"; exit 0; }
work=$(mktemp -d)
sock="$work/tmux.sock"
trap 'tmux -S "$sock" kill-server 2>/dev/null || true; rm -rf "$work"' EXIT
go build -o "$work/crmem" .
# A keeper session holds the tmux server up between runs.
tmux -S "$sock" -f /dev/null new-session -d -s keep -x 80 -y 24 "sleep 3600"
now_ms() { echo $(( $(date +%s%N) / 1000000 )); }
# wait_for SESSION REGEX: milliseconds until REGEX matches the screen (timeout 20 s).
wait_for() {
  local start; start=$(now_ms)
  while ! tmux -S "$sock" capture-pane -p -t "$1" 2>/dev/null | grep -qE -- "$2"; do
    sleep 0.01
    if (( $(now_ms) - start > 20000 )); then echo "timeout waiting for '$2'" >&2; return 1; fi
  done
  echo $(( $(now_ms) - start ))
}

echo "== real terminal (tmux 120x40)"
for db in "$big" "$small"; do
  cp "$db" "$work/memory.db"
  for run in 1 2 3; do
    tmux -S "$sock" kill-session -t b 2>/dev/null || true
    start=$(now_ms)
    tmux -S "$sock" -f /dev/null new-session -d -s b -x 120 -y 40 "HOME=$work $work/crmem $work/memory.db"
    wait_for b "[1-9][0-9]* notes · " >/dev/null # the list is there
    echo "first screen ($(basename "$db")) run $run: $(( $(now_ms) - start )) ms"
  done
  # Wait until the background index is built (the search line says so).
  while tmux -S "$sock" capture-pane -p -t b | grep -qF "indexing…"; do sleep 0.05; done
  # External write: time from the end of the writer's save to the new entry
  # on screen (debounce 100 ms + reload + frame).
  # The status message stays 4 s, so runs are spaced by 5 s.
  for run in 1 2 3; do
    "$work/crmem" --db "$work/memory.db" add "external-$run-$$" "written from outside" >/dev/null
    echo "external write to screen ($(basename "$db")) run $run: $(wait_for b "reloaded: \\+1 external-(name-)?$run-$$") ms"
    sleep 5
  done
  # Sort switches as seen on screen: s to its "sorted by …" message (an
  # order still being built shows "sorting by …" first; the list keeps
  # answering meanwhile).
  for o in oldest name; do
    start=$(now_ms)
    tmux -S "$sock" send-keys -t b s
    wait_for b "sorted by $o" >/dev/null
    echo "s to sorted by $o ($(basename "$db")): $(( $(now_ms) - start )) ms"
  done
  sleep 5
  # External write while sorted by name: the order comes derived from the
  # previous one, not sorted again.
  for run in 1 2 3; do
    "$work/crmem" --db "$work/memory.db" add "external-name-$run-$$" "written from outside" >/dev/null
    echo "external write to screen, sorted by name ($(basename "$db")) run $run: $(wait_for b "reloaded: \\+1 external-(name-)?$run-$$") ms"
    sleep 5
  done
done
