#!/bin/sh
# editor.sh FILE: a scripted $EDITOR for the tmux tests. It runs the shell
# commands in the file $EDIT_PLAN with FILE as $1 (sed and printf edits of
# the temp file, another writer's crmem calls, sleeps) and exits with their
# status.
set -e
. "$EDIT_PLAN"
