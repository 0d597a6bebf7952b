//! The part of the UI's stylesheet each page inlines: the rules that can match the page as it is
//! first painted. The whole stylesheet is 35 KB of text, most of it for other pages (articles,
//! forms, calculators); carried whole by every page it was most of each page's bytes, of the
//! build's compression and writes, and of what a phone downloads before the first paint.
//!
//! A rule is left out only when each selector of its list requires a class that is on no element
//! of the page (nor among those the head script puts on `<html>` and `<body>` before the first
//! paint) or an element the page does not have. Anything else (attribute and id selectors,
//! what is inside `:not()`, `:is()`, `:has()`, at-rules other than `@media` and `@supports`)
//! keeps its rule. Kept rules stay in their order, so what the page's own elements look like is
//! what the whole stylesheet gives them (`tests/browser/chrome.test.mjs` compares the two in
//! Chromium).
//!
//! Islands render other elements once they run (a dialog, an open menu, loaded posts). The rules
//! left out go to a second stylesheet, which the head script loads with the island scripts and
//! which the islands wait for (`ui/src/lib/hydration.ts`). It holds no rule that matches the page
//! as written, so the browser has nothing to restyle when it arrives: the whole stylesheet there
//! made Chromium recompute the style and layout of every element of a long article (a third of
//! its Lighthouse blocking time on a phone). It comes after the inline rules, where a rule of it
//! would beat an inline rule that follows it in the whole stylesheet, should both match an element
//! an island draws and set the same property at the same specificity. Such a rule is inlined
//! instead (`choose_inline`): every element is styled as the whole stylesheet styles it.
//!
//! The stylesheet is read once, with `cssparser`: its rules (`rules.rs`), their selectors
//! (`selector.rs`) and what their declarations set (`declarations.rs`). Each rule keeps its text
//! as written: a page inlines the stylesheet's own text, rule by rule.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use cssparser::Parser;
use sha2::{Digest, Sha256};

mod cascade;
mod declarations;
mod present;
mod rules;
mod selector;
#[cfg(test)]
mod tests;

use cascade::Inline;
use present::{string_literals, Present};
use rules::{number_slots, read_rules, Rule};
use selector::Need;

/// Where a page's `<style>` gets its rules, once the page is whole (islands rendered in).
pub const STYLES_MARKER: &str = "/*page-styles*/";

/// Where a page with islands gets the address of their stylesheet (`PageRules::for_islands`).
pub const ISLAND_STYLES_MARKER: &str = "/*island-styles*/";

/// The `<head>` tag naming the islands' stylesheet (`ISLAND_STYLES_MARKER` until it is known).
pub fn island_styles_tag(url: &str) -> String {
    format!("<meta name=\"island-styles\" content=\"{url}\">")
}

/// How the islands' stylesheets are named below `assets/`, before their content's hash.
pub const ISLAND_STYLES_PREFIX: &str = "island-styles-";

/// The file below `dist/` of the islands' stylesheet holding `rules`: pages of one kind share it.
pub fn island_stylesheet_file(rules: &str) -> PathBuf {
    let hash = format!("{:x}", Sha256::digest(rules.as_bytes()));
    PathBuf::from(format!("assets/{ISLAND_STYLES_PREFIX}{}.css", &hash[..12]))
}

/// The islands' stylesheet each written page names, by page file (below `dist/`), so that a
/// one-page rebuild can remove those no page names any more.
#[derive(Clone, Default)]
pub struct IslandStylesheets {
    by_page: HashMap<PathBuf, PathBuf>,
}

impl IslandStylesheets {
    /// The stylesheets some page names.
    pub fn files(&self) -> HashSet<PathBuf> {
        self.by_page.values().cloned().collect()
    }

    /// What `page` names now: a stylesheet, or none (a page without islands, or gone).
    pub fn set(&mut self, page: &Path, stylesheet: Option<PathBuf>) {
        match stylesheet {
            Some(file) => self.by_page.insert(page.to_path_buf(), file),
            None => self.by_page.remove(page),
        };
    }
}

