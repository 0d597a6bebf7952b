#!/usr/bin/env python3
"""Makes a synthetic site of N pages in each of three languages, in our content format, and the
Hugo project for the same pages.

    make_site.py N OUT_DIR REPO

OUT_DIR/ours: site-config.yaml, locales/ (the repo's), content/<section>/<page>.<lang>.md,
              ui -> REPO/ui (so the build finds ui/.ssr/render.mjs), static/ (the repo's).
OUT_DIR/hugo: hugo.toml, layouts/ (bench/hugo-layouts), and content/ -> the same Markdown files
              (Hugo reads `<page>.<lang>.md` and `_index.<lang>.md` as translations natively).

Pages are grouped 100 to a section; each section has a landing page (`_index`) that lists them.
Every page has headings, paragraphs, a list, a table, a fenced code block and internal links to
other synthetic pages, with text varied per page so no two pages (or island props) are equal.
"""
import os
import random
import shutil
import sys
from pathlib import Path

LANGS = ["en", "zh", "ja"]
PER_SECTION = 100
WORDS = {
    "en": "value cash flow market price risk return growth rate discount equity debt margin yield asset "
    "company earnings dividend capital cost investor model share sector estimate forecast".split(),
    "zh": "價值 現金流 市場 價格 風險 報酬 成長 利率 折現 股權 債務 利潤 殖利率 資產 公司 盈餘 股利 資本 成本 投資人 模型".split(),
    "ja": "価値 キャッシュフロー 市場 価格 リスク リターン 成長 金利 割引 株式 負債 利益 利回り 資産 会社 配当 資本 コスト 投資家 モデル".split(),
}
SEP = {"en": " ", "zh": "", "ja": ""}


def sentence(rng, lang, n):
    words = [rng.choice(WORDS[lang]) for _ in range(n)]
    text = SEP[lang].join(words)
    return (text[0].upper() + text[1:] + ".") if lang == "en" else text + "。"


def paragraph(rng, lang, sentences=4):
    return " ".join(sentence(rng, lang, rng.randint(8, 16)) for _ in range(sentences))


def route_of(i):
    return f"/sec-{i // PER_SECTION:03d}/p-{i:05d}"


def page_body(i, n, lang, rng):
    links = [route_of((i * 7 + k * 13 + 1) % n) for k in range(3)]
    rows = "\n".join(f"| {y} | {rng.randint(100, 999)} | {rng.randint(1, 99)}.{rng.randint(0, 9)}% |" for y in range(2021, 2026))
    return f"""## Overview {{#overview}}

{paragraph(rng, lang)} See [page {links[0]}]({links[0]}) and [the section]({route_of(i).rsplit('/', 1)[0]}).

{paragraph(rng, lang, 3)}

## Key points {{#key-points}}

- {sentence(rng, lang, 8)}
- {sentence(rng, lang, 10)} [More]({links[1]}).
- {sentence(rng, lang, 6)}
- **{rng.choice(WORDS[lang])}**: {sentence(rng, lang, 7)}

### Figures {{#figures}}

| Year | Revenue | Margin |
|---|---:|---:|
{rows}

## Example {{#example}}

```python
def present_value(cash_flows, rate={rng.randint(5, 12)} / 100):
    return sum(cf / (1 + rate) ** t for t, cf in enumerate(cash_flows, start=1))

print(present_value([{rng.randint(90, 110)}, {rng.randint(100, 120)}, {rng.randint(110, 130)}]))
```

{paragraph(rng, lang)} Compare [this one]({links[2]}).

1. {sentence(rng, lang, 9)}
2. {sentence(rng, lang, 11)}
3. {sentence(rng, lang, 7)}
"""


def front(title, description, weight=None):
    lines = ["---", f"title: \"{title}\"", f"description: \"{description}\""]
    if weight is not None:
        lines.append(f"weight: {weight}")
    return "\n".join(lines + ["---", ""])


def make(n, out, repo):
    ours = out / "ours"
    if ours.exists():
        shutil.rmtree(ours)
    content = ours / "content"
    content.mkdir(parents=True)
    # The repo's settings, less the frames of its member and legal pages: the synthetic site has
    # none of those pages, and a frame for a missing page fails the build. Less the link-preview
    # cards too: the Hugo site it is compared with draws no image per page, so the comparison
    # stays like for like (the real site keeps its cards).
    # The top bar and the footer must link to pages the site has: their entries keep their labels
    # and link to the synthetic sections (the footer to the home page).
    sections = (n + PER_SECTION - 1) // PER_SECTION
    config, skipping, entry, in_links = [], False, 0, None
    for line in (repo / "site-config.yaml").read_text().splitlines(keepends=True):
        if line.startswith("frames:") or line.startswith("cards:"):
            skipping = True
            continue
        if skipping and (line.startswith(" ") or not line.strip()):
            continue
        skipping = False
        if line.startswith("top_bar:") or line.startswith("footer:"):
            in_links = line.split(":")[0]
        elif not line.startswith(" "):
            in_links = None
        if line.startswith("  - { key:") and in_links:
            key = line.split("key:")[1].split(",")[0].strip()
            link = "/" if key == "home" or in_links == "footer" else f"/sec-{entry % sections:03d}"
            entry += key != "home" and in_links == "top_bar"
            line = f"  - {{ key: {key}, link: {link} }}\n"
        config.append(line)
    (ours / "site-config.yaml").write_text("".join(config))
    shutil.copytree(repo / "locales", ours / "locales")
    shutil.copytree(repo / "static", ours / "static")
    os.symlink(repo / "ui", ours / "ui")
    rng = random.Random(n)
    sections = (n + PER_SECTION - 1) // PER_SECTION
    for lang in LANGS:
        (content / f"_index.{lang}.md").write_text(
            front(f"Synthetic home {lang}", "The home page of the synthetic benchmark site.")
            + "\n".join(f"- [Section {s}](/sec-{s:03d})" for s in range(sections)) + "\n")
    for s in range(sections):
        d = content / f"sec-{s:03d}"
        d.mkdir()
        for lang in LANGS:
            (d / f"_index.{lang}.md").write_text(
                front(f"Section {s} ({lang})", f"Section {s} of the synthetic site.") + paragraph(rng, lang) + "\n")
    for i in range(n):
        d = content / f"sec-{i // PER_SECTION:03d}"
        for lang in LANGS:
            title = f"Page {i} {rng.choice(WORDS[lang])} ({lang})"
            (d / f"p-{i:05d}.{lang}.md").write_text(
                front(title, sentence(rng, lang, 10), weight=i % PER_SECTION) + page_body(i, n, lang, rng))

    hugo = out / "hugo"
    if hugo.exists():
        shutil.rmtree(hugo)
    hugo.mkdir()
    os.symlink(content, hugo / "content")
    shutil.copytree(repo / "bench" / "hugo" / "layouts", hugo / "layouts")
    shutil.copy(repo / "bench" / "hugo" / "hugo.toml", hugo / "hugo.toml")


if __name__ == "__main__":
    make(int(sys.argv[1]), Path(sys.argv[2]).resolve(), Path(sys.argv[3]).resolve())
