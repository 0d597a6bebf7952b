#!/usr/bin/env python3
"""Step 1: our generator against Hugo on the same synthetic site (N pages x 3 languages).

    build_bench.py REPO WORK RESULTS N[:RUNS] ...

First the owner's build: the real site (its content, photos and link-preview cards) into an
empty output directory with empty caches, beside Hugo building a synthetic site of the same page
count; the goal is 1.0 s.

For each N: cold builds (a new, empty output dir, our UI bundle copied in first) and warm builds
(output present), alternating ours and Hugo, RUNS of each, with each build's peak memory; then
the `site build` after editing one page, and the same edit under `make dev` beside `hugo server`
(dev_bench.py). Appends result rows to RESULTS (JSON lines, see report.py).

Every cold build writes to a directory of its own, and all outputs are deleted only at the end:
on ext4, creating files within a minute or so of deleting many others is several times slower
(the inode allocator skips recently deleted inodes one by one), which would measure the previous
run's `rm -rf` rather than the build.
"""
import json
import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO, WORK, RESULTS = (Path(a).resolve() for a in sys.argv[1:4])
SITE = REPO / "target/release/site"


def row(**kw):
    with open(RESULTS, "a") as f:
        f.write(json.dumps(kw) + "\n")


def timed(cmd, tmpdir=None):
    """Seconds the command took, its output, and its peak memory (max RSS, MB; /usr/bin/time)."""
    # Our build keeps the islands' HTML and the pages' rendered Markdown of the last build in the
    # temp dir: a cold build gets an empty one, a warm build the one its cold build filled.
    env = dict(os.environ, TMPDIR=str(tmpdir)) if tmpdir else None
    rss_file = WORK / "rss.txt"
    start = time.perf_counter()
    done = subprocess.run(["/usr/bin/time", "-f", "%M", "-o", rss_file, *cmd], stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, text=True, env=env)
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        sys.exit(f"failed: {' '.join(map(str, cmd))}\n{done.stdout}\n{done.stderr}")
    rss_mb = int(rss_file.read_text().split()[-1]) / 1024
    return elapsed, done.stdout + done.stderr, rss_mb


def ours_cmd(site, out):
    return [SITE, "--root", site / "ours", "--out", out, "--templates", REPO / "generator/templates", "build"]


def hugo_cmd(site, out):
    return ["hugo", "--source", site / "hugo", "--destination", out, "--quiet"]


def new_out(out, with_assets):
    out.mkdir(parents=True)
    if with_assets:
        # The UI bundle is the UI build's output, not the generator's: present before a build.
        shutil.copytree(REPO / "dist/assets", out / "assets", dirs_exist_ok=True, copy_function=shutil.copy2)


