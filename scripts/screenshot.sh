#!/usr/bin/env bash
# Makes docs/screen.png, the picture README.md shows: `crmem --demo` in a
# 120x40 tmux pane after searching for "rollout" and opening the first hit,
# captured with its colours (tmux capture-pane -e) and drawn by
# charmbracelet's freeze, made a PNG by rsvg-convert. freeze is pinned: the
# one on PATH if it is that version, else built through the Go module proxy
# by `go run`.
#
#   apt-get install -y tmux librsvg2-bin fonts-dejavu-core
#   scripts/screenshot.sh [OUT.png]
#
# Needs Go too. README.md's screen as text is checked against the
# demo by TestReadme_ScreenText (cli), which -update-readme rewrites.
# Beside the picture it writes the same screen as text (screen.txt, the
# demo copy's path as README shows it) and the SHA-256 of the picture and
# that text together (screen.sum): TestScreenPicture_FollowsTheDemo (cli)
# fails when the demo's screen changes and the picture is not drawn again.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-docs/screen.png}
freeze_version=v0.2.2
for tool in tmux rsvg-convert; do
  command -v "$tool" >/dev/null || { echo "screenshot.sh needs tmux and rsvg-convert (apt-get install tmux librsvg2-bin fonts-dejavu-core)" >&2; exit 1; }
done
if command -v freeze >/dev/null && freeze --version 2>/dev/null | grep -q "${freeze_version#v}"; then
  freeze=(freeze)
else
  freeze=(go run "github.com/charmbracelet/freeze@$freeze_version")
fi
work=$(mktemp -d)
sock="$work/tmux.sock"
trap 'tmux -S "$sock" kill-server 2>/dev/null || true; rm -rf "$work"' EXIT
go build -o "$work/crmem" .

capture() { tmux -S "$sock" capture-pane -p -t shot; }

# wait_for TEXT: poll the pane until TEXT shows (20 s at most).
wait_for() {
  for _ in $(seq 1 400); do
    capture | grep -qF -- "$1" && return 0
    sleep 0.05
  done
  echo "timed out waiting for '$1'" >&2
  capture >&2
  return 1
}

# settle: wait until the pane has not changed for half a second (the
# preview renders, and the sessions are read, in the background).
settle() {
  local last="" same=0 now
  for _ in $(seq 1 400); do
    now=$(capture)
    if [ "$now" = "$last" ]; then same=$((same + 1)); else same=0; fi
    [ "$same" -ge 10 ] && return 0
    last=$now
    sleep 0.05
  done
  echo "the screen did not settle" >&2
  return 1
}

tmux -S "$sock" -f /dev/null new-session -d -s shot -x 120 -y 40 \
  "TERM=xterm-256color COLORTERM=truecolor HOME=$work TMPDIR=$work $work/crmem --demo --style dark"
wait_for "(press /)"
tmux -S "$sock" send-keys -t shot /
tmux -S "$sock" send-keys -t shot -l "rollout"
wait_for "name matches"
tmux -S "$sock" send-keys -t shot Enter
wait_for "Deploying the billing service"
wait_for "recorded recalls"
settle
tmux -S "$sock" capture-pane -e -p -t shot > "$work/screen.ans"
# the same screen as text: each line's trailing blanks and the blank lines
# at the end cut, the demo copy's path as README.md shows it
tmux -S "$sock" capture-pane -p -t shot |
  sed -e 's/ *$//' -e 's#│ [^ ]*memory\.db$#│ /tmp/crmem-demo-2718281828/memory.db#' |
  awk '{ l[NR] = $0 } END { n = NR; while (n > 0 && l[n] == "") n--; for (i = 1; i <= n; i++) print l[i] }' > "$work/screen.txt"

mkdir -p "$(dirname "$out")"
# freeze draws an SVG; rsvg-convert makes the PNG at a width fit for the
# README (freeze's own PNG is four times the size, and its built-in renderer
# draws no text without the fonts rsvg-convert finds through fontconfig).
"${freeze[@]}" --language ansi --window --padding 20 --margin 0 \
  --font.family "DejaVu Sans Mono" --font.size 14 --line-height 1.2 \
  --output "$work/screen.svg" < "$work/screen.ans" >/dev/null
rsvg-convert --width 1400 --keep-aspect-ratio -o "$out" "$work/screen.svg"
cp "$work/screen.txt" "${out%.png}.txt"
cat "$out" "${out%.png}.txt" | sha256sum | cut -d' ' -f1 > "${out%.png}.sum"
echo "wrote $out ($(wc -c < "$out") bytes), ${out%.png}.txt and ${out%.png}.sum"
