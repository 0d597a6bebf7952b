#!/usr/bin/env python3
"""Steps 2 and 5: our server against nginx on the same dist/, then a bounded load run.

    serve_bench.py REPO WORK RESULTS SECONDS RUNS

Step 2: wrk (64 connections, SECONDS each, RUNS alternating runs per server) on an article page,
a hashed JS chunk and the home page, with gzip and with br; medians of requests/s and p99, with
the spread of p99 over the runs. On two or more cores the server under test (ours, or nginx with
one worker) runs on one core and wrk on another (taskset), so neither steals the other's time.
Also GET /api/denglu (ours only: nginx has no API). Step 5: a fresh server, load_bench.mjs.
Step 7: the deployment of docs/deploy.md: the same article page and GET /api/denglu through nginx
(deploy/nginx-site.conf, TLS) to two instances sharing one database, beside one instance alone.
"""
import json
import os
import ssl
import re
import socket
import statistics
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

REPO, WORK, RESULTS = (Path(a).resolve() for a in sys.argv[1:4])
SECONDS, RUNS = int(sys.argv[4]), int(sys.argv[5])
DIST = REPO / "dist"
BROTLI_MODULE = Path("/usr/lib/nginx/modules/ngx_http_brotli_static_module.so")


# Core 0 for the load generator, core 1 for the server under test; unpinned on one core.
PINNED = (os.cpu_count() or 1) >= 2 and subprocess.run(["which", "taskset"], capture_output=True).returncode == 0
SERVER_CORE = ["taskset", "-c", "1"] if PINNED else []
LOAD_CORE = ["taskset", "-c", "0"] if PINNED else []
PLACEMENT = ("server on core 1 (nginx: 1 worker), wrk -t1 on core 0" if PINNED
             else "one core: server and wrk share it")


def row(**kw):
    with open(RESULTS, "a") as f:
        f.write(json.dumps(kw) + "\n")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(port, path="/", timeout=60):
    deadline = time.time() + timeout
    while time.time() < deadline:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=2) as r:
                r.read()
                return
        except Exception:
            time.sleep(0.2)
    sys.exit(f"nothing answered on port {port}")


def start_ours(name, pinned=False, **settings):
    port = free_port()
    data = WORK / f"data-{name}"
    data.mkdir(parents=True, exist_ok=True)
    env = dict(os.environ, PORT=str(port), DIST_DIR=str(DIST), DATA_DIR=str(data))
    env.pop("DATABASE_URL", None)  # the default is the SQLite file in DATA_DIR
    env.update(settings)
    log = open(WORK / f"api-{name}.log", "w")
    # Pinned, tokio sizes its runtime to the one core it may use, as nginx gets one worker.
    command = [*(SERVER_CORE if pinned else []), REPO / "target/release/api", "serve"]
    proc = subprocess.Popen(command, env=env, stdout=log, stderr=log)
    wait_for(port)
    return proc, port