def bench(n, runs):
    site = WORK / f"site-{n}"
    subprocess.run([sys.executable, REPO / "bench/make_site.py", str(n), site, REPO], check=True)
    times = {"ours-cold": [], "hugo-cold": [], "ours-warm": [], "hugo-warm": []}
    rss = {k: [] for k in times}
    for r in range(runs):
        ours_out, hugo_out, tmp = site / f"out-ours-{r}", site / f"out-hugo-{r}", site / f"tmp-{r}"
        new_out(ours_out, True)
        new_out(tmp, False)
        new_out(hugo_out, False)
        for kind, cmd, tmpdir in [("ours-cold", ours_cmd(site, ours_out), tmp), ("hugo-cold", hugo_cmd(site, hugo_out), None),
                                  ("ours-warm", ours_cmd(site, ours_out), tmp), ("hugo-warm", hugo_cmd(site, hugo_out), None)]:
            elapsed, _, peak = timed(cmd, tmpdir)
            times[kind].append(elapsed)
            rss[kind].append(peak)
        print(f"  N={n} run {r + 1}/{runs}: " + ", ".join(f"{k} {v[-1]:.1f}s" for k, v in times.items()), flush=True)
    # Pages written by each: ours counts pages per language (plus sections and home).
    total = 3 * (n + (n + 99) // 100 + 1)
    med = {k: statistics.median(v) for k, v in times.items()}
    for kind in ("cold", "warm"):
        ours_pps, hugo_pps = total / med[f"ours-{kind}"], total / med[f"hugo-{kind}"]
        row(group="1. Generator vs Hugo", row=f"N={n}x3 {kind} build (median of {runs})", ours=ours_pps,
            anchor=hugo_pps, unit="pages/s", higher_is_better=True, goal=2.0 if kind == "cold" else 1.5,
            detail=f"ours {med[f'ours-{kind}']:.2f}s, Hugo {med[f'hugo-{kind}']:.2f}s for {total} pages; peak memory "
                   f"ours {max(rss[f'ours-{kind}']):.0f} MB, Hugo {max(rss[f'hugo-{kind}']):.0f} MB")

    # An edit to one served page: ours rebuilds with the output present; Hugo (no incremental CLI
    # build) anchors with its warm full build.
    page = site / "ours/content/sec-000/p-00001.en.md"
    edits = []
    for r in range(runs):
        with open(page, "a") as f:
            f.write(f"\nEdited for the benchmark, pass {r}.\n")
        edits.append(timed(ours_cmd(site, ours_out), tmp)[0])
    html = (ours_out / "sec-000/p-00001/index.html").read_text()
    assert f"pass {runs - 1}." in html, "the edited page was not rebuilt"
    row(group="1. Generator vs Hugo", row=f"N={n}x3 rebuild after editing one page (median of {runs})",
        ours=statistics.median(edits), anchor=med["hugo-warm"], unit="s", higher_is_better=False,
        detail="anchor: Hugo's warm full build (Hugo has no one-page CLI rebuild)")
    # The same edit under `make dev`, beside `hugo server`.
    subprocess.run([sys.executable, REPO / "bench/dev_bench.py", REPO, WORK, RESULTS, site, str(n), str(max(runs, 5))],
                   check=True)
    return site


def real_site(runs=3):
    """The owner's `site build` of the repository, cold, beside Hugo on as many synthetic pages."""
    base = WORK / "real-site"
    times = {"ours": [], "hugo": []}
    rss = {k: [] for k in times}
    pages = 0
    for r in range(runs):
        out, tmp = base / f"out-{r}", base / f"tmp-{r}"
        new_out(out, True)
        new_out(tmp, False)
        cmd = [SITE, "--root", REPO, "--out", out, "--templates", REPO / "generator/templates", "build"]
        elapsed, _, peak = timed(cmd, tmp)
        times["ours"].append(elapsed)
        rss["ours"].append(peak)
        pages = sum(1 for _ in out.rglob("*.html"))
        if r == 0:
            # make_site.py writes 3 * (n + ceil(n / 100) + 1) pages.
            n = max(1, round(pages / 3) - 2)
            site = base / "synthetic"
            subprocess.run([sys.executable, REPO / "bench/make_site.py", str(n), site, REPO], check=True,
                           stdout=subprocess.DEVNULL)
        hugo_out = base / f"out-hugo-{r}"
        new_out(hugo_out, False)
        elapsed, _, peak = timed(hugo_cmd(site, hugo_out))
        times["hugo"].append(elapsed)
        rss["hugo"].append(peak)
        print(f"  real site run {r + 1}/{runs}: ours {times['ours'][-1]:.2f}s, Hugo {times['hugo'][-1]:.2f}s", flush=True)
    med = {k: statistics.median(v) for k, v in times.items()}
    row(group="1. Generator vs Hugo", row=f"the owner's build: the real site, cold (median of {runs})", ours=med["ours"],
        anchor=med["hugo"], unit="s", higher_is_better=False,
        detail=f"goal ≤ 1.0 s: {'meets' if med['ours'] <= 1.0 else 'MISSES'} goal; {pages} HTML files with their "
               f"cards and search index; anchor: Hugo on a synthetic site of {3 * (n + (n + 99) // 100 + 1)} pages; "
               f"peak memory ours {max(rss['ours']):.0f} MB, Hugo {max(rss['hugo']):.0f} MB")
    shutil.rmtree(base)


if __name__ == "__main__":
    real_site()
    sites = []
    for spec in sys.argv[4:]:
        n, _, runs = spec.partition(":")
        sites.append(bench(int(n), int(runs or 3)))
    for site in sites:
        shutil.rmtree(site)
