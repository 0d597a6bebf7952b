//! A title broken into lines that fit the card: Latin text between words, Chinese and Japanese
//! between any two characters except before closing punctuation or small kana, and after an
//! opening bracket (the line-start and line-end rules of CJK typesetting); what does not fit
//! in the last line ends with an ellipsis.

const ELLIPSIS: char = '…';

/// Characters that never start a line: they stay with the one before.
const NO_START: &str =
    "、。，．,.!?！？：；:;)）]］}｝」』】〉》〕”’ー々〻ゝゞヽヾぁぃぅぇぉっゃゅょゎァィゥェォッャュョヮヵヶ・…‥";
/// Characters that never end a line: they go with the one after.
const NO_END: &str = "(（[［{｛「『【〈《〔“‘";

/// Whether a line may break on either side of `c` (CJK text has no spaces between words).
fn is_cjk(c: char) -> bool {
    matches!(u32::from(c),
        0x1100..=0x11FF | 0x2E80..=0x2FDF | 0x3000..=0x303F | 0x3040..=0x30FF | 0x3100..=0x31FF
        | 0x3400..=0x4DBF | 0x4E00..=0x9FFF | 0xAC00..=0xD7AF | 0xF900..=0xFAFF | 0xFE30..=0xFE4F
        | 0xFF00..=0xFFEF | 0x20000..=0x3FFFF)
}

/// The text cut where lines may break: words, CJK characters (with the punctuation that
/// clings to them) and the spaces between.
fn pieces(text: &str) -> Vec<String> {
    let mut pieces: Vec<String> = Vec::new();
    let mut glue_next = false;
    for c in text.chars() {
        let space = c.is_whitespace();
        let joins = match pieces.last() {
            None => false,
            Some(_) if glue_next || NO_START.contains(c) => true,
            Some(last) => {
                let last_char = last.chars().last().expect("pieces are not empty");
                let last_space = last_char.is_whitespace();
                space == last_space && !space && !is_cjk(c) && !is_cjk(last_char)
            }
        };
        if joins {
            pieces.last_mut().expect("a piece to join").push(c);
        } else {
            pieces.push(c.to_string());
        }
        glue_next = NO_END.contains(c);
    }
    pieces
}

/// `text` as at most `max_lines` lines, each no wider than `max` as `width` measures.
pub(crate) fn wrap(text: &str, max: f32, max_lines: usize, width: impl Fn(&str) -> f32) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for piece in pieces(text.trim()) {
        let candidate = format!("{line}{piece}");
        if width(candidate.trim_end()) <= max || line.trim().is_empty() && width(&piece) <= max {
            line = candidate;
            continue;
        }
        if !line.trim().is_empty() {
            lines.push(std::mem::take(&mut line).trim_end().to_string());
        }
        // A word wider than a whole line is broken where it must be.
        for c in piece.trim_start().chars() {
            if !line.is_empty() && width(&format!("{line}{c}")) > max {
                lines.push(std::mem::take(&mut line));
            }
            line.push(c);
        }
    }
    if !line.trim().is_empty() {
        lines.push(line.trim_end().to_string());
    }
    if lines.len() > max_lines {
        lines.truncate(max_lines);
        let last = lines.last_mut().expect("max_lines is above 0");
        while !last.is_empty() && width(&format!("{}{ELLIPSIS}", last.trim_end())) > max {
            last.pop();
        }
        *last = format!("{}{ELLIPSIS}", last.trim_end());
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::wrap;

    /// Every character one unit wide.
    fn chars(text: &str) -> f32 {
        text.chars().count() as f32
    }

    #[test]
    fn latin_titles_break_between_words() {
        let lines = wrap("Liquidity risk in small caps", 14.0, 3, chars);
        assert_eq!(lines, ["Liquidity risk", "in small caps"]);
    }

    #[test]
    fn chinese_and_japanese_titles_break_between_characters_but_not_before_closing_marks() {
        assert_eq!(
            wrap("流動性風險與小型股", 4.0, 3, chars),
            ["流動性風", "險與小型", "股"]
        );
        // 「。」 never starts a line, and 「」 stays with the character it opens.
        assert_eq!(wrap("投資とは「何か」。", 5.0, 3, chars), ["投資とは", "「何か」。"]);
    }

    #[test]
    fn a_title_longer_than_the_lines_ends_with_an_ellipsis() {
        let lines = wrap("one two three four five six seven", 9.0, 2, chars);
        assert_eq!(lines, ["one two", "three…"]);
        assert!(lines.iter().all(|l| chars(l) <= 9.0));
    }

    #[test]
    fn a_word_wider_than_a_line_is_cut() {
        assert_eq!(wrap("abcdefghij", 4.0, 3, chars), ["abcd", "efgh", "ij"]);
    }
}
