//! Reading aids of articles (guides inside a section, notes, web-project write-ups): the contents
//! list made from the headings and the estimated reading time.

use crate::model::config::ReadingSpeed;
use crate::model::markdown::Heading;
use serde::Serialize;

/// A page gets a contents list when it has at least this many `##` sections; a shorter page is
/// read at a glance.
pub const MIN_CONTENTS_SECTIONS: usize = 3;

/// One entry of the contents list: a `##` heading and the `###` headings under it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ContentsEntry {
    pub id: String,
    pub title: String,
    pub children: Vec<ContentsEntry>,
}

/// The contents list of a page with these headings: its `##` headings with their `###` ones, or
/// nothing for a page with fewer than [`MIN_CONTENTS_SECTIONS`] sections.
pub fn contents(headings: &[Heading]) -> Vec<ContentsEntry> {
    let mut entries: Vec<ContentsEntry> = Vec::new();
    for heading in headings {
        let entry = ContentsEntry {
            id: heading.id.clone(),
            title: heading.title.clone(),
            children: Vec::new(),
        };
        match (heading.level, entries.last_mut()) {
            (2, _) => entries.push(entry),
            (3, Some(section)) => section.children.push(entry),
            _ => {}
        }
    }
    if entries.len() < MIN_CONTENTS_SECTIONS {
        entries.clear();
    }
    entries
}

/// Han, kana and the CJK punctuation and full-width forms: read one character at a time.
fn is_cjk(c: char) -> bool {
    matches!(c,
        '\u{3000}'..='\u{30FF}' | '\u{3400}'..='\u{4DBF}' | '\u{4E00}'..='\u{9FFF}'
        | '\u{F900}'..='\u{FAFF}' | '\u{FF00}'..='\u{FFEF}' | '\u{20000}'..='\u{2FA1F}')
}

/// Whole minutes to read `text` at `speed`, at least one: its words at the words' rate and its
/// Chinese and Japanese characters at the characters' rate.
pub fn reading_minutes(text: &str, speed: ReadingSpeed) -> usize {
    let characters = text.chars().filter(|c| is_cjk(*c) && c.is_alphanumeric()).count();
    let words = text
        .split(|c: char| c.is_whitespace() || is_cjk(c))
        .filter(|word| word.chars().any(char::is_alphanumeric))
        .count();
    let (per_word, per_character) = (speed.words_per_minute.max(1), speed.characters_per_minute.max(1));
    // words / per_word + characters / per_character, over a common denominator, rounded up.
    let numerator = words * per_character + characters * per_word;
    numerator.div_ceil(per_word * per_character).max(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn heading(level: u8, id: &str) -> Heading {
        Heading {
            level,
            id: id.into(),
            title: id.to_uppercase(),
        }
    }

    #[test]
    fn sections_hold_their_subsections_and_short_pages_get_no_list() {
        let headings = [
            heading(3, "orphan"),
            heading(2, "a"),
            heading(3, "a1"),
            heading(4, "deep"),
            heading(3, "a2"),
            heading(2, "b"),
            heading(2, "c"),
        ];
        let list = contents(&headings);
        let ids: Vec<&str> = list.iter().map(|e| e.id.as_str()).collect();
        assert_eq!(ids, ["a", "b", "c"]);
        let under_a: Vec<&str> = list[0].children.iter().map(|e| e.id.as_str()).collect();
        assert_eq!(under_a, ["a1", "a2"]);
        assert_eq!(list[0].title, "A");
        assert!(contents(&headings[..6]).is_empty(), "two sections are no list");
    }

    /// The speeds of site-config.yaml: the International Reading Speed Texts' adults.
    const EN: ReadingSpeed = ReadingSpeed {
        words_per_minute: 228,
        characters_per_minute: 255,
    };
    const ZH: ReadingSpeed = EN;
    const JA: ReadingSpeed = ReadingSpeed {
        words_per_minute: 228,
        characters_per_minute: 357,
    };

    #[test]
    fn english_is_counted_in_words_chinese_and_japanese_in_characters() {
        assert_eq!(reading_minutes("word ", EN), 1);
        assert_eq!(reading_minutes(&"word ".repeat(228), EN), 1);
        assert_eq!(reading_minutes(&"word ".repeat(229), EN), 2);
        assert_eq!(reading_minutes(&"word ".repeat(228 * 5), EN), 5);
        // 2,550 Chinese characters at 255 a minute; punctuation is not read as a character.
        assert_eq!(reading_minutes(&"投資。".repeat(1275), ZH), 10);
        // The same characters read faster in Japanese (357 a minute).
        assert_eq!(reading_minutes(&"投資".repeat(1785), JA), 10);
        // Latin words between the characters count as words: 228 words and 255 characters.
        assert_eq!(reading_minutes(&"DCF 折".repeat(228), ZH), 2);
    }
}
