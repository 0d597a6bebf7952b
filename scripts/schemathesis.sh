#!/usr/bin/env bash
# Property-based tests of the membership API against its own OpenAPI document: builds and
# starts `api serve` on a free port with a temp DATA_DIR and the built site (`make site`'s dist/), runs
# schemathesis over every operation of /api/openapi.json (no server errors; status codes,
# content types, headers and bodies as documented), stops the server. Non-zero on failure.
# Env: SCHEMATHESIS_MAX_EXAMPLES (default 100) bounds the cases per operation.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v st >/dev/null 2>&1 && ! python3 -m schemathesis.cli --version >/dev/null 2>&1; then
    echo "schemathesis: installing from PyPI" >&2
    python3 -m pip install --quiet --disable-pip-version-check 'schemathesis>=4,<5'
fi
ST=(st)
command -v st >/dev/null 2>&1 || ST=(python3 -m schemathesis.cli)

# The Makefile's debug build (`make test` has run it already, so this is a no-op there): a
# `cargo build -p server` of its own would compile the API's dependencies again with another
# feature set, and replace the binary the later test layers run.
cargo test -q --workspace --no-run

WORK=$(mktemp -d "${TMPDIR:-/tmp}/schemathesis.XXXXXX")
SERVER_PID=""
cleanup() {
    if [ -n "$SERVER_PID" ]; then
        kill "$SERVER_PID" 2>/dev/null || true
        wait "$SERVER_PID" 2>/dev/null || true
    fi
    rm -rf "$WORK"
}
trap cleanup EXIT INT TERM

# `api serve` serves the site beside the API: the one `make site` built (`make test` builds it
# before this script runs).
if [ ! -e dist/_site.json ]; then
    echo "schemathesis: dist/ has no built site: run \`make site\` first" >&2
    exit 1
fi
mkdir -p "$WORK/data"

PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')
# A closed port as the blog feed: /api/feed must answer from its fallback, not the internet.
# The rate limits are raised so the run exercises the logic rather than only 429s.
PORT="$PORT" DIST_DIR="$PWD/dist" DATA_DIR="$WORK/data" DATABASE_URL="" \
    BLOG_FEED_URL="http://127.0.0.1:9/feed.xml" RATE_LIMIT_SCALE=100000 \
    GOOGLE_CLIENT_ID="" GOOGLE_CLIENT_SECRET="" SMTP_URL="" RUST_LOG=warn \
    target/debug/api serve >"$WORK/server.log" 2>&1 &
SERVER_PID=$!

for _ in $(seq 1 100); do
    if curl -fsS "http://127.0.0.1:$PORT/api/openapi.json" >/dev/null 2>&1; then
        break
    fi
    if ! kill -0 "$SERVER_PID" 2>/dev/null; then
        echo "schemathesis: the server did not start:" >&2
        cat "$WORK/server.log" >&2
        exit 1
    fi
    sleep 0.2
done

set +e
"${ST[@]}" run "http://127.0.0.1:$PORT/api/openapi.json" \
    --checks not_a_server_error,status_code_conformance,content_type_conformance,response_headers_conformance,response_schema_conformance \
    --max-examples "${SCHEMATHESIS_MAX_EXAMPLES:-100}" \
    --max-redirects 0 \
    --phases examples,coverage,fuzzing \
    --suppress-health-check all \
    --seed 1 \
    --workers 2 \
    --no-color
status=$?
set -e
if [ "$status" -ne 0 ]; then
    echo "schemathesis: failures above; server log (errors only):" >&2
    grep -E "ERROR|WARN|panicked" "$WORK/server.log" | tail -n 40 >&2 || true
fi
exit "$status"
