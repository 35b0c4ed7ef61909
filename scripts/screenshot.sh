#!/usr/bin/env bash
# Makes docs/screen.png, the screenshot README.md shows: `crmem --demo` in a
# 120x40 tmux pane, captured with its colours (capture-pane -e), turned into
# HTML by aha and photographed by headless chromium.
#
#   apt-get install -y tmux aha chromium fonts-dejavu-core
#   scripts/screenshot.sh [OUT.png]
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-docs/screen.png}
for tool in tmux aha chromium; do
  command -v "$tool" >/dev/null || { echo "screenshot.sh needs $tool (apt-get install -y tmux aha chromium)" >&2; exit 1; }
done
work=$(mktemp -d)
sock="$work/tmux.sock"
trap 'tmux -S "$sock" kill-server 2>/dev/null || true; rm -rf "$work"' EXIT
go build -o "$work/crmem" .

# wait_for TEXT: poll the pane until TEXT shows (10 s at most).
wait_for() {
  for _ in $(seq 1 200); do
    tmux -S "$sock" capture-pane -p -t shot | grep -qF -- "$1" && return 0
    sleep 0.05
  done
  echo "timed out waiting for '$1'" >&2
  tmux -S "$sock" capture-pane -p -t shot >&2
  return 1
}

tmux -S "$sock" -f /dev/null new-session -d -s shot -x 120 -y 40 \
  "TERM=xterm-256color HOME=$work $work/crmem --demo --style dark"
wait_for "(press /)"
tmux -S "$sock" send-keys -t shot /
tmux -S "$sock" send-keys -t shot -l "rollout"
wait_for "hits"
tmux -S "$sock" send-keys -t shot Enter
sleep 0.5 # let the rendered preview arrive
tmux -S "$sock" capture-pane -e -p -t shot > "$work/screen.ans"

{
  cat <<'HTML'
<!doctype html><html><head><meta charset="utf-8"><title>crmem</title><style>
body { margin: 0; background: #1c1c1c; color: #d0d0d0; }
pre { margin: 12px; font: 15px/18px "DejaVu Sans Mono", "Liberation Mono", monospace; }
</style></head><body><pre>
HTML
  aha --no-header < "$work/screen.ans"
  echo '</pre></body></html>'
} > "$work/screen.html"

chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
  --disable-background-networking --disable-component-update --disable-sync \
  --user-data-dir="$(mktemp -d -p "$work")" --hide-scrollbars \
  --screenshot="$work/screen.png" --window-size=1200,800 "file://$work/screen.html" 2>/dev/null
mkdir -p "$(dirname "$out")"
cp "$work/screen.png" "$out"
echo "wrote $out"
