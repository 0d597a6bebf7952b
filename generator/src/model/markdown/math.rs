//! LaTeX to MathML (pulldown-latex), with the notation of finance texts made to read right:
//! `1{,}785.00` is one number, and a name such as `CF`, `\mathrm{TV}` or `\text{EPS}` is one
//! upright identifier rather than the product of italic letters.

use pulldown_cmark::CowStr;
use pulldown_latex::{config::DisplayMode, push_mathml, Parser, RenderConfig, Storage};

/// Commands whose braced argument is text or an already chosen font: their letters are left alone.
const VERBATIM_ARGUMENT: &[&str] = &[
    "text",
    "textrm",
    "textit",
    "textbf",
    "textsf",
    "texttt",
    "mbox",
    "mathrm",
    "mathit",
    "mathbf",
    "mathsf",
    "mathtt",
    "mathcal",
    "mathbb",
    "mathfrak",
    "mathscr",
    "operatorname",
    "begin",
    "end",
];

pub fn to_mathml(latex: &str, display: bool) -> Result<String, String> {
    let latex = prepare(latex);
    let storage = Storage::new();
    // Parse once to surface errors: the renderer would otherwise print them in red on the page.
    for event in Parser::new(&latex, &storage) {
        event.map_err(|e| e.to_string())?;
    }
    let storage = Storage::new();
    let config = RenderConfig {
        display_mode: if display {
            DisplayMode::Block
        } else {
            DisplayMode::Inline
        },
        ..Default::default()
    };
    let mut out = String::new();
    push_mathml(&mut out, Parser::new(&latex, &storage), config).map_err(|e| e.to_string())?;
    Ok(join_names(&out))
}

/// Punctuation that may not begin a line: a formula is an atomic box to line breaking, so
/// without help `$r$。` could leave `。` alone at the start of the next line.
const CLOSING: &[char] = &[
    '.', ',', ';', ':', '!', '?', ')', ']', '»', '”', '’', '。', '、', '，', '．', '：', '；', '！', '？', '）', '」',
    '』', '】', '〉', '》', '…',
];

/// Ties the closing punctuation at the start of `text` to the inline formula before it: the pair
/// goes into one unbreakable span (`math` is rewritten in place) and the rest of the text is
/// returned; `None` when the text does not start with such punctuation.
pub(super) fn tie_punctuation<'t>(math: &mut CowStr<'_>, text: &'t str) -> Option<&'t str> {
    let split = text.find(|c: char| !CLOSING.contains(&c)).unwrap_or(text.len());
    if split == 0 {
        return None;
    }
    let punctuation = html_escape::encode_text(&text[..split]);
    *math = format!("<span class=\"math-tie\">{math}{punctuation}</span>").into();
    Some(&text[split..])
}

/// Rewrites the source before parsing:
/// - `{,}` between digits (TeX's way to stop a comma from spacing) becomes a plain comma, which
///   pulldown-latex keeps inside the number: `1{,}785.00` gives one `<mn>1,785.00</mn>`;
/// - two or more capital letters written together (`CF`, `TV`, `WACC`) become `\mathrm{..}`, a
///   name; capitals meant as a product are written apart (`P Q`, `P \times Q`).
fn prepare(latex: &str) -> String {
    let chars: Vec<char> = latex.chars().collect();
    let mut out = String::with_capacity(latex.len() + 16);
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c == '\\' {
            let start = i;
            i += 1;
            while i < chars.len() && chars[i].is_ascii_alphabetic() {
                i += 1;
            }
            if i == start + 1 && i < chars.len() {
                i += 1; // a one-character command such as `\,` or `\$`
            }
            let name: String = chars[start + 1..i].iter().collect();
            out.extend(&chars[start..i]);
            if VERBATIM_ARGUMENT.contains(&name.as_str()) {
                while i < chars.len() && chars[i].is_whitespace() {
                    out.push(chars[i]);
                    i += 1;
                }
                if i < chars.len() && chars[i] == '{' {
                    let end = group_end(&chars, i);
                    out.extend(&chars[i..end]);
                    i = end;
                }
            }
        } else if c == '{'
            && chars.get(i + 1) == Some(&',')
            && chars.get(i + 2) == Some(&'}')
            && i > 0
            && chars[i - 1].is_ascii_digit()
            && chars.get(i + 3).is_some_and(|d| d.is_ascii_digit())
        {
            out.push(',');
            i += 3;
        } else if c.is_ascii_uppercase() {
            let start = i;
            while i < chars.len() && chars[i].is_ascii_uppercase() {
                i += 1;
            }
            let run: String = chars[start..i].iter().collect();
            if run.len() >= 2 {
                out.push_str(&format!("\\mathrm{{{run}}}"));
            } else {
                out.push_str(&run);
            }
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

/// The index just past the `}` that closes the group opened at `open` (or the end of the input).
fn group_end(chars: &[char], open: usize) -> usize {
    let mut depth = 0;
    let mut i = open;
    while i < chars.len() {
        match chars[i] {
            '\\' => i += 1,
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    return i + 1;
                }
            }
            _ => {}
        }
        i += 1;
    }
    chars.len()
}

const NORMAL_MI: &str = "<mi mathvariant=\"normal\">";

