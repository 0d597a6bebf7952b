#!/usr/bin/env python3
"""Step 1b: what photos add to a build of the real site.

    photo_bench.py REPO WORK RESULTS [RUNS]

A copy of the real site's sources, once as it is and once with five phone photos (4032 x 3024
JPEG, made by make_photos.mjs) shown by five English pages. Each build writes into a new output
dir. Cold: an empty temp dir, so the photo cache (and the islands' cache) start empty and every
photo is decoded, resized and encoded. Warm cache: the temp dir a cold build filled, with a new
output dir, so the photos come from the cache and are only written. The anchor of each row is the
same build of the site without photos. BENCH_SITE_BINARY picks another `site` binary.
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
RUNS = int(sys.argv[4]) if len(sys.argv) > 4 else 3
SITE = Path(os.environ.get("BENCH_SITE_BINARY", REPO / "target/release/site")).resolve()
PHOTOS = 5
PAGES = ["about", "equity-research", "finance-research", "ma-analysis", "notes/liquidity-risk"]


def copy_site(root, photos):
    for part in ["content", "locales", "static"]:
        shutil.copytree(REPO / part, root / part)
    shutil.copy(REPO / "site-config.yaml", root / "site-config.yaml")
    (root / "ui").symlink_to(REPO / "ui")
    if not photos:
        return
    subprocess.run(["node", REPO / "bench/make_photos.mjs", REPO, root / "static/images", str(PHOTOS)], check=True)
    for n, page in enumerate(PAGES, start=1):
        with open(root / f"content/{page}.en.md", "a") as f:
            f.write(f"\n![A photo for the benchmark](/images/bench-photo-{n}.jpg)\n")


def build(root, run, tmp):
    out = root / f"out-{run}"
    shutil.copytree(REPO / "dist/assets", out / "assets")
    tmp.mkdir(exist_ok=True)
    cmd = [SITE, "--root", root, "--out", out, "--templates", REPO / "generator/templates", "build"]
    start = time.perf_counter()
    done = subprocess.run(cmd, capture_output=True, text=True, env=dict(os.environ, TMPDIR=str(tmp)))
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        sys.exit(f"failed: {' '.join(map(str, cmd))}\n{done.stdout}\n{done.stderr}")
    return elapsed


def main():
    times = {}
    for photos in (False, True):
        root = WORK / f"photo-site-{int(photos)}"
        copy_site(root, photos)
        for kind in ("cold", "warm"):
            times[photos, kind] = []
        for run in range(RUNS):
            tmp = root / f"tmp-{run}"
            times[photos, "cold"].append(build(root, f"cold-{run}", tmp))
            times[photos, "warm"].append(build(root, f"warm-{run}", tmp))
        if photos:
            written = list((root / "out-cold-0/assets/photos").iterdir())
            assert len(written) == PHOTOS * 6, f"{len(written)} photo files"
        shutil.rmtree(root)
    for kind, label in (("cold", "cold build, photo cache empty"), ("warm", "build with the photo cache filled")):
        ours, anchor = statistics.median(times[True, kind]), statistics.median(times[False, kind])
        row = dict(group="1b. Photos", row=f"real site + {PHOTOS} photos of 12 MP, {label} (median of {RUNS})",
                   ours=ours, anchor=anchor, unit="s", higher_is_better=False,
                   detail=f"anchor: the same build without photos; photos add {ours - anchor:+.2f}s "
                          f"({PHOTOS} x 3 widths x WebP + JPEG)")
        print(f"  {row['row']}: {ours:.2f}s, without photos {anchor:.2f}s", flush=True)
        with open(RESULTS, "a") as f:
            f.write(json.dumps(row) + "\n")


if __name__ == "__main__":
    main()
