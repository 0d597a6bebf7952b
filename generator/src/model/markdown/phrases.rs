//! Phrase boundaries in text written without spaces between words (Japanese): a `<wbr>` between
//! two phrases of BudouX's model, so a browser without `word-break: auto-phrase` breaks lines
//! there (the stylesheet gives it `word-break: keep-all`) and never inside a word (1|ドル,
//! 企業フ|リー). Browsers with `auto-phrase` find the same boundaries themselves.

use pulldown_cmark::Event;

/// The phrase model of a language (`phrase_breaks:` in site-config.yaml's `languages`).
pub use site_contract::config::PhraseModel;

/// BudouX's model for `phrases`.
pub fn model(phrases: PhraseModel) -> &'static budoux::Model {
    match phrases {
        PhraseModel::Japanese => budoux::models::default_japanese_model(),
    }
}

/// The markup between two phrases.
pub const BREAK: &str = "<wbr>";

/// `text` as events: its phrases, with a `<wbr>` where two meet, but not after an ASCII character
/// or at a space: Latin letters and digits keep what follows them (`DCF`, `1,070.00ドル`).
pub fn phrased(text: &str, model: &budoux::Model) -> Vec<Event<'static>> {
    let mut events = Vec::new();
    let mut current = String::new();
    for phrase in budoux::parse(model, text) {
        let meets = match (current.chars().last(), phrase.chars().next()) {
            (Some(a), Some(b)) => !a.is_ascii() && !a.is_whitespace() && !b.is_whitespace(),
            _ => false,
        };
        if meets {
            events.push(Event::Text(std::mem::take(&mut current).into()));
            events.push(Event::InlineHtml(BREAK.into()));
        }
        current.push_str(&phrase);
    }
    if !current.is_empty() {
        events.push(Event::Text(current.into()));
    }
    events
}

#[cfg(test)]
mod tests {
    use super::*;

    fn marked(text: &str) -> String {
        (phrased(text, model(PhraseModel::Japanese)).iter())
            .map(|event| match event {
                Event::Text(t) => t.to_string(),
                Event::InlineHtml(h) => h.to_string(),
                _ => unreachable!(),
            })
            .collect()
    }

    #[test]
    fn words_stay_whole_and_phrases_get_a_break_between_them() {
        let text = "企業フリーキャッシュフローは1,070.00ドルで、会社が事業に必要な投資をした後に残る現金です。";
        let out = marked(text);
        assert_eq!(out.replace(BREAK, ""), text, "only breaks are added");
        assert!(out.matches(BREAK).count() >= 3, "{out}");
        for word in ["フリー", "キャッシュ", "1,070.00ドル"] {
            assert!(out.contains(word), "{word} is cut: {out}");
        }
        assert_eq!(marked("DCF and WACC"), "DCF and WACC");
    }
}
