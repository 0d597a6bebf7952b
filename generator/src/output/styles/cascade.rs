//! Which of two rules wins where both match: their specificity, their order, and what they
//! set; and the rules inlined after the one being placed, which it must not compete with.

use super::selector::Target;

/// What decides which of two rules that match an element and set the same property wins: the
/// more specific selector, and at equal specificity the later rule.
pub(super) struct Cascade {
    /// Each selector's of the list (the one that matches counts).
    pub(super) targets: Vec<Target>,
    /// What the rule sets (`values_set`).
    pub(super) properties: Vec<String>,
    pub(super) slots: Slots,
}

/// The rules inlined after the one being placed: a rule left out of the page's `<style>` would
/// come after them all, so it must not compete with any of them: set what one of them sets, at
/// the same specificity, on an element both can style (which of the two wins is then the later).
/// Each (specificity, pseudo-element, what is set) has its place (`Slots`); what is there are the
/// elements those inline rules can style.
pub(super) struct Inline {
    pub(super) places: Vec<Elements>,
}

/// The elements the inline rules of one place can style: some by name, or any.
#[derive(Clone, Default)]
pub(super) struct Elements {
    pub(super) any: bool,
    pub(super) named: Vec<u32>,
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
    pub(super) fn new(slots: usize) -> Self {
        Inline {
            places: vec![Elements::default(); slots],
        }
    }

    pub(super) fn competes(&self, rule: &Cascade) -> bool {
        (rule.slots.looks.iter()).any(|&(place, element)| self.places[place].can_style(element))
    }

    pub(super) fn add(&mut self, rule: &Cascade) {
        for &(place, element) in &rule.slots.marks {
            self.places[place].add(element);
        }
    }
}

/// A rule's places in `Inline`, numbered once per stylesheet (`number_slots`) so that a page's
/// check indexes a vector rather than hashing names: each with the element the rule requires
/// there, if any (numbered too).
#[derive(Default)]
pub(super) struct Slots {
    /// Where it is recorded once inlined: for each selector, its place for each thing it sets and
    /// its place for anything set.
    pub(super) marks: Vec<(usize, Option<u32>)>,
    /// Where an inline rule it competes with would be: for each selector, the places of what it
    /// sets (of anything set, for `all`) and of `all`.
    pub(super) looks: Vec<(usize, Option<u32>)>,
}

/// What a rule sets (`values_set`) when it sets `all`, or when its block is not a plain list of
/// declarations (`properties`): anything.
pub(super) const ALL: &str = "all";

/// What the `font` shorthand sets.
const FONT_PARTS: &[&str] = &[
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
];

/// Properties whose parts are named after them (`margin`, `margin-inline-start`): a part sets
/// what its property sets.
const FAMILIES: &[&str] = &[
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
];

/// Names for what `property` sets, shared by every property that can set the same: a shorthand
/// names its parts, a part of a side or a corner names all sides (so a logical property meets
/// its physical twin), an alias its property. Two declarations compete only if they share a
/// name; some that share one do not (`margin-top` and `margin-left`), which only inlines more.
pub(super) fn values_set(property: &str) -> Vec<String> {
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
        "font" => names(FONT_PARTS),
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
        // A property and the parts named after it: `margin` and `margin-inline-start`.
        _ => {
            let family =
                (FAMILIES.iter()).find(|f| p == **f || p.strip_prefix(**f).is_some_and(|rest| rest.starts_with('-')));
            one(family.copied().unwrap_or(p))
        }
    }
}