/// Makes each name one identifier: pulldown-latex writes `\mathrm{CF}` as an `<mrow>` of one
/// upright `<mi>` per letter, and `\text{EPS}` as text; both become `<mi mathvariant="normal">`
/// holding the whole name, which assistive technology reads as one symbol.
fn join_names(mathml: &str) -> String {
    let mut out = String::with_capacity(mathml.len());
    let mut rest = mathml;
    loop {
        let next_mrow = rest.find("<mrow>");
        let next_mtext = rest.find("<mtext>");
        let Some(at) = [next_mrow, next_mtext].into_iter().flatten().min() else {
            out.push_str(rest);
            return out;
        };
        out.push_str(&rest[..at]);
        rest = &rest[at..];
        let (name, consumed) = if rest.starts_with("<mrow>") {
            letters_row(rest)
        } else {
            capitals_text(rest)
        };
        match name {
            Some(name) => {
                out.push_str(NORMAL_MI);
                out.push_str(&name);
                out.push_str("</mi>");
                rest = &rest[consumed..];
            }
            None => {
                let tag_len = if rest.starts_with("<mrow>") { 6 } else { 7 };
                out.push_str(&rest[..tag_len]);
                rest = &rest[tag_len..];
            }
        }
    }
}

/// `<mrow>` holding only two or more upright single letters: the letters, and the length read.
fn letters_row(s: &str) -> (Option<String>, usize) {
    let mut pos = "<mrow>".len();
    let mut name = String::new();
    while s[pos..].starts_with(NORMAL_MI) {
        let inner = pos + NORMAL_MI.len();
        let mut letter = s[inner..].chars();
        match (letter.next(), s[inner..].get(1..).map(|t| t.starts_with("</mi>"))) {
            (Some(c), Some(true)) if c.is_ascii_alphabetic() => {
                name.push(c);
                pos = inner + 1 + "</mi>".len();
            }
            _ => return (None, 0),
        }
    }
    if name.len() >= 2 && s[pos..].starts_with("</mrow>") {
        (Some(name), pos + "</mrow>".len())
    } else {
        (None, 0)
    }
}

/// `<mtext>` holding only two or more capital letters (`\text{EPS}`): the name, and the length read.
fn capitals_text(s: &str) -> (Option<String>, usize) {
    let body = &s["<mtext>".len()..];
    match body.find("</mtext>") {
        Some(end) if end >= 2 && body[..end].bytes().all(|b| b.is_ascii_uppercase()) => {
            (Some(body[..end].to_string()), "<mtext>".len() + end + "</mtext>".len())
        }
        _ => (None, 0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn inline(latex: &str) -> String {
        to_mathml(latex, false).unwrap()
    }

    #[test]
    fn thousands_separators_stay_inside_the_number() {
        let m = inline("447.70 + \\frac{1{,}785.00}{1.10^5} = 1{,}556.04");
        assert!(m.contains("<mn>1,785.00</mn>"), "{m}");
        assert!(m.contains("<mn>1,556.04</mn>"), "{m}");
        assert!(!m.contains("<mo>,</mo>"), "{m}");
        // A comma that is not between digits keeps its meaning.
        assert!(inline("f(x{,}y)").contains("<mo>,</mo>"));
    }

    #[test]
    fn capitals_written_together_are_one_upright_name() {
        let m = inline("PV = \\frac{CF_t}{(1 + r)^t}");
        assert!(
            m.starts_with("<math display=\"inline\"><mi mathvariant=\"normal\">PV</mi>"),
            "{m}"
        );
        assert!(
            m.contains("<msub><mi mathvariant=\"normal\">CF</mi><mi>t</mi></msub>"),
            "{m}"
        );
        assert!(!m.contains("<mi>C</mi>"), "{m}");
        // Single letters stay italic variables; capitals written apart stay a product.
        assert!(inline("P_0 = D r").contains("<mi>D</mi><mi>r</mi>"));
        assert!(inline("P Q").contains("<mi>P</mi><mi>Q</mi>"));
    }

    #[test]
    fn names_however_written_come_out_the_same() {
        let bare = inline("TV");
        assert_eq!(bare, inline("\\mathrm{TV}"));
        assert_eq!(bare, inline("\\text{TV}"));
        assert_eq!(
            bare,
            "<math display=\"inline\"><mi mathvariant=\"normal\">TV</mi></math>"
        );
        // Words stay text; an upright word is one identifier.
        assert!(inline("\\text{Value}").contains("<mtext>Value</mtext>"));
        assert!(inline("\\mathrm{Value}").contains("<mi mathvariant=\"normal\">Value</mi>"));
        // Letters inside text are not touched by the capitals rule.
        assert!(inline("\\text{Earnings per share (EPS)}").contains("<mtext>Earnings per share (EPS)</mtext>"));
    }

    #[test]
    fn commands_keep_their_letters() {
        // `\Delta` and `\Sigma` are commands, not the capitals D and S followed by letters.
        let m = inline("\\Delta P + \\Sigma");
        assert!(m.contains('Δ') && m.contains('Σ'), "{m}");
        assert!(m.contains("<mi>P</mi>"), "{m}");
    }
}
