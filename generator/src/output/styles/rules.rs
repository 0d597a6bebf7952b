//! The stylesheet read as rules by `cssparser`: style rules with their selectors and cascade,
//! the groups (`@media`, `@supports`) that hold rules, and what every page keeps. Each rule keeps
//! its text as written, cut from the stylesheet.

use super::cascade::{Cascade, Slots, ALL};
use super::declarations::properties;
use super::selector::{read_selectors, Need, Specificity, Target};
use cssparser::StyleSheetParser;
use cssparser::{AtRuleParser, CowRcStr, ParseError, Parser, ParserState, QualifiedRuleParser, SourcePosition};
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

/// The rules of `input`, a stylesheet or a group's block, in their order. One the parser rejects
/// (a prelude that reads as a custom property: `--x:1{}`) is kept on every page as written.
pub(super) fn read_rules(input: &mut Parser) -> Vec<Rule> {
    let mut rules = Vec::new();
    let mut reader = Reader;
    let mut sheet = StyleSheetParser::new(input, &mut reader);
    while let Some(read) = sheet.next() {
        rules.push(match read {
            Ok((start, mut rule)) => {
                // Known once the parser has passed the rule's end: its `}` or `;`.
                if let Rule::Style { text, .. } | Rule::Always(text) = &mut rule {
                    *text = sheet.input.slice(start..sheet.input.position()).to_string();
                }
                rule
            }
            Err((_, text, _)) => Rule::Always(text.to_string()),
        });
    }
    rules
}

/// Everything left of `input`: what a rule's reader does not look into is still passed.
pub(super) fn skip_rest(input: &mut Parser) {
    while input.next().is_ok() {}
}

/// What `read_rules` asks `cssparser` to make of each rule: the rule and where it starts (its
/// text is filled in once its end is known).
struct Reader;

impl<'i> QualifiedRuleParser<'i> for Reader {
    type Prelude = Vec<(Vec<Need>, Target)>;
    type QualifiedRule = (SourcePosition, Rule);
    type Error = ();

    fn parse_prelude(&mut self, input: &mut Parser<'i>) -> Result<Self::Prelude, ParseError<()>> {
        Ok(read_selectors(input))
    }

    fn parse_block(
        &mut self,
        selectors: Self::Prelude,
        start: &ParserState,
        input: &mut Parser<'i>,
    ) -> Result<Self::QualifiedRule, ParseError<()>> {
        let (selectors, targets) = selectors.into_iter().unzip();
        let cascade = Cascade {
            targets,
            properties: properties(input),
            slots: Slots::default(),
        };
        let text = String::new();
        Ok((
            start.position(),
            Rule::Style {
                text,
                selectors,
                cascade,
            },
        ))
    }
}

impl<'i> AtRuleParser<'i> for Reader {
    /// Whether the rule is a group, and where its prelude ends.
    type Prelude = (bool, SourcePosition);
    type AtRule = (SourcePosition, Rule);
    type Error = ();

    fn parse_prelude(&mut self, name: CowRcStr<'i>, input: &mut Parser<'i>) -> Result<Self::Prelude, ParseError<()>> {
        skip_rest(input);
        let group = name.eq_ignore_ascii_case("media") || name.eq_ignore_ascii_case("supports");
        Ok((group, input.position()))
    }

    /// A statement: `@import …;`.
    fn rule_without_block(&mut self, _: Self::Prelude, start: &ParserState) -> Result<Self::AtRule, ()> {
        Ok((start.position(), Rule::Always(String::new())))
    }

    fn parse_block(
        &mut self,
        (group, prelude_end): Self::Prelude,
        start: &ParserState,
        input: &mut Parser<'i>,
    ) -> Result<Self::AtRule, ParseError<()>> {
        if !group {
            skip_rest(input);
            return Ok((start.position(), Rule::Always(String::new())));
        }
        let prelude = input.slice(start.position()..prelude_end).trim_end().to_string();
        let rules = read_rules(input);
        Ok((start.position(), Rule::Group { prelude, rules }))
    }
}
