#!/usr/bin/env bash
# `make bench`: our site next to the tools one would pick instead, on this machine, in one run.
# Prints one table and writes it into BENCHMARKS.md. Needs the release build (make site-release).
#   BENCH_SIZES="1000:3 10000:1"  synthetic-site sizes N and runs of each build kind
#   BENCH_WRK_SECONDS=5 BENCH_WRK_RUNS=3  wrk duration and alternating runs per server
#   BENCH_LIGHTHOUSE_RUNS=3  Lighthouse audits per page type (medians)
#   BENCH_FRESH=0  skips step 9 (make run and make test on clean clones, about half an hour)
set -euo pipefail
cd "$(dirname "$0")/.."
REPO=$PWD
SIZES=${BENCH_SIZES:-1000:3 10000:1}
WRK_SECONDS=${BENCH_WRK_SECONDS:-5}
WRK_RUNS=${BENCH_WRK_RUNS:-3}

apt_install() {
  if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
    echo "make bench needs the Debian package(s) $*: sudo apt-get install -y $*" >&2
    exit 1
  fi
  echo "Installing Debian package(s): $*"
  if ! DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null 2>&1; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
  fi
}
missing=()
command -v hugo >/dev/null || missing+=(hugo)
command -v nginx >/dev/null || [ -x /usr/sbin/nginx ] || missing+=(nginx-light)
command -v wrk >/dev/null || missing+=(wrk)
[ -x /usr/bin/chromium ] || missing+=(chromium)
# build_bench.py reads each build's peak memory from GNU time.
[ -x /usr/bin/time ] || missing+=(time)
((${#missing[@]})) && apt_install "${missing[@]}"
# Optional: without it nginx and ours are compared on gzip only (serve_bench.py says so).
if [ ! -e /usr/lib/nginx/modules/ngx_http_brotli_static_module.so ]; then
  apt_install libnginx-mod-http-brotli-static || echo "no brotli module for nginx: comparing gzip only"
fi
export PATH=$PATH:/usr/sbin
if [ ! -e bench/node_modules/.package-lock.json ] || [ bench/package-lock.json -nt bench/node_modules/.package-lock.json ]; then
  # `npm install` at the locked versions, as the Makefile installs the UI's and the tests'.
  npm --prefix bench install --no-audit --no-fund --loglevel=error
fi
for f in target/release/site target/release/api dist/assets/manifest.json ui/.ssr/render.mjs tests/node_modules/playwright-core; do
  [ -e "$f" ] || { echo "$f is missing: run 'make bench' (it builds the release site first)" >&2; exit 1; }
done

WORK=$(mktemp -d /tmp/site-bench.XXXXXX)
RESULTS=$WORK/results.jsonl
: >"$RESULTS"
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  rm -rf "$WORK"
}
trap cleanup EXIT
# The machine may be shared: the load average goes into the report beside the numbers.
(while true; do echo "$(date +%s) $(cut -d' ' -f1 /proc/loadavg)" >>"$WORK/load.txt"; sleep 15; done) &
pids+=($!)

echo "== 4. Page weight"
python3 bench/page_weight.py "$REPO" "$RESULTS"

echo "== 3. Search vs Pagefind"
PORT_SEARCH=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
mkdir -p "$WORK/data-search"
env -u DATABASE_URL PORT=$PORT_SEARCH DIST_DIR="$REPO/dist" DATA_DIR="$WORK/data-search" \
  target/release/api serve >"$WORK/api-search.log" 2>&1 &
pids+=($!)
search_pid=$!
for _ in $(seq 100); do curl -fs -o /dev/null "http://127.0.0.1:$PORT_SEARCH/" && break; sleep 0.2; done
node bench/search_bench.mjs "$REPO" "$WORK" "http://127.0.0.1:$PORT_SEARCH" "$RESULTS" | python3 -c '
import json, sys
r = json.loads(sys.stdin.read())
for s in r["sites"]:
    print("  " + s["name"] + ": ours", s["ours"]["index"] + s["ours"]["locales"], "bytes; Pagefind", s["pagefind"]["bytes"], "bytes")
print("  keystroke ms", r["keystroke_ms"])'
kill "$search_pid"

echo "== 8. Lighthouse, mobile profile"
node bench/lighthouse_bench.mjs "$REPO" "$WORK" "$RESULTS"

echo "== 2. Static serving vs nginx, 5. Load, 7. Deployment"
python3 bench/serve_bench.py "$REPO" "$WORK" "$RESULTS" "$WRK_SECONDS" "$WRK_RUNS"

if [ -f api/benches/login.rs ]; then
  echo "== Login (cargo bench -p api --bench login)"
  cargo bench -q -p api --bench login 2>/dev/null | tee "$WORK/login.txt"
  python3 - "$WORK/login.txt" "$RESULTS" <<'PY'
import json, re, sys
text = open(sys.argv[1]).read()
rows = []
for label, pattern, unit, hib in [("login latency, median", r"latency median: ([\d.]+) ms", "ms", False),
                                  ("login latency, p95", r"latency p95: ([\d.]+) ms", "ms", False),
                                  ("logins per second", r"logins per second \(([^)]*)\): ([\d.]+)", "logins/s", True)]:
    m = re.search(pattern, text)
    if m:
        rows.append(dict(group="6. Login (argon2id, HTTP, SQLite)", row=label, ours=float(m.groups()[-1]), anchor=None,
                         unit=unit, higher_is_better=hib, detail=m.group(1) if len(m.groups()) > 1 else ""))
with open(sys.argv[2], "a") as f:
    f.writelines(json.dumps(r) + "\n" for r in rows)
PY
fi

echo "== 1. Generator vs Hugo (sizes: $SIZES)"
# shellcheck disable=SC2086
python3 bench/build_bench.py "$REPO" "$WORK" "$RESULTS" $SIZES

echo "== 1b. Photos: the real site with five phone photos, cold and with the photo cache filled"
python3 bench/photo_bench.py "$REPO" "$WORK" "$RESULTS"

if [ "${BENCH_FRESH:-1}" != 0 ]; then
  echo "== 9. A fresh clone: make run, make invite, make dev, make test"
  python3 bench/fresh_bench.py "$REPO" "$WORK" "$RESULTS"
fi

echo
python3 bench/report.py "$RESULTS" BENCHMARKS.md "make bench" "$WORK/load.txt"
