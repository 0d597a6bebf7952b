#!/usr/bin/env python3
"""Prints the results table and writes it into BENCHMARKS.md.

    report.py RESULTS BENCHMARKS_MD COMMAND LOAD_FILE

RESULTS holds one JSON object a line: group, row, ours, anchor (or null), unit,
higher_is_better, and optionally goal (the our/anchor ratio to reach) and detail.
BENCHMARKS.md keeps everything outside the `<!-- results -->` ... `<!-- /results -->` markers,
so the hand-written analysis survives a re-run.
"""
import datetime
import json
import os
import re
import subprocess
import sys
from pathlib import Path

results, md_path, command, load_file = sys.argv[1:5]
rows = [json.loads(line) for line in Path(results).read_text().splitlines() if line.strip()]
rows.sort(key=lambda r: r["group"])  # stable: rows keep their order within a group


def fmt(v, unit):
    if v is None:
        return "—"
    if unit in ("requests", "errors"):
        return f"{v:,.0f}"
    if abs(v) >= 1000:
        return f"{v:,.0f}"
    if abs(v) >= 10:
        return f"{v:.1f}"
    return f"{v:.3g}" if v else "0"


def verdict(r):
    if r.get("anchor") in (None, 0) or r.get("goal") is None:
        return ""
    ratio = r["ours"] / r["anchor"]
    ok = ratio >= r["goal"] if r["higher_is_better"] else ratio <= r["goal"]
    return "meets goal" if ok else "MISSES goal"


lines = ["| Benchmark | Ours | Anchor | Unit | Ours/anchor | Goal | Notes |", "|---|---:|---:|---|---:|---|---|"]
group = None
for r in rows:
    if r["group"] != group:
        group = r["group"]
        lines.append(f"| **{group}** | | | | | | |")
    ratio = f"{r['ours'] / r['anchor']:.2f}x" if r.get("anchor") else "—"
    better = "higher is better" if r["higher_is_better"] else "lower is better"
    goal = ""
    if r.get("goal") is not None:
        sign = "≥" if r["higher_is_better"] else "≤"
        goal = f"{sign} {r['goal']}x: {verdict(r)}"
    lines.append(f"| {r['row']} | {fmt(r['ours'], r['unit'])} | {fmt(r.get('anchor'), r['unit'])} | {r['unit']} ({better}) "
                 f"| {ratio} | {goal} | {r.get('detail', '')} |")
table = "\n".join(lines)
print(table)

cpu = next((l.split(":", 1)[1].strip() for l in Path("/proc/cpuinfo").read_text().splitlines() if l.startswith("model name")), "unknown")
loads = [l.split() for l in Path(load_file).read_text().splitlines() if l.strip()]
load_samples = [float(l[1]) for l in loads]
load_text = (f"1-minute load average sampled every 15 s during the run: min {min(load_samples):.1f}, "
             f"median {sorted(load_samples)[len(load_samples) // 2]:.1f}, max {max(load_samples):.1f} "
             f"({len(load_samples)} samples)") if load_samples else "not sampled"
commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
block = f"""<!-- results -->
Measured {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M UTC} at commit `{commit}` with `{command}`.

Machine: {os.cpu_count()} cores (`nproc`), {cpu}. {load_text}.

{table}
<!-- /results -->"""
md = Path(md_path)
text = md.read_text() if md.exists() else "# Benchmarks\n\n<!-- results -->\n<!-- /results -->\n"
if "<!-- results -->" not in text:
    text += "\n<!-- results -->\n<!-- /results -->\n"
text = re.sub(r"<!-- results -->.*?<!-- /results -->", lambda _: block, text, flags=re.S)
md.write_text(text)
print(f"\nWrote {md}")