def start_nginx():
    port = free_port()
    conf = (REPO / "bench/nginx.conf").read_text()
    has_brotli = BROTLI_MODULE.exists()
    conf = (conf.replace("@WORK@", str(WORK)).replace("@DIST@", str(DIST)).replace("@PORT@", str(port))
            .replace("@BROTLI_MODULE@", f"load_module {BROTLI_MODULE};" if has_brotli else "")
            .replace("@BROTLI@", "brotli_static on;" if has_brotli else "")
            .replace("@WORKERS@", "1" if PINNED else "auto"))
    path = WORK / "nginx.conf"
    path.write_text(conf)
    proc = subprocess.Popen([*SERVER_CORE, "nginx", "-c", path, "-p", WORK], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    wait_for(port)
    return proc, port, has_brotli


def stop(proc):
    proc.terminate()
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def fetch(port, path, encoding):
    req = urllib.request.Request(f"http://127.0.0.1:{port}{path}", headers={"Accept-Encoding": encoding})
    with urllib.request.urlopen(req) as r:
        return r.status, r.headers.get("Content-Encoding"), r.read()


# Connections of the deployment step: below the 40 one client address may hold.
DEPLOY_CONNECTIONS = 32


def to_ms(value, unit):
    return float(value) * {"us": 0.001, "ms": 1.0, "s": 1000.0}[unit]


def wrk(port, path, encoding, origin=None, pinned=False, connections=64):
    url = f"{origin or f'http://127.0.0.1:{port}'}{path}"
    threads = ["-t1"] if pinned and PINNED else ["-t2"]
    command = [*(LOAD_CORE if pinned else []), "wrk", *threads, f"-c{connections}", f"-d{SECONDS}s", "--latency",
               "-H", f"Accept-Encoding: {encoding}", url]
    out = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
    p99 = re.search(r"99%\s+([\d.]+)(us|ms|s)", out)
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    if errors:
        sys.exit(f"wrk saw errors on {path}:\n{out}")
    return rps, to_ms(*p99.groups())


def serving():
    manifest = json.loads((DIST / "assets/manifest.json").read_text())
    chunk = manifest["entry"]
    targets = [("article /valuation-models/dcf", "/valuation-models/dcf"), (f"JS chunk {chunk}", chunk), ("home /", "/")]
    ours, ours_port = start_ours("serve", pinned=True)
    nginx, nginx_port, has_brotli = start_nginx()
    encodings = ["gzip", "br"] if has_brotli else ["gzip"]
    try:
        for label, path in targets:
            for enc in encodings:
                # Both must send the same representation, or the comparison means nothing.
                a, b = fetch(ours_port, path, enc), fetch(nginx_port, path, enc)
                if a[0] != 200 or a[1:] != b[1:]:
                    sys.exit(f"ours and nginx differ on {path} ({enc}): {a[:2]} {len(a[2])}B vs {b[:2]} {len(b[2])}B")
                res = {"ours": [], "nginx": []}
                for r in range(RUNS):
                    res["ours"].append(wrk(ours_port, path, enc, pinned=True))
                    res["nginx"].append(wrk(nginx_port, path, enc, pinned=True))
                med = {k: (statistics.median(x[0] for x in v), statistics.median(x[1] for x in v)) for k, v in res.items()}
                spread = {k: (min(x[1] for x in v), max(x[1] for x in v)) for k, v in res.items()}
                print(f"  {label} {enc}: ours {med['ours'][0]:.0f} req/s p99 {med['ours'][1]:.2f}ms, "
                      f"nginx {med['nginx'][0]:.0f} req/s p99 {med['nginx'][1]:.2f}ms", flush=True)
                size = f"{len(a[2])} B {enc} body; {PLACEMENT}"
                p99_spread = (f"p99 over {RUNS} runs: ours {spread['ours'][0]:.2f}–{spread['ours'][1]:.2f} ms, "
                              f"nginx {spread['nginx'][0]:.2f}–{spread['nginx'][1]:.2f} ms")
                row(group="2. Static serving vs nginx", row=f"{label}, {enc}: requests/s", ours=med["ours"][0],
                    anchor=med["nginx"][0], unit="req/s", higher_is_better=True, goal=1.0, detail=size)
                row(group="2. Static serving vs nginx", row=f"{label}, {enc}: p99 latency", ours=med["ours"][1],
                    anchor=med["nginx"][1], unit="ms", higher_is_better=False, goal=1.0, detail=f"{size}; {p99_spread}")
        denglu = [wrk(ours_port, "/api/denglu", "gzip", pinned=True) for _ in range(RUNS)]
        row(group="2. Static serving vs nginx", row="GET /api/denglu: requests/s (p99 in detail)",
            ours=statistics.median(d[0] for d in denglu), anchor=None, unit="req/s", higher_is_better=True,
            detail=f"p99 {statistics.median(d[1] for d in denglu):.2f} ms; no anchor (nginx has no API)")
    finally:
        stop(ours)
        stop(nginx)
    if not has_brotli:
        print("  nginx has no brotli_static module here: compared with gzip only", flush=True)


def load():
    proc, port = start_ours("load")
    try:
        out = subprocess.run(["node", REPO / "bench/load_bench.mjs", f"http://127.0.0.1:{port}", DIST],
                             capture_output=True, text=True)
        if out.returncode != 0:
            sys.exit(f"load run failed:\n{out.stdout}\n{out.stderr}")
        result = json.loads(out.stdout.strip().splitlines()[-1])
        status = Path(f"/proc/{proc.pid}/status").read_text()
        hwm_kb = int(re.search(r"VmHWM:\s+(\d+) kB", status).group(1))
    finally:
        stop(proc)
    g = "5. Load (mixed pages, assets and /api/denglu; 32 connections)"
    detail = f"{result['requests']} requests in {result['seconds']:.1f}s (cap {result['cap_requests']} or {result['cap_seconds']}s)"
    row(group=g, row="requests served", ours=result["ok"], anchor=None, unit="requests", higher_is_better=True, detail=detail)
    row(group=g, row="requests/s", ours=result["ok"] / result["seconds"], anchor=None, unit="req/s", higher_is_better=True)
    row(group=g, row="errors (must be 0)", ours=result["errors"], anchor=None, unit="errors", higher_is_better=False,
        detail="; ".join(result["error_samples"]) or "none")
    row(group=g, row="server peak memory (VmHWM)", ours=hwm_kb / 1024, anchor=None, unit="MiB", higher_is_better=False)
    print(f"  load: {result}, VmHWM {hwm_kb} kB", flush=True)


def deployment():
    # Both paths leave the database alone, so the instances share a SQLite file rather than a
    # PostgreSQL server; the instances, nginx and wrk share this machine's cores.
    database = f"sqlite://{WORK}/deploy.db?mode=rwc"
    instances = [start_ours(f"deploy-{n}", DATABASE_URL=database) for n in (1, 2)]
    conf_dir = WORK / "nginx-deploy"
    conf_dir.mkdir()
    https_port = free_port()
    args = json.loads(subprocess.run(
        ["node", REPO / "tests/deploy/nginx-config.mjs", conf_dir, str(free_port()), str(https_port),
         *(str(port) for _, port in instances)], capture_output=True, text=True, check=True).stdout)
    nginx = subprocess.Popen(["nginx", *args], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    origin = f"https://127.0.0.1:{https_port}"
    unverified = ssl.create_default_context()
    unverified.check_hostname, unverified.verify_mode = False, ssl.CERT_NONE
    deadline = time.time() + 30
    while True:
        try:
            # The TLS server name a browser sends (urllib sends none to an address, which the
            # nginx site's catch-all refuses); wrk sends the address, which the test config names.
            with socket.create_connection(("127.0.0.1", https_port), timeout=2) as raw, \
                    unverified.wrap_socket(raw, server_hostname="localhost") as tls:
                tls.sendall(b"GET /api/health/live HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
                if not tls.recv(64).startswith(b"HTTP/1.1 200"):
                    raise OSError("not ready")
            break
        except Exception:
            if time.time() > deadline:
                sys.exit("nginx in front of the instances did not answer")
            time.sleep(0.2)
    alone = instances[0][1]
    g = "7. Deployment: nginx (TLS, deploy/nginx-site.conf) to two instances, beside one instance alone"
    try:
        for label, path in [("article /valuation-models/dcf, gzip", "/valuation-models/dcf"), ("GET /api/denglu", "/api/denglu")]:
            res = {"nginx": [], "alone": []}
            for _ in range(RUNS):
                # The site lets one address hold 40 connections (limit_conn in deploy/nginx-site.conf),
                # and wrk is one address: 64 connections measured 429s.
                res["nginx"].append(wrk(None, path, "gzip", origin, connections=DEPLOY_CONNECTIONS))
                res["alone"].append(wrk(alone, path, "gzip", connections=DEPLOY_CONNECTIONS))
            med = {k: (statistics.median(x[0] for x in v), statistics.median(x[1] for x in v)) for k, v in res.items()}
            print(f"  {label}: through nginx to two instances {med['nginx'][0]:.0f} req/s p99 {med['nginx'][1]:.2f}ms, "
                  f"one instance alone {med['alone'][0]:.0f} req/s p99 {med['alone'][1]:.2f}ms", flush=True)
            detail = (f"anchor: one instance alone over plain HTTP; wrk -c{DEPLOY_CONNECTIONS} keeps HTTP/1.1 "
                      "connections to nginx")
            row(group=g, row=f"{label}: requests/s", ours=med["nginx"][0], anchor=med["alone"][0], unit="req/s",
                higher_is_better=True, detail=detail)
            row(group=g, row=f"{label}: p99 latency", ours=med["nginx"][1], anchor=med["alone"][1], unit="ms",
                higher_is_better=False, detail=detail)
    finally:
        stop(nginx)
        for proc, _ in instances:
            stop(proc)


if __name__ == "__main__":
    what = sys.argv[6:] or ["serve", "load", "deploy"]
    if "serve" in what:
        serving()
    if "load" in what:
        load()
    if "deploy" in what:
        deployment()
