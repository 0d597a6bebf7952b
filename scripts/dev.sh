#!/usr/bin/env bash
# `make dev`: serve with live reload and rebuild on every change; Ctrl-C stops both.
set -euo pipefail
# The watcher builds first and writes dist/.dev-build.json after every build; the server needs
# that first build's dist/ to start, and then shows each build's outcome in the open pages.
rm -f dist/.dev-build.json
target/release/site watch --dev &
watcher=$!
server=
trap 'kill $watcher $server 2>/dev/null' EXIT INT TERM
until [ -e dist/.dev-build.json ]; do
  kill -0 "$watcher" 2>/dev/null || exit 1
  sleep 0.1
done
# A first build that fails leaves no site to serve: the server starts after the fix.
[ -e dist/_site.json ] || echo "The server starts once the site builds (see the error above)." >&2
until [ -e dist/_site.json ]; do
  kill -0 "$watcher" 2>/dev/null || exit 1
  sleep 0.2
done
target/release/api serve --dev &
server=$!
wait "$watcher"
