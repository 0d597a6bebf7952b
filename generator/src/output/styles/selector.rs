//! Reading a selector list from `cssparser`'s tokens: for each selector, what a page must have for
//! it to match, and its specificity and target for the cascade.

use cssparser::{ParseError, Parser, Token};

/// What a page must have for a selector to match it.
#[derive(Debug, PartialEq)]
pub(super) enum Need {
    /// An element with this class.
    Class(String),
    /// An element of this name (lower case).
    Element(String),
}

/// A selector's specificity and what its last compound requires of the element it styles.
#[derive(Debug, PartialEq)]
pub(super) struct Target {
    pub(super) specificity: Specificity,
    /// The element name it requires, if any: `p` and `li` never style the same element.
    pub(super) element: Option<String>,
    /// The pseudo-element it styles (`before`), if any: never the element itself.
    pub(super) pseudo_element: Option<String>,
}

/// Ids, then classes, attributes and pseudo-classes, then element names and pseudo-elements.
pub(super) type Specificity = [u32; 3];

/// Each selector of the comma-separated list `input` holds, read once (`read_selector`).
pub(super) fn read_selectors(input: &mut Parser) -> Vec<(Vec<Need>, Target)> {
    input.parse_comma_separated_ignoring_errors(|input| Ok::<_, ParseError<()>>(read_selector(input)))
}

/// One selector: what the page must have for it to match (the classes and element names outside
/// brackets and the arguments of functional pseudo-classes, which may match without them:
/// `:not(.open)`), and what it matches as far as the cascade goes. Its specificity: `:is()`,
/// `:not()`, `:has()` count their most specific argument, `:where()` nothing,
/// `:nth-child(… of S)` a pseudo-class and S. Namespaces (`svg|a`) are not read.
fn read_selector(input: &mut Parser) -> (Vec<Need>, Target) {
    let mut needs = Vec::new();
    let mut target = Target {
        specificity: [0; 3],
        element: None,
        pseudo_element: None,
    };
    // A combinator ends the compound before it; whitespace before the end ends none.
    let mut combinator = false;
    while let Ok(token) = input.next_including_whitespace() {
        if matches!(token, Token::WhiteSpace(_) | Token::Delim('>' | '+' | '~')) {
            combinator = true;
            continue;
        }
        if std::mem::take(&mut combinator) {
            (target.element, target.pseudo_element) = (None, None);
        }
        match token {
            Token::IDHash(_) | Token::Hash(_) => target.specificity[0] += 1,
            Token::SquareBracketBlock => target.specificity[1] += 1,
            Token::Delim('.') => {
                target.specificity[1] += 1;
                let before = input.state();
                match input.next_including_whitespace() {
                    Ok(Token::Ident(class)) => needs.push(Need::Class(class.to_string())),
                    _ => input.reset(&before),
                }
            }
            Token::Ident(name) => {
                let name = name.to_ascii_lowercase();
                target.specificity[2] += 1;
                needs.push(Need::Element(name.clone()));
                target.element = Some(name);
            }
            Token::Colon => pseudo(input, &mut target),
            _ => {}
        }
    }
    (needs, target)
}

/// The pseudo-class or pseudo-element after a colon, with its argument: its specificity added to
/// `target`'s, the pseudo-element it styles, if it is one, made `target`'s.
fn pseudo(input: &mut Parser, target: &mut Target) {
    let mut colons = 1;
    let (name, is_function) = loop {
        match input.next_including_whitespace() {
            Ok(Token::Colon) => colons += 1,
            Ok(Token::Ident(name)) => break (name.to_ascii_lowercase(), false),
            Ok(Token::Function(name)) => break (name.to_ascii_lowercase(), true),
            _ => return,
        }
    };
    let total = &mut target.specificity;
    let of_argument = match name.as_str() {
        "where" => [0; 3],
        "is" | "not" | "has" | "matches" | "any" | "-webkit-any" | "-moz-any" => {
            argument(input, is_function, most_specific)
        }
        "nth-child" | "nth-last-child" => {
            total[1] += 1;
            argument(input, is_function, of_selectors)
        }
        "slotted" | "host" | "host-context" | "cue" => {
            total[if colons == 2 { 2 } else { 1 }] += 1;
            argument(input, is_function, most_specific)
        }
        "before" | "after" | "first-line" | "first-letter" => {
            total[2] += 1;
            target.pseudo_element = Some(name);
            [0; 3]
        }
        _ if colons == 2 => {
            total[2] += 1;
            // `::part(label)` and `::part(icon)` style different elements.
            let argument = argument(input, is_function, written);
            target.pseudo_element = Some(format!("{name}({argument})"));
            [0; 3]
        }
        _ => {
            total[1] += 1;
            [0; 3]
        }
    };
    (0..3).for_each(|i| target.specificity[i] += of_argument[i]);
}

/// The specificity of the most specific selector of the list `input` holds.
fn most_specific(input: &mut Parser) -> Specificity {
    (read_selectors(input).into_iter())
        .map(|(_, target)| target.specificity)
        .max()
        .unwrap_or_default()
}

/// That of the selector list after `of` in an `An+B of S` argument, if there is one.
fn of_selectors(input: &mut Parser) -> Specificity {
    while let Ok(token) = input.next() {
        if matches!(token, Token::Ident(word) if word.eq_ignore_ascii_case("of")) {
            return most_specific(input);
        }
    }
    [0; 3]
}

/// What `read` makes of the argument of a functional pseudo (`is_function`), or the default.
fn argument<'i, T: Default>(input: &mut Parser<'i>, is_function: bool, read: impl FnOnce(&mut Parser<'i>) -> T) -> T {
    let parsed = is_function.then(|| input.parse_nested_block(|input| Ok::<_, ParseError<()>>(read(input))));
    parsed.and_then(Result::ok).unwrap_or_default()
}

/// What is left of `input`, as written.
fn written<'i>(input: &mut Parser<'i>) -> &'i str {
    let start = input.position();
    while input.next().is_ok() {}
    input.slice_from(start)
}
