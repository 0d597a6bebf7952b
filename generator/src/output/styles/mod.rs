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

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

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

enum Rule {
    /// Kept on every page (`@font-face`, `@keyframes`, a statement such as `@import`).
    Always(String),
    /// A style rule: its text, for each selector of its list what it requires (`read_selector`),
    /// and what decides which of two rules wins.
    Style {
        text: String,
        selectors: Vec<Vec<Need>>,
        cascade: Cascade,
    },
    /// `@media` or `@supports`: kept with the rules inside it that are kept.
    Group { prelude: String, rules: Vec<Rule> },
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
        let mut pos = 0;
        let mut rules = parse_rules(css.as_bytes(), &mut pos);
        // A stray `}` ends the top level early: what follows it is kept on every page.
        if pos < css.len() {
            rules.push(Rule::Always(css[pos..].to_string()));
        }
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

/// What decides which of two rules that match an element and set the same property wins: the
/// more specific selector, and at equal specificity the later rule.
struct Cascade {
    /// Each selector's of the list (the one that matches counts).
    targets: Vec<Target>,
    /// What the rule sets (`values_set`).
    properties: Vec<String>,
    slots: Slots,
}

/// A selector's specificity and what its last compound requires of the element it styles.
#[derive(Debug, PartialEq)]
struct Target {
    specificity: Specificity,
    /// The element name it requires, if any: `p` and `li` never style the same element.
    element: Option<String>,
    /// The pseudo-element it styles (`before`), if any: never the element itself.
    pseudo_element: Option<String>,
}

/// Ids, then classes, attributes and pseudo-classes, then element names and pseudo-elements.
type Specificity = [u32; 3];

/// The rules inlined after the one being placed: a rule left out of the page's `<style>` would
/// come after them all, so it must not compete with any of them: set what one of them sets, at
/// the same specificity, on an element both can style (which of the two wins is then the later).
/// Each (specificity, pseudo-element, what is set) has its place (`Slots`); what is there are the
/// elements those inline rules can style.
struct Inline {
    places: Vec<Elements>,
}

/// The elements the inline rules of one place can style: some by name, or any.
#[derive(Clone, Default)]
struct Elements {
    any: bool,
    named: Vec<u32>,
}

impl Elements {
    fn add(&mut self, element: Option<u32>) {
        match element {
            Some(name) if !self.named.contains(&name) => self.named.push(name),
            Some(_) => {}
            None => self.any = true,
        }
    }

    fn can_style(&self, element: Option<u32>) -> bool {
        self.any || element.map_or(!self.named.is_empty(), |name| self.named.contains(&name))
    }
}

impl Inline {
    fn new(slots: usize) -> Self {
        Inline {
            places: vec![Elements::default(); slots],
        }
    }

    fn competes(&self, rule: &Cascade) -> bool {
        (rule.slots.looks.iter()).any(|&(place, element)| self.places[place].can_style(element))
    }

