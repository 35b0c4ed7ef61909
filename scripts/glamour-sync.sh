#!/bin/sh
# glamour-sync.sh keeps internal/glamour, crmem's copy of glamour's renderer
# (charm.land/glamour/v2, the root, ansi/, styles/ and internal/autolink/),
# of goldmark's extension package (extension/) and of goldmark itself
# (goldmark/: the root, ast, text, util, parser, renderer, renderer/html,
# extension/ast), in step with upstream.
#
#   scripts/glamour-sync.sh diff
#       prints crmem's changes to the copy as one unified diff against the
#       upstream releases it was taken from (GLAMOUR and GOLDMARK below):
#       what a re-sync must carry forward.
#   scripts/glamour-sync.sh update NEW_GLAMOUR NEW_GOLDMARK
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
# bluemonday, chroma highlighting, emoji, footnotes, the options and
# functions crmem never calls) stay out: the merge only touches files the
# copy has, and a function the copy dropped that a new release changes
# shows as a conflict to resolve by keeping it out. extension/lazy.go and
# goldmark/parser/lazy.go are crmem's own. Upstream modules come from the
# Go module cache (go mod download), nothing else is fetched.
set -eu

GLAMOUR=v2.0.1
GOLDMARK=v1.8.7

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

# upstream FILE GLAMOUR_DIR GOLDMARK_DIR prints FILE's upstream path.
upstream() {
	case $1 in
	./extension/*) echo "$3/$1" ;;
	./goldmark/*) echo "$3/${1#./goldmark/}" ;;
	*) echo "$2/$1" ;;
	esac
}

case ${1:-} in
diff)
	g=$(moddir charm.land/glamour/v2 "$GLAMOUR")
	m=$(moddir github.com/yuin/goldmark "$GOLDMARK")
	for f in $(files); do
		u=$(upstream "$f" "$g" "$m")
		[ -f "$u" ] || u=/dev/null
		diff -u --label "a/${f#./}" --label "b/${f#./}" "$u" "$copy/$f" || true
	done
	;;
update)
	[ $# -eq 3 ] || { echo "usage: $0 update NEW_GLAMOUR NEW_GOLDMARK" >&2; exit 2; }
	g=$(moddir charm.land/glamour/v2 "$GLAMOUR")
	m=$(moddir github.com/yuin/goldmark "$GOLDMARK")
	ng=$(moddir charm.land/glamour/v2 "$2")
	nm=$(moddir github.com/yuin/goldmark "$3")
	conflicts=0
	for f in $(files); do
		base=$(upstream "$f" "$g" "$m")
		new=$(upstream "$f" "$ng" "$nm")
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
	echo "usage: $0 diff | update NEW_GLAMOUR NEW_GOLDMARK" >&2
	exit 2
	;;
esac
