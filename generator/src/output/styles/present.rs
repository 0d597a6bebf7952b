//! What a page has that selectors ask for: its classes and element names, and the classes the
//! head script adds before the first paint.

use rustc_hash::FxHashSet;
use std::borrow::Cow;
use std::collections::HashSet;

/// The classes and element names of a page.
pub(super) struct Present<'a> {
    pub(super) classes: FxHashSet<&'a str>,
    /// Lower case, with those a browser adds to any page: `html`, `head`, `body`, and a table's
    /// `tbody`. (Fx hash: every tag of every page is looked up, and SipHash showed in the build's
    /// profile.)
    pub(super) elements: FxHashSet<Cow<'a, str>>,
}

impl<'a> Present<'a> {
    /// Every `class` attribute's tokens, and every tag's name.
    pub(super) fn in_page(html: &'a str) -> Self {
        let mut elements: FxHashSet<Cow<str>> = ["html", "head", "body", "tbody"]
            .map(Cow::Borrowed)
            .into_iter()
            .collect();
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
        let mut classes = FxHashSet::default();
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
pub(super) fn string_literals(script: &str) -> HashSet<String> {
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