    fn add(&mut self, rule: &Cascade) {
        for &(place, element) in &rule.slots.marks {
            self.places[place].add(element);
        }
    }
}

/// A rule's places in `Inline`, numbered once per stylesheet (`number_slots`) so that a page's
/// check indexes a vector rather than hashing names: each with the element the rule requires
/// there, if any (numbered too).
#[derive(Default)]
struct Slots {
    /// Where it is recorded once inlined: for each selector, its place for each thing it sets and
    /// its place for anything set.
    marks: Vec<(usize, Option<u32>)>,
    /// Where an inline rule it competes with would be: for each selector, the places of what it
    /// sets (of anything set, for `all`) and of `all`.
    looks: Vec<(usize, Option<u32>)>,
}

/// Gives every style rule its `Slots`; returns how many places there are.
fn number_slots(rules: &mut [Rule]) -> usize {
    // (specificity, pseudo-element, what is set; None: anything).
    type Place = (Specificity, Option<String>, Option<String>);
    fn each(rules: &mut [Rule], f: &mut impl FnMut(&mut Cascade)) {
        for rule in rules {
            match rule {
                Rule::Style { cascade, .. } => f(cascade),
                Rule::Group { rules, .. } => each(rules, f),
                Rule::Always(_) => {}
            }
        }
    }
    let mut places: HashMap<Place, usize> = HashMap::new();
    let mut elements: HashMap<String, u32> = HashMap::new();
    let mut element_id = |name: &Option<String>| {
        let next = elements.len() as u32;
        name.as_ref().map(|name| *elements.entry(name.clone()).or_insert(next))
    };
    each(rules, &mut |cascade| {
        for t in &cascade.targets {
            let element = element_id(&t.element);
            let sets = cascade.properties.iter().map(|p| Some(p.clone())).chain([None]);
            for what in sets {
                let next = places.len();
                let place = *places
                    .entry((t.specificity, t.pseudo_element.clone(), what))
                    .or_insert(next);
                cascade.slots.marks.push((place, element));
            }
        }
    });
    each(rules, &mut |cascade| {
        for t in &cascade.targets {
            let element = element_id(&t.element);
            let place =
                |what: Option<&str>| places.get(&(t.specificity, t.pseudo_element.clone(), what.map(String::from)));
            let looks = (cascade.properties.iter())
                .map(|p| place(if p == ALL { None } else { Some(p) }))
                .chain([place(Some(ALL))]);
            cascade
                .slots
                .looks
                .extend(looks.flatten().map(|&place| (place, element)));
        }
    });
    places.len()
}

/// What a rule sets (`values_set`) when it sets `all`, or when its block is not a plain list of
/// declarations: anything.
const ALL: &str = "all";

/// The rules from `pos` up to the `}` that closes their block (or the end), which it passes.
fn parse_rules(css: &[u8], pos: &mut usize) -> Vec<Rule> {
    let mut rules = Vec::new();
    loop {
        skip_space_and_comments(css, pos);
        if *pos >= css.len() {
            return rules;
        }
        if css[*pos] == b'}' {
            *pos += 1;
            return rules;
        }
        let start = *pos;
        let end_of_prelude = scan_to(css, pos, |c| c == b'{' || c == b';' || c == b'}');
        let prelude = text(css, start, end_of_prelude).trim().to_string();
        match css.get(*pos) {
            Some(b'{') => *pos += 1,
            // A statement (`@import …;`), or a stray `;`/`}` of a broken stylesheet: kept as is.
            Some(b';') => {
                *pos += 1;
                rules.push(Rule::Always(text(css, start, *pos).to_string()));
                continue;
            }
            _ => {
                if !prelude.is_empty() {
                    rules.push(Rule::Always(prelude));
                }
                continue;
            }
        }
        let at_rule = prelude
            .split(|c: char| c.is_whitespace() || c == '(')
            .next()
            .unwrap_or("");
        if at_rule.eq_ignore_ascii_case("@media") || at_rule.eq_ignore_ascii_case("@supports") {
            let inner = parse_rules(css, pos);
            rules.push(Rule::Group { prelude, rules: inner });
            continue;
        }
        skip_block(css, pos);
        let whole = text(css, start, *pos).trim().to_string();
        if prelude.starts_with('@') {
            rules.push(Rule::Always(whole));
        } else {
            let (selectors, targets) = split_top_level(&prelude, b',').iter().map(|s| read_selector(s)).unzip();
            let block_end = if css.get(pos.wrapping_sub(1)) == Some(&b'}') {
                *pos - 1
            } else {
                *pos
            };
            rules.push(Rule::Style {
                cascade: Cascade {
                    targets,
                    properties: properties(text(css, end_of_prelude + 1, block_end)),
                    slots: Slots::default(),
                },
                selectors,
                text: whole,
            });
        }
    }
}

fn text(css: &[u8], start: usize, end: usize) -> &str {
    // Positions are at ASCII delimiters, so they are character boundaries.
    std::str::from_utf8(&css[start..end]).unwrap_or("")
}

fn skip_space_and_comments(css: &[u8], pos: &mut usize) {
    loop {
        while css.get(*pos).is_some_and(u8::is_ascii_whitespace) {
            *pos += 1;
        }
        if css[*pos..].starts_with(b"/*") {
            *pos = find(css, *pos + 2, b"*/").map_or(css.len(), |end| end + 2);
        } else {
            return;
        }
    }
}

fn find(css: &[u8], from: usize, needle: &[u8]) -> Option<usize> {
    css[from..]
        .windows(needle.len())
        .position(|w| w == needle)
        .map(|i| from + i)
}

/// Moves `pos` to the first byte outside strings, comments and parentheses for which `stop` holds
/// (or the end); returns that position.
fn scan_to(css: &[u8], pos: &mut usize, stop: impl Fn(u8) -> bool) -> usize {
    let mut parens = 0usize;
    while *pos < css.len() {
        let c = css[*pos];
        match c {
            b'"' | b'\'' => {
                *pos += 1;
                while *pos < css.len() && css[*pos] != c {
                    if css[*pos] == b'\\' {
                        *pos += 1;
                    }
                    *pos += 1;
                }
            }
            b'/' if css.get(*pos + 1) == Some(&b'*') => {
                *pos = find(css, *pos + 2, b"*/").map_or(css.len(), |end| end + 1);
            }
            b'\\' => *pos += 1,
            b'(' => parens += 1,
            b')' if parens > 0 => parens -= 1,
            _ if parens == 0 && stop(c) => return *pos,
            _ => {}
        }
        *pos += 1;
    }
    css.len()
}

/// From just inside a block's `{` to just past its `}`, nested blocks included.
fn skip_block(css: &[u8], pos: &mut usize) {
    let mut depth = 1;
    while depth > 0 && *pos < css.len() {
        scan_to(css, pos, |c| c == b'{' || c == b'}');
        match css.get(*pos) {
            Some(b'{') => depth += 1,
            Some(b'}') => depth -= 1,
            _ => return,
        }
        *pos += 1;
    }
}

/// `list` split at `delimiter` outside strings, parentheses and brackets.
fn split_top_level(list: &str, delimiter: u8) -> Vec<&str> {
    let bytes = list.as_bytes();
    let (mut parts, mut start, mut pos) = (Vec::new(), 0, 0);
    while pos < bytes.len() {
        let end = scan_to(bytes, &mut pos, |c| c == delimiter || c == b'[');
        if bytes.get(end) == Some(&b'[') {
            pos = bytes[end..]
                .iter()
                .position(|&c| c == b']')
                .map_or(bytes.len(), |i| end + i + 1);
            continue;
        }
        parts.push(&list[start..end]);
        pos = end + 1;
        start = pos;
    }
    if start < list.len() {
        parts.push(&list[start..]);
    }
    parts
}

/// What a page must have for a selector to match it.
#[derive(Debug, PartialEq)]
enum Need {
    /// An element with this class.
    Class(String),
    /// An element of this name (lower case).
    Element(String),
}

/// One selector, read once: what the page must have for it to match (the classes and element
/// names outside brackets and the parentheses of functional pseudo-classes, whose arguments may
/// match without them: `:not(.open)`), and what it matches as far as the cascade goes. Its
/// specificity: `:is()`, `:not()`, `:has()` count their most specific argument, `:where()`
/// nothing, `:nth-child(… of S)` a pseudo-class and S.
fn read_selector(selector: &str) -> (Vec<Need>, Target) {
    let bytes = selector.as_bytes();
    let mut needs = Vec::new();
    let mut total = [0; 3];
    let (mut element, mut pseudo_element) = (None, None);
    let mut pos = 0;
    let mut compound_start = true;
    while pos < bytes.len() {
        let c = bytes[pos];
        let starts = compound_start;
        compound_start = matches!(c, b' ' | b'>' | b'+' | b'~' | b'\t' | b'\n');
        if compound_start {
            (element, pseudo_element) = (None, None);
        }
        match c {
            b'\\' => pos += 2,
            b'#' => {
                total[0] += 1;
                pos = identifier(selector, pos + 1).1;
            }
            b'.' => {
                total[1] += 1;
                let (class, end) = identifier(selector, pos + 1);
                if !class.is_empty() {
                    needs.push(Need::Class(class));
                }
                pos = end;
            }
            b'[' => {
                total[1] += 1;
                pos = bytes[pos..]
                    .iter()
                    .position(|&c| c == b']')
                    .map_or(bytes.len(), |i| pos + i + 1);
            }
            b':' => {
                let colons = bytes[pos..].iter().take_while(|&&c| c == b':').count();
                let (name, end) = identifier(selector, pos + colons);
                let name = name.to_ascii_lowercase();
                pos = end;
                let mut argument = "";
                if bytes.get(pos) == Some(&b'(') {
                    let mut close = pos + 1;
                    scan_to(bytes, &mut close, |c| c == b')');
                    argument = &selector[pos + 1..close.min(selector.len())];
                    pos = close + 1;
                }
                let most_specific = |list: &str| {
                    (split_top_level(list, b',')
                        .iter()
                        .map(|s| read_selector(s).1.specificity)
                        .max())
                    .unwrap_or_default()
                };
                let of_argument = match name.as_str() {
                    "where" => [0; 3],
                    "is" | "not" | "has" | "matches" | "any" | "-webkit-any" | "-moz-any" => most_specific(argument),
                    "nth-child" | "nth-last-child" => {
                        total[1] += 1;
                        argument
                            .split_once(" of ")
                            .map_or([0; 3], |(_, list)| most_specific(list))
                    }
                    "slotted" | "host" | "host-context" | "cue" => {
                        total[if colons == 2 { 2 } else { 1 }] += 1;
                        most_specific(argument)
                    }
                    "before" | "after" | "first-line" | "first-letter" => {
                        total[2] += 1;
                        pseudo_element = Some(name.clone());
                        [0; 3]
                    }
                    _ if colons == 2 => {
                        total[2] += 1;
                        pseudo_element = Some(format!("{name}({argument})"));
                        [0; 3]
                    }
                    _ => {
                        total[1] += 1;
                        [0; 3]
                    }
                };
                (0..3).for_each(|i| total[i] += of_argument[i]);
            }
            b'"' | b'\'' => {
                pos = bytes[pos + 1..]
                    .iter()
                    .position(|&q| q == c)
                    .map_or(bytes.len(), |i| pos + i + 2);
            }
            // Not after a pseudo-class's name (that arm reads its argument): skipped all the same.
            b'(' => {
                pos += 1;
                scan_to(bytes, &mut pos, |c| c == b')');
                pos += 1;
            }
            _ if starts && c.is_ascii_alphabetic() => {
                total[2] += 1;
                let (name, end) = identifier(selector, pos);
                let name = name.to_ascii_lowercase();
                needs.push(Need::Element(name.clone()));
                element = Some(name);
                pos = end;
            }
            _ => pos += 1,
        }
    }
    let target = Target {
        specificity: total,
        element,
        pseudo_element,
    };
    (needs, target)
}

/// What the declarations of `block` set, as `values_set` names it, or `ALL` for a block that holds
/// more than declarations.
fn properties(block: &str) -> Vec<String> {
    if block.contains('{') {
        return vec![ALL.to_string()];
    }
    let mut set: Vec<String> = split_top_level(block, b';')
        .iter()
        .filter_map(|declaration| declaration.split_once(':'))
        .flat_map(|(name, _)| values_set(&name.trim().to_ascii_lowercase()))
        .collect();
    set.sort();
    set.dedup();
    set
}

/// Names for what `property` sets, shared by every property that can set the same: a shorthand
/// names its parts, a part of a side or a corner names all sides (so a logical property meets
/// its physical twin), an alias its property. Two declarations compete only if they share a
/// name; some that share one do not (`margin-top` and `margin-left`), which only inlines more.
fn values_set(property: &str) -> Vec<String> {
    if property.starts_with("--") {
        return vec![property.to_string()];
    }
    let p = match property.strip_prefix('-') {
        Some(prefixed) => prefixed.split_once('-').map_or(prefixed, |(_, name)| name),
        None => property,
    };
    let starts = |prefix: &str| p.starts_with(prefix);
    let one = |name: &str| vec![name.to_string()];
    let names = |names: &[&str]| names.iter().map(|n| n.to_string()).collect();
    match p {
        "all" => one(ALL),
        "font" => names(&[
            "font-style",
            "font-variant",
            "font-weight",
            "font-stretch",
            "font-size",
            "line-height",
            "font-family",
            "font-size-adjust",
            "font-kerning",
            "font-feature-settings",
            "font-variation-settings",
            "font-optical-sizing",
            "font-language-override",
        ]),
        _ if starts("font-variant") => one("font-variant"),
        "border" => names(&["border-width", "border-style", "border-color", "border-image"]),
        _ if starts("border") && p.ends_with("radius") => one("border-radius"),
        _ if starts("border-image") => one("border-image"),
        "border-collapse" | "border-spacing" => one(p),
        _ if starts("border") => match ["width", "style", "color"].iter().find(|part| p.ends_with(*part)) {
            Some(part) => vec![format!("border-{part}")],
            None => names(&["border-width", "border-style", "border-color"]),
        },
        "outline" => names(&["outline-width", "outline-style", "outline-color"]),
        "flex" => names(&["flex-grow", "flex-shrink", "flex-basis"]),
        "flex-flow" => names(&["flex-direction", "flex-wrap"]),
        "place-items" => names(&["align-items", "justify-items"]),
        "place-content" => names(&["align-content", "justify-content"]),
        "place-self" => names(&["align-self", "justify-self"]),
        "top" | "right" | "bottom" | "left" => one("inset"),
        "width" | "inline-size" => one("width"),
        "height" | "block-size" => one("height"),
        "min-width" | "min-inline-size" => one("min-width"),
        "min-height" | "min-block-size" => one("min-height"),
        "max-width" | "max-inline-size" => one("max-width"),
        "max-height" | "max-block-size" => one("max-height"),
        "gap" | "row-gap" | "column-gap" | "grid-gap" | "grid-row-gap" | "grid-column-gap" => one("gap"),
        "grid" => names(&["grid-template", "grid-auto"]),
        "grid-area" => one("grid-placement"),
        _ if starts("grid-row") || starts("grid-column") => one("grid-placement"),
        "word-wrap" | "overflow-wrap" => one("overflow-wrap"),
        "columns" | "column-count" | "column-width" => one("columns"),
        _ if starts("page-break-") => vec![format!("break-{}", &p["page-break-".len()..])],
        _ if starts("white-space") || starts("text-wrap") => one("white-space"),
        _ => {
            // A property and the parts named after it: `margin` and `margin-inline-start`.
            let family = [
                "margin",
                "padding",
                "inset",
                "scroll-margin",
                "scroll-padding",
                "overflow",
                "background",
                "mask",
                "text-decoration",
                "text-emphasis",
                "list-style",
                "transition",
                "animation",
                "column-rule",
                "grid-template",
                "grid-auto",
                "container",
                "contain-intrinsic",
                "overscroll-behavior",
                "offset",
            ]
            .into_iter()
            .find(|family| p == *family || p.strip_prefix(family).is_some_and(|rest| rest.starts_with('-')));
            one(family.unwrap_or(p))
        }
    }
}

/// The CSS identifier starting at `start` (escapes resolved) and the position after it.
fn identifier(selector: &str, start: usize) -> (String, usize) {
    let mut name = String::new();
    let mut chars = selector[start..].char_indices().peekable();
    while let Some(&(i, c)) = chars.peek() {
        if c == '\\' {
            chars.next();
            if let Some((_, escaped)) = chars.next() {
                name.push(escaped);
            }
        } else if c.is_ascii_alphanumeric() || c == '-' || c == '_' || !c.is_ascii() {
            name.push(c);
            chars.next();
        } else {
            return (name, start + i);
        }
    }
    (name, selector.len())
}

/// The classes and element names of a page.
struct Present<'a> {
    classes: HashSet<&'a str>,
    /// Lower case, with those a browser adds to any page: `html`, `head`, `body`, and a table's
    /// `tbody`.
    elements: HashSet<Cow<'a, str>>,
}

