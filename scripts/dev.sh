#!/usr/bin/env bash
# `make dev`: serve with live reload and rebuild on every change; Ctrl-C stops both.
set -euo pipefail
# The server needs a built dist/ to start; the watcher then rebuilds on every change.
target/debug/site build --dev
target/debug/api serve --dev &
server=$!
trap 'kill $server 2>/dev/null' EXIT INT TERM
target/debug/site watch --dev
