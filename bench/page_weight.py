#!/usr/bin/env python3
"""Step 4: what each page type costs a visitor, gzipped as served: the HTML (with the stylesheet
rules that match it inlined in its head), the CSS (linked, and the whole stylesheet the head
script loads for the islands after first paint) and the JavaScript (the entry module and the
island chunks the page names), against the budget of 100 KB of JavaScript on an article page.

    page_weight.py REPO RESULTS
"""
import json
import re
import sys
from pathlib import Path

REPO, RESULTS = Path(sys.argv[1]).resolve(), Path(sys.argv[2]).resolve()
DIST = REPO / "dist"
PAGES = [("home", "/"), ("article", "/valuation-models/dcf"), ("list", "/notes"), ("search", "/search"), ("login", "/login")]
BUDGET_JS = 100 * 1024


def gz_size(url_path):
    file = DIST / url_path.lstrip("/")
    gz = file.with_name(file.name + ".gz")
    return (gz if gz.exists() else file).stat().st_size


def attr_values(html, tag_re):
    return [m.group(1) for m in re.finditer(tag_re, html)]


rows = []
for kind, route in PAGES:
    page = DIST / route.strip("/") / "index.html" if route != "/" else DIST / "index.html"
    html = page.read_text()
    css = set(attr_values(html, r'<link[^>]*rel="stylesheet"[^>]*href="(/[^"]+)"'))
    css |= {u for named in attr_values(html, r'<meta name="island-styles" content="([^"]*)"') for u in named.split()}
    # The entry and the island chunks the page names (its head script loads them after first paint).
    js = {u for named in attr_values(html, r'<meta name="island-scripts" content="([^"]*)"') for u in named.split()}
    html_b = gz_size(str(page.relative_to(DIST)))
    css_b = sum(gz_size(u) for u in css)
    js_b = sum(gz_size(u) for u in js)
    inlined = " (its own rules inlined)" if "<style>" in html else ""
    detail = f"HTML{inlined} {html_b / 1024:.1f} KB + CSS {css_b / 1024:.1f} KB + JS {js_b / 1024:.1f} KB ({len(js)} modules)"
    print(f"  {kind} {route}: {detail}", flush=True)
    with open(RESULTS, "a") as f:
        f.write(json.dumps(dict(group="4. Page weight (gzipped)", row=f"{kind} {route}: total", ours=(html_b + css_b + js_b) / 1024,
                                anchor=None, unit="KB", higher_is_better=False, detail=detail)) + "\n")
        f.write(json.dumps(dict(group="4. Page weight (gzipped)", row=f"{kind} {route}: JavaScript", ours=js_b / 1024,
                                anchor=BUDGET_JS / 1024 if kind == "article" else None, unit="KB", higher_is_better=False,
                                goal=1.0 if kind == "article" else None,
                                detail="anchor: the 100 KB budget" if kind == "article" else "")) + "\n")