impl<'a> Present<'a> {
    /// Every `class` attribute's tokens, and every tag's name.
    fn in_page(html: &'a str) -> Self {
        let mut elements: HashSet<Cow<str>> = ["html", "head", "body", "tbody"].map(Cow::Borrowed).into();
        let mut rest = html;
        while let Some(at) = rest.find('<') {
            rest = &rest[at + 1..];
            let name_len = rest
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '-'))
                .unwrap_or(rest.len());
            let name = &rest[..name_len];
            if name.starts_with(|c: char| c.is_ascii_alphabetic()) {
                if name.bytes().any(|b| b.is_ascii_uppercase()) {
                    elements.insert(Cow::Owned(name.to_ascii_lowercase()));
                } else {
                    elements.insert(Cow::Borrowed(name));
                }
            }
        }
        let mut classes = HashSet::new();
        let mut rest = html;
        while let Some(at) = rest.find("class=") {
            let after = &rest[at + 6..];
            // ` class=` or `<svg class=`; not `data-class=` or a word ending in "class".
            let is_attribute = rest[..at].ends_with(|c: char| c.is_ascii_whitespace());
            let value = match after.as_bytes().first() {
                Some(&quote @ (b'"' | b'\'')) => after[1..].split(quote as char).next(),
                _ => after.split(|c: char| c.is_ascii_whitespace() || c == '>').next(),
            };
            if let (true, Some(value)) = (is_attribute, value) {
                classes.extend(value.split_ascii_whitespace());
            }
            rest = after;
        }
        Present { classes, elements }
    }
}

