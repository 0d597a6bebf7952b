#!/usr/bin/env bash
# Runs a command with a throwaway PostgreSQL server: installs Debian's postgresql if missing,
# starts a fresh cluster on a free loopback port, exports TEST_DATABASE_URL, TEST_PG_CTL and
# REQUIRE_POSTGRES=1, runs the command, then stops and removes the cluster (also on failure).
# Usage: scripts/with-postgres.sh cargo test --workspace
set -euo pipefail

if [ "$#" -eq 0 ]; then
    echo "usage: $0 COMMAND [ARGS...]" >&2
    exit 2
fi

as_root() {
    if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

find_bin() {
    local found
    found=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
    if [ -n "$found" ] && [ -x "$found/initdb" ]; then
        echo "$found"
    elif command -v initdb >/dev/null 2>&1; then
        dirname "$(command -v initdb)"
    fi
}

PG_BIN=$(find_bin)
if [ -z "$PG_BIN" ]; then
    echo "with-postgres: installing Debian's postgresql" >&2
    export DEBIAN_FRONTEND=noninteractive
    as_root apt-get install -y postgresql >/dev/null 2>&1 || {
        as_root apt-get update >/dev/null
        as_root apt-get install -y postgresql >/dev/null
    }
    PG_BIN=$(find_bin)
fi
if [ -z "$PG_BIN" ]; then
    echo "with-postgres: PostgreSQL's initdb not found after installing postgresql" >&2
    exit 1
fi

# The server refuses to run as root: when root, run it as the postgres user.
RUN_AS=()
if [ "$(id -u)" -eq 0 ]; then
    id postgres >/dev/null 2>&1 || useradd --system --home-dir /var/lib/postgresql --shell /bin/sh postgres
    RUN_AS=(runuser -u postgres --)
fi

PG_DIR=$(mktemp -d "${TMPDIR:-/tmp}/with-postgres.XXXXXX")
chmod 755 "$PG_DIR"
[ "${#RUN_AS[@]}" -gt 0 ] && chown postgres "$PG_DIR"

PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')

cleanup() {
    "$PG_DIR/pg_ctl" -m immediate stop >/dev/null 2>&1 || true
    rm -rf "$PG_DIR"
}
trap cleanup EXIT INT TERM

"${RUN_AS[@]}" "$PG_BIN/initdb" -D "$PG_DIR/data" -U postgres --auth=trust --encoding=UTF8 --locale=C.UTF-8 >"$PG_DIR/initdb.log" 2>&1 || {
    cat "$PG_DIR/initdb.log" >&2
    exit 1
}
# Tests make a database each and run in parallel: allow plenty of connections; durability
# does not matter for a throwaway cluster. $PG_DIR/pg_ctl runs pg_ctl on this cluster (the
# deployment test stops and starts it: `"$TEST_PG_CTL" stop -m fast`, `"$TEST_PG_CTL" start`).
cat >"$PG_DIR/pg_ctl" <<SH
#!/bin/sh
exec ${RUN_AS[*]} "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -l "$PG_DIR/server.log" -w -t 60 \\
    -o "-h 127.0.0.1 -p $PORT -k $PG_DIR -c max_connections=400 -c fsync=off -c synchronous_commit=off -c full_page_writes=off" "\$@"
SH
chmod 755 "$PG_DIR/pg_ctl"
"$PG_DIR/pg_ctl" start >/dev/null || {
    cat "$PG_DIR/server.log" >&2
    exit 1
}

export TEST_DATABASE_URL="postgres://postgres@127.0.0.1:$PORT/postgres"
export TEST_PG_CTL="$PG_DIR/pg_ctl"
export REQUIRE_POSTGRES=1
echo "with-postgres: PostgreSQL $("$PG_BIN/postgres" --version | awk '{print $3}') on 127.0.0.1:$PORT" >&2

set +e
"$@"
status=$?
set -e
exit "$status"
