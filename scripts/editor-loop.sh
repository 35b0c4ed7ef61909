#!/usr/bin/env bash
# Drives crmem in tmux through N edits with an $EDITOR that appends a line
# and exits 3, with both cores kept busy, and counts the edits after which
# the screen was not redrawn (issue 10, item 13: a blank screen after a
# failing editor).
#
#   scripts/editor-loop.sh [N (300)] [BUSY (2)]
#
# SRC=DIR builds crmem from another checkout (to compare with a base).
# Each edit must show its own "your text is kept in <path>" (a new temp
# path every time) within 20 s; an edit that does not counts as a blank
# screen, the screen is saved, and crmem is restarted.
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-300}
busy=${2:-2}
work=$(mktemp -d)
sock="$work/tmux.sock"
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  tmux -S "$sock" kill-server 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
(cd "${SRC:-.}" && go build -o "$work/crmem" .)
cp testdata/reference/crmem/small.db "$work/memory.db"
mkdir "$work/tmp"
cat >"$work/editor.sh" <<'ED'
#!/bin/sh
printf 'Half-written thought.\n' >> "$1"
exit 3
ED
chmod +x "$work/editor.sh"
for _ in $(seq "$busy"); do
  sh -c 'while :; do :; done' &
  pids+=($!)
done
start_crmem() {
  tmux -S "$sock" kill-session -t ed 2>/dev/null || true
  tmux -S "$sock" -f /dev/null new-session -d -s ed -x 120 -y 40 \
    "env HOME=$work TMPDIR=$work/tmp EDITOR=$work/editor.sh VISUAL= TERM=xterm-256color $work/crmem $work/memory.db; sleep 600"
  for _ in $(seq 500); do
    tmux -S "$sock" capture-pane -p -t ed | grep -q "notes ·" && return 0
    sleep 0.02
  done
  echo "crmem did not start" >&2
  exit 1
}
now_ms() { echo $(( $(date +%s%N) / 1000000 )); }
start_crmem
blank=0
last=""
t0=$(now_ms)
for i in $(seq "$n"); do
  tmux -S "$sock" send-keys -t ed e
  start=$(now_ms)
  ok=0
  while (( $(now_ms) - start < 20000 )); do
    path=$(tmux -S "$sock" capture-pane -p -J -t ed | tr -d '\n' | grep -o 'kept in [^ ]*\.md' | tail -1 || true)
    if [ -n "$path" ] && [ "$path" != "$last" ]; then
      last=$path
      ok=1
      break
    fi
    sleep 0.02
  done
  if (( ! ok )); then
    blank=$((blank + 1))
    echo "edit $i: not redrawn within 20 s; screen:" >&2
    tmux -S "$sock" capture-pane -p -t ed >&2
    start_crmem
    last=""
  fi
  rm -rf "$work"/tmp/crmem-edit-*
done
echo "edits: $n  busy loops: $busy  not redrawn: $blank  time: $(( ($(now_ms) - t0) / 1000 )) s"
