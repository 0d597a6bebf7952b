//! The `date:` and `updated:` of pages: a day (`2025-10-01`) or a month (`2025-09`). Lists sort
//! by `date`, newest first, and pages and lists show it in one format per language
//! ([`PageDate::format`]); feeds and structured data need it as an RFC 3339 instant.

use crate::model::locales::Locales;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// A day or a month; a month sorts before the days of that month.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct PageDate {
    year: u16,
    month: u8,
    day: Option<u8>,
}

fn days_in_month(year: u16, month: u8) -> u8 {
    match month {
        2 if year.is_multiple_of(4) && (!year.is_multiple_of(100) || year.is_multiple_of(400)) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Exactly `digits` ASCII digits.
fn number<T: FromStr>(text: &str, digits: usize) -> Option<T> {
    (text.len() == digits && text.bytes().all(|b| b.is_ascii_digit()))
        .then(|| text.parse().ok())
        .flatten()
}

impl PageDate {
    /// Midnight UTC of the day, or of a month's first day: feeds need a full instant.
    pub fn rfc3339(&self) -> String {
        format!(
            "{:04}-{:02}-{:02}T00:00:00Z",
            self.year,
            self.month,
            self.day.unwrap_or(1)
        )
    }
}

impl PageDate {
    /// The date as a reader of `lang` sees it, in the one format of that language: the locale's
    /// `date.day` or `date.month` pattern ("1 October 2025", 「2025年10月1日」) with `{{year}}`,
    /// `{{monthName}}` (`date.months.N`) and `{{day}}`. The UI's blog list reads the same keys.
    pub fn format(&self, locales: &Locales, lang: &str) -> String {
        let year = self.year.to_string();
        let month_name = locales.format(lang, &format!("date.months.{}", self.month), &[]);
        match self.day {
            Some(day) => locales.format(
                lang,
                "date.day",
                &[("year", &year), ("monthName", &month_name), ("day", &day.to_string())],
            ),
            None => locales.format(lang, "date.month", &[("year", &year), ("monthName", &month_name)]),
        }
    }
}

impl FromStr for PageDate {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        let invalid = || format!("`{text}` is not YYYY-MM-DD or YYYY-MM");
        let mut parts = text.split('-');
        let year: u16 = parts.next().and_then(|y| number(y, 4)).ok_or_else(invalid)?;
        let month: u8 = parts.next().and_then(|m| number(m, 2)).ok_or_else(invalid)?;
        let day: Option<u8> = match parts.next() {
            None => None,
            Some(d) => Some(number(d, 2).ok_or_else(invalid)?),
        };
        if parts.next().is_some() || !(1..=12).contains(&month) {
            return Err(invalid());
        }
        if day.is_some_and(|d| d == 0 || d > days_in_month(year, month)) {
            return Err(format!("`{text}` is not a day of the calendar"));
        }
        Ok(PageDate { year, month, day })
    }
}

impl fmt::Display for PageDate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:04}-{:02}", self.year, self.month)?;
        match self.day {
            Some(day) => write!(f, "-{day:02}"),
            None => Ok(()),
        }
    }
}

/// Templates print the date as written: `2025-10-01` or `2025-09`.
impl Serialize for PageDate {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

/// Parses inside the visitor, so the YAML reader can name the value's line on an error.
struct DateVisitor;

impl serde::de::Visitor<'_> for DateVisitor {
    type Value = PageDate;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a date, YYYY-MM-DD or YYYY-MM")
    }

    fn visit_str<E: serde::de::Error>(self, text: &str) -> Result<PageDate, E> {
        text.parse().map_err(E::custom)
    }

    // YAML reads `2025-10` as text but `2025` as a number: say what was written either way.
    fn visit_u64<E: serde::de::Error>(self, n: u64) -> Result<PageDate, E> {
        self.visit_str(&n.to_string())
    }

    fn visit_i64<E: serde::de::Error>(self, n: i64) -> Result<PageDate, E> {
        self.visit_str(&n.to_string())
    }

    fn visit_f64<E: serde::de::Error>(self, n: f64) -> Result<PageDate, E> {
        self.visit_str(&n.to_string())
    }
}

impl<'de> Deserialize<'de> for PageDate {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(DateVisitor)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn days_and_months_parse_print_as_written_and_sort_newest_last() {
        let day: PageDate = "2025-10-01".parse().unwrap();
        let month: PageDate = "2025-09".parse().unwrap();
        assert_eq!(day.to_string(), "2025-10-01");
        assert_eq!(month.to_string(), "2025-09");
        assert_eq!(serde_json::to_string(&month).unwrap(), "\"2025-09\"");
        let mut dates: Vec<PageDate> = ["2025-10-01", "2024-01", "2025-09-30", "2025-09", "2024-02-29"]
            .iter()
            .map(|d| d.parse().unwrap())
            .collect();
        dates.sort();
        let sorted: Vec<String> = dates.iter().map(PageDate::to_string).collect();
        assert_eq!(sorted, ["2024-01", "2024-02-29", "2025-09", "2025-09-30", "2025-10-01"]);
    }

    #[test]
    fn instants_are_midnight_utc_of_the_day_or_the_months_first_day() {
        let day: PageDate = "2025-10-01".parse().unwrap();
        let month: PageDate = "2025-09".parse().unwrap();
        assert_eq!(day.rfc3339(), "2025-10-01T00:00:00Z");
        assert_eq!(month.rfc3339(), "2025-09-01T00:00:00Z");
    }

    #[test]
    fn anything_else_is_rejected_with_what_was_written() {
        for bad in [
            "next tuesday",
            "2025",
            "2025-9",
            "2025-13",
            "2025-10-1",
            "2025-10-01-02",
            "25-10-01",
            "",
        ] {
            let err = bad.parse::<PageDate>().unwrap_err();
            assert_eq!(err, format!("`{bad}` is not YYYY-MM-DD or YYYY-MM"));
        }
        assert_eq!(
            "2025-02-29".parse::<PageDate>().unwrap_err(),
            "`2025-02-29` is not a day of the calendar"
        );
        assert_eq!(
            "2025-04-31".parse::<PageDate>().unwrap_err(),
            "`2025-04-31` is not a day of the calendar"
        );
    }
}