/// The UI's stylesheet as rules, ready to be cut per page.
pub struct PageStyles {
    rules: Vec<Rule>,
    /// Classes present on every page before its first paint (the head script's).
    always: HashSet<String>,
    /// How many places the rules take in `Inline` (`number_slots`).
    slots: usize,
}

/// A page's share of the stylesheet.
#[derive(Debug, PartialEq)]
pub struct PageRules {
    /// The rules that can match the page as written, in their order: its `<style>`.
    pub first_paint: String,
    /// The rules left out, in their order: the stylesheet loaded after the inline one for the
    /// islands.
    pub for_islands: String,
}

impl PageStyles {
    /// `css`: the whole stylesheet; `head_script`: the inline script that runs before first paint.
    pub fn new(css: &str, head_script: &str) -> Self {
        let mut rules = read_rules(&mut Parser::new(css));
        let slots = number_slots(&mut rules);
        PageStyles {
            rules,
            always: string_literals(head_script),
            slots,
        }
    }

    /// The rules that can match `html`, a page as written, and those only its islands may need
    /// if it has any.
    pub fn for_page(&self, html: &str, has_islands: bool) -> PageRules {
        let found = Present::in_page(html);
        let present = |need: &Need| match need {
            Need::Class(class) => found.classes.contains(class.as_str()) || self.always.contains(class),
            Need::Element(name) => found.elements.contains(name.as_str()),
        };
        let mut inline = Vec::new();
        let mut after = has_islands.then(|| Inline::new(self.slots));
        choose_inline(&self.rules, &present, &mut after, &mut inline);
        inline.reverse();
        let mut rules = PageRules {
            first_paint: String::new(),
            for_islands: String::new(),
        };
        split(&self.rules, &mut inline.into_iter(), &mut rules);
        rules
    }
}

/// Whether each style rule of `rules` is inlined, last first (`inline` grows at its end). A rule
/// that can match the page is; one that cannot goes to the islands' stylesheet, which comes after
/// the inline rules, unless an inline rule after it competes with it (`Inline::competes`): there
/// it would win where the whole stylesheet lets that later rule win, so it is inlined too. A page
/// without islands (`after` None) loads no other stylesheet.
fn choose_inline(rules: &[Rule], present: &impl Fn(&Need) -> bool, after: &mut Option<Inline>, inline: &mut Vec<bool>) {
    for rule in rules.iter().rev() {
        match rule {
            Rule::Always(_) => {}
            Rule::Style { selectors, cascade, .. } => {
                let matches = selectors.iter().any(|needs| needs.iter().all(present));
                let kept = matches || after.as_ref().is_some_and(|after| after.competes(cascade));
                if let (true, Some(after)) = (kept, after.as_mut()) {
                    after.add(cascade);
                }
                inline.push(kept);
            }
            Rule::Group { rules, .. } => choose_inline(rules, present, after, inline),
        }
    }
}

/// Writes each rule of `rules` where `inline` (first first) places it; groups go to both
/// stylesheets with the rules of theirs each gets.
fn split(rules: &[Rule], inline: &mut impl Iterator<Item = bool>, out: &mut PageRules) {
    for rule in rules {
        match rule {
            Rule::Always(text) => out.first_paint.push_str(text),
            Rule::Style { text, .. } => match inline.next() {
                Some(false) => out.for_islands.push_str(text),
                _ => out.first_paint.push_str(text),
            },
            Rule::Group { prelude, rules } => {
                let starts = [out.first_paint.len(), out.for_islands.len()];
                for text in [&mut out.first_paint, &mut out.for_islands] {
                    text.push_str(prelude);
                    text.push('{');
                }
                split(rules, inline, out);
                for (text, start) in [&mut out.first_paint, &mut out.for_islands].into_iter().zip(starts) {
                    if text.len() == start + prelude.len() + 1 {
                        text.truncate(start);
                    } else {
                        text.push('}');
                    }
                }
            }
        }
    }
}