/// The quoted strings of a script that could be class names: whatever the head script adds to
/// `<html>` or `<body>` before the first paint is among them (`"js"`, `"dark-mode"`).
fn string_literals(script: &str) -> HashSet<String> {
    let mut found = HashSet::new();
    for quote in ['"', '\''] {
        for (n, part) in script.split(quote).enumerate() {
            let is_class_name = !part.is_empty()
                && part.len() <= 64
                && part.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
            if n % 2 == 1 && is_class_name {
                found.insert(part.to_string());
            }
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    const CSS: &str = ":root{--a: 1px}body{margin:0}.card{padding:1px}.card .title,.banner{color:red}\
        .js .menu:not(.open){display:none}@media (max-width:40rem){.card{padding:0}.dialog{inset:0}}\
        @font-face{font-family:M;src:url(/m.woff2)}@keyframes spin{to{rotate:1turn}}\
        a[href^=\"http\"]{color:blue}.dialog::backdrop{opacity:.5}#top{z-index:1}\
        @supports (display:grid){.grid{display:grid}}.x\\:y{color:green}";

    fn styles() -> PageStyles {
        PageStyles::new(CSS, r#"e.classList.add("js");x="dark-mode""#)
    }

    #[test]
    fn a_page_keeps_the_rules_its_classes_can_match_in_their_order() {
        let kept = styles()
            .for_page(r#"<body><div class="card other"><p class="title">t</p></div><ul class="menu"></ul><a href="/">a</a></body>"#, true)
            .first_paint;
        assert_eq!(
            kept,
            ":root{--a: 1px}body{margin:0}.card{padding:1px}.card .title,.banner{color:red}\
             .js .menu:not(.open){display:none}@media (max-width:40rem){.card{padding:0}}\
             @font-face{font-family:M;src:url(/m.woff2)}@keyframes spin{to{rotate:1turn}}\
             a[href^=\"http\"]{color:blue}#top{z-index:1}"
        );
    }

    #[test]
    fn a_selector_list_is_kept_when_any_of_its_selectors_can_match() {
        let kept = styles().for_page(r#"<p class="banner">"#, true).first_paint;
        assert!(kept.contains(".card .title,.banner{color:red}"), "{kept}");
        assert!(!kept.contains(".card{"), "{kept}");
    }

    #[test]
    fn groups_keep_only_their_matching_rules_and_vanish_when_none_match() {
        let kept = styles().for_page(r#"<div class="dialog grid x:y">"#, true).first_paint;
        assert!(kept.contains("@media (max-width:40rem){.dialog{inset:0}}"), "{kept}");
        assert!(kept.contains("@supports (display:grid){.grid{display:grid}}"), "{kept}");
        assert!(kept.contains(".dialog::backdrop{opacity:.5}"), "{kept}");
        assert!(
            kept.contains(".x\\:y{color:green}"),
            "an escaped class is matched unescaped: {kept}"
        );
        let bare = styles().for_page("<p>", true).first_paint;
        assert!(!bare.contains("@media") && !bare.contains("@supports"), "{bare}");
    }

    #[test]
    fn the_head_scripts_classes_count_as_present() {
        let page = r#"<ul class="menu">"#;
        assert!(styles()
            .for_page(page, true)
            .first_paint
            .contains(".js .menu:not(.open){display:none}"));
        // Without the head script's "js", the page alone does not match it.
        assert!(!PageStyles::new(CSS, "")
            .for_page(page, true)
            .first_paint
            .contains(".js .menu"));
    }

    #[test]
    fn only_class_attributes_name_classes_and_tags_name_elements() {
        let found =
            Present::in_page(r#"<a data-class="card" class='one  two' title="class=three"><SVG class=four></SVG>"#);
        assert_eq!(found.classes, HashSet::from(["one", "two", "four"]));
        let elements: HashSet<&str> = found.elements.iter().map(|e| e.as_ref()).collect();
        assert_eq!(elements, HashSet::from(["a", "svg", "html", "head", "body", "tbody"]));
    }

    #[test]
    fn a_rule_for_elements_the_page_lacks_is_left_out() {
        let styles = PageStyles::new(
            ".article blockquote{quotes:none}.article>p{margin:1px}dialog.welcome:not([open]){display:block}\
             input[type=text],textarea{width:100%}a:hover::after{content:''}*,:before{box-sizing:border-box}",
            "",
        );
        assert_eq!(
            styles
                .for_page(r#"<main class="article"><p>text <a href="/">link</a></p></main>"#, true)
                .first_paint,
            ".article>p{margin:1px}a:hover::after{content:''}*,:before{box-sizing:border-box}"
        );
        let form = styles
            .for_page(r#"<textarea></textarea><dialog class="welcome"></dialog>"#, true)
            .first_paint;
        assert!(
            form.contains("dialog.welcome:not([open])") && form.contains("textarea{width:100%}"),
            "{form}"
        );
    }

    #[test]
    fn a_broken_stylesheet_loses_nothing_after_a_stray_brace() {
        let styles = PageStyles::new(".a{color:red}}.b{color:blue}", "");
        assert_eq!(styles.for_page("<p>", true).first_paint, ".b{color:blue}");
        assert_eq!(
            styles.for_page(r#"<p class="a">"#, true).first_paint,
            ".a{color:red}.b{color:blue}"
        );
    }

    #[test]
    fn the_whole_stylesheet_comes_back_for_a_page_with_every_class() {
        let css = "a{color:red}.b{color:blue}@media print{.c{display:none}}";
        let all = PageStyles::new(css, "").for_page(r#"<a class="b c">"#, true);
        assert_eq!(all.first_paint, css);
        assert_eq!(all.for_islands, "", "nothing is left for the islands");
    }

    #[test]
    fn the_islands_get_the_rules_left_out_in_their_order() {
        let rules = styles().for_page(r#"<div class="card"></div>"#, true);
        assert_eq!(
            rules.for_islands,
            ".card .title,.banner{color:red}.js .menu:not(.open){display:none}\
             @media (max-width:40rem){.dialog{inset:0}}a[href^=\"http\"]{color:blue}.dialog::backdrop{opacity:.5}\
             @supports (display:grid){.grid{display:grid}}.x\\:y{color:green}"
        );
        assert!(!rules.for_islands.contains("@font-face"), "{}", rules.for_islands);
    }

    #[test]
    fn a_left_out_rule_that_an_inline_rule_after_it_competes_with_is_inlined() {
        // The islands' stylesheet comes after the inline rules. `.open` there would beat
        // `.closed` on an element an island gives both classes, where the whole stylesheet lets
        // the later `.closed` win: it is inlined, before `.closed`. So is `.x`, which `.open`
        // (inlined now) follows for `margin`.
        let styles = PageStyles::new(
            ".x{margin-top:0}.open{color:red;margin:1px}.closed{color:blue}.wide{margin:0}.a .b{margin:2px}\
             .shut{padding:0}",
            "",
        );
        let rules = styles.for_page(r#"<p class="closed a b">"#, true);
        assert_eq!(
            rules.first_paint,
            ".x{margin-top:0}.open{color:red;margin:1px}.closed{color:blue}.a .b{margin:2px}"
        );
        // `.a .b` is more specific than `.wide`: whichever comes last, it wins.
        assert_eq!(rules.for_islands, ".wide{margin:0}.shut{padding:0}");
    }

    #[test]
    fn rules_for_other_elements_or_pseudo_elements_never_compete() {
        // Same specificity, same property, but `li` and `p` are different elements, and `::before`
        // is not the element: the left-out rules stay out.
        let styles = PageStyles::new(".menu li{color:red}.tip:before{color:red}.text p{color:blue}", "");
        let rules = styles.for_page(r#"<div class="text"><p>a</p></div>"#, true);
        assert_eq!(rules.first_paint, ".text p{color:blue}");
        assert_eq!(rules.for_islands, ".menu li{color:red}.tip:before{color:red}");
        // A rule for any element (here in a `nav`) competes with one for `p` after it.
        let styles = PageStyles::new("nav .menu{color:red}.text p{color:blue}", "");
        let rules = styles.for_page(r#"<div class="text"><p>a</p></div>"#, true);
        assert_eq!(rules.first_paint, "nav .menu{color:red}.text p{color:blue}");
    }

    #[test]
    fn a_page_without_islands_inlines_only_what_matches_it() {
        let styles = PageStyles::new(".open{color:red}.closed{color:blue}", "");
        let rules = styles.for_page(r#"<p class="closed">"#, false);
        assert_eq!(rules.first_paint, ".closed{color:blue}");
    }

    #[test]
    fn a_selectors_last_compound_names_its_element_and_pseudo_element() {
        let t = read_selector(".a li:hover::before").1;
        assert_eq!(
            (t.element.as_deref(), t.pseudo_element.as_deref()),
            (Some("li"), Some("before"))
        );
        let t = read_selector("ul .b:after").1;
        assert_eq!(
            (t.element.as_deref(), t.pseudo_element.as_deref()),
            (None, Some("after"))
        );
        let t = read_selector("dialog.modal::backdrop").1;
        assert_eq!(t.element.as_deref(), Some("dialog"));
        assert!(t.pseudo_element.is_some_and(|p| p.starts_with("backdrop")));
        assert_eq!(read_selector("li > :is(a, b)").1.element, None);
    }

    #[test]
    fn specificity_counts_ids_classes_and_elements_as_browsers_do() {
        for (selector, expected) in [
            ("*", [0, 0, 0]),
            ("a", [0, 0, 1]),
            ("ul li.item>a:hover", [0, 2, 3]),
            ("#top .x[data-y]", [1, 2, 0]),
            ("a::before", [0, 0, 2]),
            ("a:after", [0, 0, 2]),
            (".a:not(.b,#c)", [1, 1, 0]),
            (":where(#x) .y", [0, 1, 0]),
            ("li:nth-child(2n+1 of .odd)", [0, 2, 1]),
            ("li:nth-child(2)", [0, 1, 1]),
            (".dialog::backdrop", [0, 1, 1]),
            ("html:has(dialog[open])", [0, 1, 2]),
            (".x\\:y", [0, 1, 0]),
        ] {
            assert_eq!(read_selector(selector).1.specificity, expected, "{selector}");
        }
    }

    #[test]
    fn declarations_compete_when_they_can_set_the_same_value() {
        let set = |block: &str| properties(block).join(" ");
        assert_eq!(set("margin-top:0;margin:1px"), "margin");
        assert_eq!(set("width:1px;inline-size:2px"), "width");
        assert_eq!(set("top:0;inset-inline-start:0"), "inset");
        assert_eq!(set("-webkit-appearance:none;appearance:none"), "appearance");
        assert_eq!(set("--gap:1px;gap:var(--gap)"), "--gap gap");
        assert_eq!(set("background:url(a;b.png)"), "background");
        assert_eq!(set("&:hover{color:red}"), ALL);
        assert_eq!(set("all:unset"), ALL);
        // A shorthand meets each of its parts, its parts do not meet each other.
        assert!(set("font:1em/2 a").contains("line-height"));
        assert_eq!(set("font-size:1em;font-weight:600"), "font-size font-weight");
        assert_eq!(set("border-inline-start-color:red"), "border-color");
        assert_eq!(set("border-top:1px solid"), "border-color border-style border-width");
        assert_eq!(set("border-top-left-radius:1px;border-radius:2px"), "border-radius");
        assert_eq!(set("place-items:center"), "align-items justify-items");
        assert_eq!(set("display:flex;color:red"), "color display");
    }
}
