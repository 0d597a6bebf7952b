#!/usr/bin/env python3
"""`make dev` after saving one page: the time from the file write to the reload event open pages
get, beside `hugo server`'s own printed rebuild time for the same edit of the same site.

    dev_bench.py REPO WORK RESULTS SITE N RUNS

SITE is a synthetic site of make_site.py (SITE/ours, SITE/hugo). Ours: `site watch --dev` and
`api serve --dev` (release builds) as scripts/dev.sh runs them; the clock starts before the
write and stops when the server's `/__dev/events` stream says `reload`, and the reloaded page
must hold the new text. Hugo: `hugo server` (in memory, as it runs by default); its anchor is the
"Total in N ms" it prints for the rebuild, which leaves out its file-watch delay and the browser's
reload message, so the comparison favours Hugo.
"""
import json
import os
import queue
import re
import shutil
import socket
import statistics
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

REPO, WORK, RESULTS, SITE = (Path(a).resolve() for a in sys.argv[1:5])
N, RUNS = int(sys.argv[5]), int(sys.argv[6])
PAGE = "content/sec-000/p-00001.en.md"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(condition, what, timeout=600):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.02)
    sys.exit(f"dev_bench: {what} did not happen within {timeout} s")


def status(out):
    try:
        return json.loads((out / ".dev-build.json").read_text())
    except (OSError, ValueError):
        return None


class Events:
    """The server's Server-Sent Events stream, read line by line."""

    def __init__(self, port):
        self.sock = socket.create_connection(("127.0.0.1", port))
        self.sock.sendall(f"GET /__dev/events HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
        self.buffer = b""

    def next_event(self, name, timeout=600):
        self.sock.settimeout(timeout)
        while True:
            while b"\n\n" in self.buffer:
                block, self.buffer = self.buffer.split(b"\n\n", 1)
                if f"event: {name}".encode() in block:
                    return block
            chunk = self.sock.recv(65536)
            if not chunk:
                sys.exit("dev_bench: the event stream ended")
            self.buffer += chunk


def ours():
    site, out = SITE / "ours", SITE / "ours/dist"
    shutil.rmtree(out, ignore_errors=True)
    shutil.copytree(REPO / "dist/assets", out / "assets")
    env = dict(os.environ, TMPDIR=str(SITE))
    # Its output (a warning per untranslated page of the synthetic site) goes to a file: a pipe
    # nobody reads would fill and stop it.
    log = open(SITE / "watch.log", "w")
    watcher = subprocess.Popen(
        [REPO / "target/release/site", "--templates", REPO / "generator/templates", "watch", "--dev"],
        cwd=site, env=env, stdout=log, stderr=subprocess.STDOUT)
    port = free_port()
    server = None
    try:
        wait_for(lambda: status(out), "the watcher's first build")
        server = subprocess.Popen([REPO / "target/release/api", "serve", "--dev"], cwd=WORK,
                                  env=dict(os.environ, PORT=str(port), DIST_DIR=str(out), DATA_DIR=str(WORK / "data-dev"),
                                           RUST_LOG="warn"),
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wait_for(lambda: _answers(port), "the dev server")
        events = Events(port)
        events.next_event("hello")
        times = []
        for r in range(RUNS):
            marker = f"Saved in make dev, pass {r}."
            start = time.perf_counter()
            with open(site / PAGE, "a") as f:
                f.write(f"\n{marker}\n")
            # A reload from before the edit (the first build's last writes) does not count.
            while True:
                events.next_event("reload")
                elapsed = (time.perf_counter() - start) * 1000
                html = urllib.request.urlopen(f"http://127.0.0.1:{port}/sec-000/p-00001").read().decode()
                if marker in html:
                    break
            times.append(elapsed)
        return times
    finally:
        for p in (server, watcher):
            if p:
                p.terminate()
                p.wait()


def _answers(port):
    try:
        urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2)
        return True
    except OSError:
        return False


def hugo():
    port = free_port()
    server = subprocess.Popen(["hugo", "server", "--source", SITE / "hugo", "--port", str(port), "--bind", "127.0.0.1",
                               "--disableFastRender"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    lines = queue.Queue()
    # hugo prints "Built in N ms" after its first build and "Total in N ms" after each rebuild.
    threading.Thread(target=lambda: [lines.put(line) for line in server.stdout] + [lines.put(None)],
                     daemon=True).start()
    seen = []

    def next_line(pattern, timeout=600):
        while True:
            try:
                line = lines.get(timeout=timeout)
            except queue.Empty:
                sys.exit("dev_bench: hugo server printed nothing more:\n" + "".join(seen[-20:]))
            if line is None:
                sys.exit("dev_bench: hugo server stopped:\n" + "".join(seen[-20:]))
            seen.append(line)
            found = re.search(pattern, line)
            if found:
                return found

    def drain():
        # One save can come as two file events, and hugo rebuilds for each: a late rebuild of the
        # last pass must not count for the next one.
        time.sleep(2)
        while not lines.empty():
            seen.append(lines.get() or "")

    try:
        next_line(r"Built in \d+")
        drain()
        times = []
        for r in range(RUNS):
            with open(SITE / "ours" / PAGE, "a") as f:
                f.write(f"\nSaved in hugo server, pass {r}.\n")
            times.append(float(next_line(r"Total in (\d+(?:\.\d+)?) ?ms").group(1)))
            drain()
        return times
    finally:
        server.terminate()
        server.wait()


if __name__ == "__main__":
    ours_ms = ours()
    hugo_ms = hugo()
    print(f"  N={N} make dev save to reload: ours {[round(t) for t in ours_ms]} ms, hugo server {hugo_ms} ms", flush=True)
    with open(RESULTS, "a") as f:
        f.write(json.dumps(dict(
            group="1. Generator vs Hugo", row=f"N={N}x3 make dev: save one page to reload event (median of {RUNS})",
            ours=statistics.median(ours_ms), anchor=statistics.median(hugo_ms), unit="ms", higher_is_better=False,
            detail=f"goal < 300 ms: {'meets' if statistics.median(ours_ms) < 300 else 'MISSES'} goal; "
                   "anchor: hugo server's printed rebuild time for the same edit (without its watch delay)")) + "\n")
