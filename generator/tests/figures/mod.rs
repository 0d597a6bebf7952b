//! What `examples.rs` (the valuation articles' worked examples) and `worked_case.rs` (the
//! equity-research worked case) both check a page's figures with: loading a page in every
//! language, the figures it prints (`shown.json`, which the arithmetic test of the UI writes and
//! checks), printing a figure as the pages do, and finding every figure missing from the text.
//!
//! A negative figure takes the minus sign `−` the pages write, never a hyphen, and is never
//! counted in 億/萬; a figure that rounds to zero has no sign.

use generator::content::{parse_page, FrontMatter};
use generator::markdown::{render, RenderOptions};
use serde::Deserialize;
use std::path::{Path, PathBuf};

pub const LANGS: [&str; 3] = ["en", "zh", "ja"];

/// The folder of the site's Markdown pages.
pub fn content_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../content")
}

pub struct Page {
    pub lang: &'static str,
    pub path: PathBuf,
    pub front: FrontMatter,
    /// The text a reader sees, so a `$` swallowed as math cannot pass for a dollar sign.
    pub text: String,
    pub heading_ids: Vec<String>,
    pub links: Vec<String>,
}

/// The page `{dir}/{name}.{lang}.md` in each language, English first.
pub fn load(dir: &Path, name: &str) -> Vec<Page> {
    LANGS
        .iter()
        .map(|&lang| {
            let path = dir.join(format!("{name}.{lang}.md"));
            let source = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            let file = parse_page(&path, &source).unwrap_or_else(|e| panic!("{e:#}"));
            let options = RenderOptions {
                lang,
                default_language: "en",
                ..Default::default()
            };
            let rendered = render(&file.body, &options).unwrap_or_else(|e| panic!("{}: {e:#}", path.display()));
            Page {
                lang,
                path,
                front: file.front,
                text: rendered.text,
                heading_ids: rendered.headings.into_iter().map(|h| h.id).collect(),
                links: rendered.links.into_iter().map(|(url, _)| url).collect(),
            }
        })
        .collect()
}

/// `1234.5` with 2 decimals -> `1,234.50`; a negative figure takes the minus sign `−`.
pub fn grouped(x: f64, decimals: usize) -> String {
    let fixed = format!("{:.*}", decimals, x.abs());
    let (int, frac) = fixed
        .split_once('.')
        .map_or((fixed.as_str(), None), |(i, f)| (i, Some(f)));
    let mut out = String::new();
    for (i, c) in int.chars().enumerate() {
        if i > 0 && (int.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    if let Some(frac) = frac {
        out.push('.');
        out.push_str(frac);
    }
    let rounds_to_zero = fixed.bytes().all(|b| b == b'0' || b == b'.');
    if x < 0.0 && !rounds_to_zero {
        format!("−{out}")
    } else {
        out
    }
}

/// How a figure is printed on the pages.
#[derive(Clone, Copy)]
pub enum Shown {
    /// `$1,234.50`
    Dollars(usize),
    /// `1,234.50`: amounts in millions, whose unit is written out in words in each language.
    Amount(usize),
    /// `15.0`: multiples, betas and discount factors.
    Plain(usize),
    /// `6.27%`, `−0.7%`
    Percent(usize),
}

impl Shown {
    pub fn format(self, x: f64) -> String {
        match self {
            Shown::Dollars(d) => format!("${}", grouped(x, d)),
            Shown::Amount(d) | Shown::Plain(d) => grouped(x, d),
            Shown::Percent(d) => format!("{}%", grouped(x * 100.0, d)),
        }
    }
}

/// A figure as the pages print it. Chinese and Japanese count large amounts in 萬 (10^4) and
/// 億 (10^8), so an amount in millions may appear there as `4 億` / `4億` (400 million) or
/// `2,000 萬` / `2,000万` (20 million) instead of the English `400` next to a written-out unit.
pub struct Printed {
    pub text: String,
    pub millions: Option<f64>,
}

impl Printed {
    pub fn new(value: f64, shown: Shown) -> Printed {
        Printed {
            text: shown.format(value),
            millions: matches!(shown, Shown::Amount(_)).then_some(value),
        }
    }

    pub fn forms(&self, lang: &str) -> Vec<String> {
        let mut forms = vec![self.text.clone()];
        let Some(x) = self.millions.filter(|x| *x > 0.0) else {
            return forms;
        };
        let (yi, wan) = match lang {
            "zh" => (" 億", " 萬"),
            "ja" => ("億", "万"),
            _ => return forms,
        };
        let hundredths = x * 100.0;
        if (hundredths - hundredths.round()).abs() > 1e-6 {
            return forms;
        }
        if x >= 100.0 {
            // 420 million is 4.2 億: as many decimals as it takes, no trailing zeros.
            let count = grouped(x / 100.0, 4);
            let count = count.trim_end_matches('0').trim_end_matches('.');
            forms.push(format!("{count}{yi}"));
        } else {
            forms.push(format!("{}{wan}", grouped(hundredths, 0)));
        }
        forms
    }
}

/// One line of `shown.json`: where the figure's number is (a path into the page's `example:`,
/// or into the `example:` of another page of its folder, or a number computed from them) and how
/// it is printed.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Entry {
    path: Option<String>,
    from: Option<String>,
    value: Option<f64>,
    kind: String,
    decimals: usize,
}

impl Entry {
    fn shown(&self) -> Shown {
        match self.kind.as_str() {
            "dollars" => Shown::Dollars(self.decimals),
            "amount" => Shown::Amount(self.decimals),
            "plain" => Shown::Plain(self.decimals),
            "percent" => Shown::Percent(self.decimals),
            other => panic!("shown.json: no figure is printed as {other}"),
        }
    }
}

/// The number at `path` (`company.present_values[0]`, `sensitivity.values[1][2]`).
fn at<'a>(example: &'a serde_yaml::Value, path: &str) -> Option<&'a serde_yaml::Value> {
    path.split(['.', '[', ']'])
        .filter(|step| !step.is_empty())
        .try_fold(example, |value, step| match step.parse::<usize>() {
            Ok(i) => value.get(i),
            Err(_) => value.get(step),
        })
}

