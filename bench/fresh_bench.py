#!/usr/bin/env python3
"""Step 9: what a new machine waits for: `make run` until the site answers, then `make invite`
and `make dev`'s first page on the same clone, and `make test` on a second clean clone.

    fresh_bench.py REPO WORK RESULTS

Each clone is of HEAD, with no `target/`, `node_modules/` or `dist/`: everything the project
builds is built again, as on a fresh machine. Cargo's and npm's download caches and the Debian
packages are kept, as a second checkout on the same machine would find them; the figures are
compile and test time, not download time. The anchors are the README's goals for this machine
(5 minutes for `make run`, 15 for `make test`).
"""
import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

REPO, WORK, RESULTS = (Path(a).resolve() for a in sys.argv[1:4])
GROUP = "9. A fresh clone (no target/, node_modules/ or dist/), this machine's cores"


def row(**kw):
    with open(RESULTS, "a") as f:
        f.write(json.dumps(dict(group=GROUP, **kw)) + "\n")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def clone(name):
    path = WORK / name
    subprocess.run(["git", "clone", "-q", REPO, path], check=True)
    return path


def answers(port, path="/"):
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=2) as r:
            return r.status == 200
    except Exception:
        return False


def until_answered(command, cwd, port, log_name, limit_s=3600):
    """Seconds from starting `command` until GET / answers 200; the command is then stopped."""
    env = dict(os.environ, PORT=str(port))
    env.pop("DATABASE_URL", None)
    log = open(WORK / log_name, "w")
    start = time.perf_counter()
    proc = subprocess.Popen(command, cwd=cwd, env=env, stdout=log, stderr=log, start_new_session=True)
    try:
        while not answers(port):
            if proc.poll() is not None:
                failed(f"{' '.join(command)} exited with {proc.returncode} before answering (the end of its log is above)", log)
            if time.perf_counter() - start > limit_s:
                sys.exit(f"{' '.join(command)} did not answer within {limit_s} s")
            time.sleep(0.5)
        return time.perf_counter() - start
    finally:
        try:
            os.killpg(proc.pid, signal.SIGTERM)
        except ProcessLookupError:  # it has exited already, its group with it
            pass
        proc.wait()


def failed(message, log):
    """Stops the bench with `message` and the end of `log`: run.sh deletes the work directory on
    exit, the log with it."""
    log.flush()
    tail = Path(log.name).read_text(errors="replace").splitlines()[-80:]
    sys.exit("\n".join([*tail, message]))


def timed(command, cwd, log_name):
    log = open(WORK / log_name, "w")
    start = time.perf_counter()
    done = subprocess.run(command, cwd=cwd, stdout=log, stderr=log)
    if done.returncode != 0:
        failed(f"{' '.join(command)} failed in {cwd} (the end of its log is above)", log)
    return time.perf_counter() - start


def main():
    run_clone = clone("fresh-run")
    run_s = until_answered(["make", "run"], run_clone, free_port(), "fresh-make-run.log")
    print(f"  make run until the site answers: {run_s:.0f} s", flush=True)
    row(row="`make run` until the site answers", ours=run_s, anchor=300, unit="s", higher_is_better=False,
        goal=1.0, detail="anchor: the goal, 5 minutes")
    invite_s = timed(["make", "invite"], run_clone, "fresh-make-invite.log")
    print(f"  make invite after make run: {invite_s:.1f} s", flush=True)
    row(row="`make invite` after `make run`", ours=invite_s, anchor=None, unit="s", higher_is_better=False,
        detail="reuses make run's release binaries")
    dev_s = until_answered(["make", "dev"], run_clone, free_port(), "fresh-make-dev.log")
    print(f"  make dev after make run, until the site answers: {dev_s:.1f} s", flush=True)
    row(row="`make dev` after `make run`, until the site answers", ours=dev_s, anchor=None, unit="s",
        higher_is_better=False, detail="reuses make run's release binaries; includes a full dev build of the site")
    test_clone = clone("fresh-test")
    test_s = timed(["make", "test"], test_clone, "fresh-make-test.log")
    print(f"  make test: {test_s:.0f} s", flush=True)
    row(row="`make test`, every layer", ours=test_s, anchor=900, unit="s", higher_is_better=False, goal=1.0,
        detail="anchor: the goal, 15 minutes")


if __name__ == "__main__":
    main()
