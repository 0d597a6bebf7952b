//! Reading a selector: what a page must have for it to match, and its specificity and target
//! for the cascade.

use super::tokens::{scan_to, split_top_level};

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

/// One selector, read once: what the page must have for it to match (the classes and element
/// names outside brackets and the parentheses of functional pseudo-classes, whose arguments may
/// match without them: `:not(.open)`), and what it matches as far as the cascade goes. Its
/// specificity: `:is()`, `:not()`, `:has()` count their most specific argument, `:where()`
/// nothing, `:nth-child(… of S)` a pseudo-class and S.
pub(super) fn read_selector(selector: &str) -> (Vec<Need>, Target) {
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
            b':' => pos = pseudo(selector, pos, &mut total, &mut pseudo_element),
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

/// A pseudo-class or pseudo-element at `pos` (its colons) and its argument: its specificity added
/// to `total`, the pseudo-element it styles to `pseudo_element`. Returns the position after it.
fn pseudo(selector: &str, pos: usize, total: &mut Specificity, pseudo_element: &mut Option<String>) -> usize {
    let bytes = selector.as_bytes();
    let colons = bytes[pos..].iter().take_while(|&&c| c == b':').count();
    let (name, end) = identifier(selector, pos + colons);
    let name = name.to_ascii_lowercase();
    let mut pos = end;
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
            *pseudo_element = Some(name.clone());
            [0; 3]
        }
        _ if colons == 2 => {
            total[2] += 1;
            *pseudo_element = Some(format!("{name}({argument})"));
            [0; 3]
        }
        _ => {
            total[1] += 1;
            [0; 3]
        }
    };
    (0..3).for_each(|i| total[i] += of_argument[i]);
    pos
}

/// The CSS identifier starting at `start` (escapes resolved) and the position after it.
pub(super) fn identifier(selector: &str, start: usize) -> (String, usize) {
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