/// The `example:` of the English page `{dir}/{name}.en.md`.
fn english_example(dir: &Path, name: &str) -> serde_yaml::Value {
    let path = dir.join(format!("{name}.en.md"));
    let source = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let file = parse_page(&path, &source).unwrap_or_else(|e| panic!("{e:#}"));
    file.front
        .example
        .unwrap_or_else(|| panic!("{}: no `example:`", path.display()))
}

/// Every figure the page `page` (its path under `content/` without the language) prints, as
/// `ui/src/valuation/articles.test.ts` lists them in `shown.json` after checking their arithmetic;
/// each number is read from the front matter, which stays the figures' one source.
pub fn shown(page: &str) -> Vec<Printed> {
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/figures/shown.json");
    let json = std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
    let ledger: std::collections::BTreeMap<String, Vec<Entry>> =
        serde_json::from_str(&json).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
    let entries = ledger
        .get(page)
        .unwrap_or_else(|| panic!("shown.json lists no figures of {page}"));
    let (dir, name) = page.rsplit_once('/').unwrap_or(("", page));
    let dir = content_dir().join(dir);
    let own = english_example(&dir, name);
    entries
        .iter()
        .map(|entry| {
            let value = match (&entry.path, &entry.from, entry.value) {
                (Some(path), from, None) => {
                    let example = from.as_ref().map(|from| english_example(&dir, from));
                    at(example.as_ref().unwrap_or(&own), path)
                        .and_then(serde_yaml::Value::as_f64)
                        .unwrap_or_else(|| panic!("{page}: shown.json names {path}, which is no number"))
                }
                (None, None, Some(value)) => value,
                _ => panic!("{page}: a figure of shown.json has either a path or a value"),
            };
            Printed::new(value, entry.shown())
        })
        .collect()
}

/// Every page whose `example:` is not the English page's, and every figure a page's text never
/// shows in any of its forms.
pub fn page_problems(pages: &[Page], figures: &[Printed]) -> Vec<String> {
    let en = pages[0].front.example.as_ref();
    let mut problems = Vec::new();
    for page in &pages[1..] {
        if page.front.example.as_ref() != en {
            problems.push(format!(
                "{}: `example:` differs from the English page",
                page.path.display()
            ));
        }
    }
    for page in pages {
        for figure in figures {
            let forms = figure.forms(page.lang);
            if !forms.iter().any(|form| page.text.contains(form.as_str())) {
                problems.push(format!(
                    "{}: the text never shows `{}`",
                    page.path.display(),
                    forms.join("` or `")
                ));
            }
        }
    }
    problems
}

/// CommonMark will not close `**` between CJK punctuation and a letter (`**注意。**下一句`); the
/// reader would see the asterisks.
pub fn assert_emphasis_closed(page: &Page) {
    for (number, line) in page.text.lines().enumerate() {
        assert!(
            !line.contains("**"),
            "{}: stray `**` in text line {}: {line}",
            page.path.display(),
            number + 1
        );
    }
}
