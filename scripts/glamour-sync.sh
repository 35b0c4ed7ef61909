#!/bin/sh
# glamour-sync.sh keeps internal/glamour, crmem's copy of glamour's renderer
# (charm.land/glamour/v2, the root, ansi/, styles/ and internal/autolink/),
# of goldmark's extension package (extension/), of goldmark itself
# (goldmark/: the root, ast, text, util, parser, renderer, renderer/html,
# extension/ast) and of goldmark-emoji's ast package (emoji/ast), in step
# with upstream.
#
#   scripts/glamour-sync.sh diff
#       prints crmem's changes to the copy as one unified diff against the
#       upstream releases it was taken from (GLAMOUR and GOLDMARK below):
#       what a re-sync must carry forward.
#   scripts/glamour-sync.sh update NEW_GLAMOUR NEW_GOLDMARK [NEW_EMOJI]
#       three-way merges each file of the copy with the same file of the
#       new releases (git merge-file: the copy, the old release as base,
#       the new release), so crmem's changes are kept and upstream's
#       arrive; prints the files that conflict. Then set GLAMOUR and
#       GOLDMARK below to the new versions, bump go.mod's
#       charm.land/glamour/v2 and github.com/yuin/goldmark to them (the
#       test TestMatchesUpstream renders with the upstream module), and
#       run go test ./internal/glamour/... ./cli -run NoEagerInit.
#
# Files the copy does not hold (upstream's HTML stripping through
# bluemonday, chroma highlighting, the options crmem never sets) stay
# out: the merge only touches files the copy has. extension/lazy.go and
# goldmark/parser/lazy.go are crmem's own. goldmark-emoji (EMOJI) is merged
# only when a fourth argument names its new version. Upstream modules come from the Go module cache (go mod
# download), nothing else is fetched.
set -eu

GLAMOUR=v2.0.1
GOLDMARK=v1.8.7
EMOJI=v1.0.5

root=$(cd "$(dirname "$0")/.." && pwd)
copy=$root/internal/glamour

# moddir MODULE VERSION prints the module's folder in the module cache.
moddir() {
	go mod download -json "$1@$2" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p'
}

# files prints the copy's upstream files, relative to the copy.
files() {
	(cd "$copy" && find . -name '*.go' ! -name '*_test.go' ! -name lazy.go | sort)
}

# upstream FILE GLAMOUR_DIR GOLDMARK_DIR EMOJI_DIR prints FILE's upstream
# path.
upstream() {
	case $1 in
	./extension/*) echo "$3/$1" ;;
	./goldmark/*) echo "$3/${1#./goldmark/}" ;;
	./emoji/*) echo "$4/${1#./emoji/}" ;;
	*) echo "$2/$1" ;;
	esac
}

case ${1:-} in
diff)
	g=$(moddir charm.land/glamour/v2 "$GLAMOUR")
	m=$(moddir github.com/yuin/goldmark "$GOLDMARK")
	e=$(moddir github.com/yuin/goldmark-emoji "$EMOJI")
	for f in $(files); do
		u=$(upstream "$f" "$g" "$m" "$e")
		[ -f "$u" ] || u=/dev/null
		diff -u --label "a/${f#./}" --label "b/${f#./}" "$u" "$copy/$f" || true
	done
	;;
update)
	[ $# -eq 3 ] || [ $# -eq 4 ] || { echo "usage: $0 update NEW_GLAMOUR NEW_GOLDMARK [NEW_EMOJI]" >&2; exit 2; }
	g=$(moddir charm.land/glamour/v2 "$GLAMOUR")
	m=$(moddir github.com/yuin/goldmark "$GOLDMARK")
	e=$(moddir github.com/yuin/goldmark-emoji "$EMOJI")
	ng=$(moddir charm.land/glamour/v2 "$2")
	nm=$(moddir github.com/yuin/goldmark "$3")
	ne=$(moddir github.com/yuin/goldmark-emoji "${4:-$EMOJI}")
	conflicts=0
	for f in $(files); do
		base=$(upstream "$f" "$g" "$m" "$e")
		new=$(upstream "$f" "$ng" "$nm" "$ne")
		if [ ! -f "$base" ] || [ ! -f "$new" ]; then
			echo "skipped (not in both releases): ${f#./}" >&2
			continue
		fi
		if ! git merge-file -L crmem -L "$GLAMOUR/$GOLDMARK" -L "$2/$3" "$copy/$f" "$base" "$new"; then
			echo "conflict: internal/glamour/${f#./}" >&2
			conflicts=$((conflicts + 1))
		fi
	done
	[ "$conflicts" -eq 0 ] || exit 1
	;;
*)
	echo "usage: $0 diff | update NEW_GLAMOUR NEW_GOLDMARK [NEW_EMOJI]" >&2
	exit 2
	;;
esac
