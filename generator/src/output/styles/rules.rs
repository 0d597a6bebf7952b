//! The stylesheet read as rules: style rules with their selectors and cascade, the groups
//! (`@media`, `@supports`) that hold rules, and what every page keeps.

use super::cascade::{properties, Cascade, Slots, ALL};
use super::selector::{read_selector, Need, Specificity};
use super::tokens::{scan_to, skip_block, skip_space_and_comments, split_top_level, text};
use std::collections::HashMap;

pub(super) enum Rule {
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

/// Gives every style rule its `Slots`; returns how many places there are.
pub(super) fn number_slots(rules: &mut [Rule]) -> usize {
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

/// The rules from `pos` up to the `}` that closes their block (or the end), which it passes.
pub(super) fn parse_rules(css: &[u8], pos: &mut usize) -> Vec<Rule> {
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
