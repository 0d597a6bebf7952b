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
//! Chromium). Islands render other elements once they run (a dialog, an open menu, loaded
//! posts): the head script loads the whole stylesheet with their scripts, and they hydrate once
//! it is in (`ui/src/lib/hydration.ts`).

use std::borrow::Cow;
use std::collections::HashSet;

/// Where a page's `<style>` gets its rules, once the page is whole (islands rendered in).
pub const STYLES_MARKER: &str = "/*page-styles*/";

/// The UI's stylesheet as rules, ready to be cut per page.
pub struct PageStyles {
    rules: Vec<Rule>,
    /// Classes present on every page before its first paint (the head script's).
    always: HashSet<String>,
}

enum Rule {
    /// Kept on every page (`@font-face`, `@keyframes`, a statement such as `@import`).
    Always(String),
    /// A style rule: its text, and for each selector of its list what it requires (`requirements`).
    Style { text: String, selectors: Vec<Vec<Need>> },
    /// `@media` or `@supports`: kept with the rules inside it that are kept.
    Group { prelude: String, rules: Vec<Rule> },
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
        PageStyles {
            rules,
            always: string_literals(head_script),
        }
    }

    /// The rules that can match `html`, a page as written, as one stylesheet.
    pub fn for_page(&self, html: &str) -> String {
        let found = Present::in_page(html);
        let present = |need: &Need| match need {
            Need::Class(class) => found.classes.contains(class.as_str()) || self.always.contains(class),
            Need::Element(name) => found.elements.contains(name.as_str()),
        };
        let mut out = String::new();
        select(&self.rules, &present, &mut out);
        out
    }
}

fn select(rules: &[Rule], present: &impl Fn(&Need) -> bool, out: &mut String) {
    for rule in rules {
        match rule {
            Rule::Always(text) => out.push_str(text),
            Rule::Style { text, selectors } => {
                if selectors.iter().any(|needs| needs.iter().all(present)) {
                    out.push_str(text);
                }
            }
            Rule::Group { prelude, rules } => {
                let start = out.len();
                out.push_str(prelude);
                out.push('{');
                let inner = out.len();
                select(rules, present, out);
                if out.len() == inner {
                    out.truncate(start);
                } else {
                    out.push('}');
                }
            }
        }
    }
}

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
            rules.push(Rule::Style {
                selectors: split_top_level(&prelude, b',')
                    .iter()
                    .map(|s| requirements(s))
                    .collect(),
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

/// What the page must have for `selector` to match: the classes and element names outside
/// brackets and the parentheses of functional pseudo-classes, whose arguments may match without
/// them (`:not(.open)`).
fn requirements(selector: &str) -> Vec<Need> {
    let bytes = selector.as_bytes();
    let mut needs = Vec::new();
    let mut pos = 0;
    // Whether `pos` starts a compound selector, where an element name may stand.
    let mut compound_start = true;
    while pos < bytes.len() {
        let c = bytes[pos];
        let starts = compound_start;
        compound_start = matches!(c, b' ' | b'>' | b'+' | b'~' | b'\t' | b'\n');
        match c {
            b'\\' => pos += 2,
            b'"' | b'\'' | b'(' | b'[' => {
                let mut skip = pos;
                let close = match c {
                    b'(' => b')',
                    b'[' => b']',
                    quote => quote,
                };
                if close == b')' {
                    skip += 1;
                    scan_to(bytes, &mut skip, |c| c == b')');
                } else {
                    skip = bytes[pos + 1..]
                        .iter()
                        .position(|&c| c == close)
                        .map_or(bytes.len(), |i| pos + 1 + i);
                }
                pos = skip + 1;
            }
            b'.' => {
                let (class, end) = identifier(selector, pos + 1);
                if !class.is_empty() {
                    needs.push(Need::Class(class));
                }
                pos = end;
            }
            // A pseudo-class or pseudo-element name: neither a class nor an element.
            b':' => {
                while bytes.get(pos) == Some(&b':') {
                    pos += 1;
                }
                pos = identifier(selector, pos).1;
            }
            _ if starts && c.is_ascii_alphabetic() => {
                let (name, end) = identifier(selector, pos);
                needs.push(Need::Element(name.to_ascii_lowercase()));
                pos = end;
            }
            _ => pos += 1,
        }
    }
    needs
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
        let kept = styles().for_page(
            r#"<body><div class="card other"><p class="title">t</p></div><ul class="menu"></ul><a href="/">a</a></body>"#,
        );
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
        let kept = styles().for_page(r#"<p class="banner">"#);
        assert!(kept.contains(".card .title,.banner{color:red}"), "{kept}");
        assert!(!kept.contains(".card{"), "{kept}");
    }

    #[test]
    fn groups_keep_only_their_matching_rules_and_vanish_when_none_match() {
        let kept = styles().for_page(r#"<div class="dialog grid x:y">"#);
        assert!(kept.contains("@media (max-width:40rem){.dialog{inset:0}}"), "{kept}");
        assert!(kept.contains("@supports (display:grid){.grid{display:grid}}"), "{kept}");
        assert!(kept.contains(".dialog::backdrop{opacity:.5}"), "{kept}");
        assert!(
            kept.contains(".x\\:y{color:green}"),
            "an escaped class is matched unescaped: {kept}"
        );
        let bare = styles().for_page("<p>");
        assert!(!bare.contains("@media") && !bare.contains("@supports"), "{bare}");
    }

    #[test]
    fn the_head_scripts_classes_count_as_present() {
        let page = r#"<ul class="menu">"#;
        assert!(styles().for_page(page).contains(".js .menu:not(.open){display:none}"));
        // Without the head script's "js", the page alone does not match it.
        assert!(!PageStyles::new(CSS, "").for_page(page).contains(".js .menu"));
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
            ".article blockquote{margin:0}.article>p{margin:1px}dialog.welcome:not([open]){display:block}\
             input[type=text],textarea{width:100%}a:hover::after{content:''}*,:before{box-sizing:border-box}",
            "",
        );
        assert_eq!(
            styles.for_page(r#"<main class="article"><p>text <a href="/">link</a></p></main>"#),
            ".article>p{margin:1px}a:hover::after{content:''}*,:before{box-sizing:border-box}"
        );
        let form = styles.for_page(r#"<textarea></textarea><dialog class="welcome"></dialog>"#);
        assert!(
            form.contains("dialog.welcome:not([open])") && form.contains("textarea{width:100%}"),
            "{form}"
        );
    }

    #[test]
    fn a_broken_stylesheet_loses_nothing_after_a_stray_brace() {
        let styles = PageStyles::new(".a{color:red}}.b{color:blue}", "");
        assert_eq!(styles.for_page("<p>"), ".b{color:blue}");
        assert_eq!(styles.for_page(r#"<p class="a">"#), ".a{color:red}.b{color:blue}");
    }

    #[test]
    fn the_whole_stylesheet_comes_back_for_a_page_with_every_class() {
        let css = "a{color:red}.b{color:blue}@media print{.c{display:none}}";
        let all = PageStyles::new(css, "").for_page(r#"<a class="b c">"#);
        assert_eq!(all, css);
    }
}
