//! Tables of figures: written out by the generator rather than pulldown-cmark so that
//! - a table scrolls sideways inside its own box (`.table-scroll`) instead of widening the page;
//! - a column whose cells are all numbers gets `class="num"` (right-aligned, tabular figures);
//! - in a table with such a column, a row whose first cell is "Total" (合計, 總計) gets
//!   `class="total"`;
//! - a table of words (no column of figures, and rows that average more text than a phone's
//!   line holds, `STACK_WIDTH`) gets `table-stack`: on a phone each row becomes a card whose cells carry their
//!   column's heading as `data-label`, where scrolling sideways through walls of 3–6-line cells
//!   would read worse; tables of figures keep their columns and scroll;
//! - `:---:` alignment becomes a class: the `style` attribute pulldown-cmark writes is refused
//!   by the site's Content-Security-Policy (`style-src 'self'`).

use pulldown_cmark::{Alignment, CowStr, Event, Tag, TagEnd};

/// First words of a totals row, in the site's languages.
const TOTAL_WORDS: &[&str] = &["total", "合計", "總計", "总计", "合计"];

/// How wide, in columns (a CJK character counts two), a table's rows must be on average for the
/// table to stack on a phone: a line of a 375 px phone holds about 45 of them.
const STACK_WIDTH: usize = 50;

/// Units written around a number in a cell: `$1,070.00`, `+7.5%`, `110.25 美元`, `1,000.00ドル`.
const PREFIXES: &[&str] = &["US$", "NT$", "HK$", "$", "€", "£", "¥", "￥"];
const SUFFIXES: &[&str] = &["%", "ドル", "円", "美元", "元", "倍", "×", "x"];

struct Cell {
    start: usize,
    end: usize,
    row: usize,
    column: usize,
    head: bool,
    text: String,
    /// Only text inside (no math, image or link), so the text is all there is to judge.
    plain: bool,
}

/// Rewrites the table whose events run from `events[start]` (its `Start(Table)`) to the end.
pub(super) fn rewrite(events: &mut [Event<'_>], start: usize) {
    let alignments = match &events[start] {
        Event::Start(Tag::Table(alignments)) => alignments.clone(),
        _ => return,
    };
    let cells = cells(&events[start..], start);
    let columns = alignments
        .len()
        .max(cells.iter().map(|c| c.column + 1).max().unwrap_or(0));
    let numeric = numeric_columns(&cells, columns);
    // A totals row sums figures: only a table with a column of them has one.
    let total_rows: Vec<usize> = cells
        .iter()
        .filter(|c| !c.head && c.column == 0 && is_total(&c.text) && numeric.contains(&true))
        .map(|c| c.row)
        .collect();
    let stacks = is_text_table(&cells, &numeric);
    let labels = stacks.then(|| column_labels(&cells, columns));

    for cell in &cells {
        let (open, close) = cell_tags(cell, &numeric, &alignments, labels.as_deref());
        events[cell.start] = Event::Html(open.into());
        events[cell.end] = Event::Html(close.into());
    }
    rewrite_frame(&mut events[start..], stacks, &total_rows);
}

/// Whether each column holds figures only (and at least one) below its head.
fn numeric_columns(cells: &[Cell], columns: usize) -> Vec<bool> {
    (0..columns)
        .map(|column| {
            let mut body = cells.iter().filter(|c| !c.head && c.column == column);
            let mut any = false;
            body.all(|c| {
                let text = c.text.trim();
                any |= !text.is_empty();
                text.is_empty() || (c.plain && is_number(text))
            }) && any
        })
        .collect()
}

/// Each column's head text: the label a stacked row repeats before each cell.
fn column_labels(cells: &[Cell], columns: usize) -> Vec<String> {
    (0..columns)
        .map(|column| {
            cells
                .iter()
                .find(|c| c.head && c.column == column)
                .map(|c| c.text.trim().to_string())
                .unwrap_or_default()
        })
        .collect()
}

/// The opening and closing tag of `cell`: its alignment or figure class, and in a stacked
/// table its column's label.
fn cell_tags(
    cell: &Cell,
    numeric: &[bool],
    alignments: &[Alignment],
    labels: Option<&[String]>,
) -> (String, &'static str) {
    let class = if numeric[cell.column] {
        Some("num")
    } else {
        match alignments.get(cell.column) {
            Some(Alignment::Left) => Some("align-left"),
            Some(Alignment::Center) => Some("align-center"),
            Some(Alignment::Right) => Some("align-right"),
            _ => None,
        }
    };
    let class = class.map(|c| format!(" class=\"{c}\"")).unwrap_or_default();
    if cell.head {
        return (format!("<th scope=\"col\"{class}>"), "</th>");
    }
    let label = match labels.and_then(|l| l.get(cell.column)) {
        Some(label) if !label.is_empty() => {
            format!(" data-label=\"{}\"", html_escape::encode_double_quoted_attribute(label))
        }
        _ => String::new(),
    };
    (format!("<td{class}{label}>"), "</td>")
}

/// The table's own tags: its scroll box (stacked or not), head, body and rows (totals marked).
fn rewrite_frame(events: &mut [Event<'_>], stacks: bool, total_rows: &[usize]) {
    let mut row = 0;
    for event in events.iter_mut() {
        let html: CowStr = match event {
            Event::Start(Tag::Table(_)) if stacks => "<div class=\"table-scroll table-stack\"><table>".into(),
            Event::Start(Tag::Table(_)) => "<div class=\"table-scroll\"><table>".into(),
            Event::End(TagEnd::Table) => "</tbody></table></div>\n".into(),
            Event::Start(Tag::TableHead) => "<thead><tr>".into(),
            Event::End(TagEnd::TableHead) => "</tr></thead><tbody>\n".into(),
            Event::Start(Tag::TableRow) => {
                row += 1;
                if total_rows.contains(&row) {
                    "<tr class=\"total\">".into()
                } else {
                    "<tr>".into()
                }
            }
            Event::End(TagEnd::TableRow) => "</tr>\n".into(),
            _ => continue,
        };
        *event = Event::Html(html);
    }
}

/// A table of words: no column of figures, and rows with more text on average than a phone's
/// line, which its columns would wrap into tall narrow walls.
fn is_text_table(cells: &[Cell], numeric: &[bool]) -> bool {
    let body: Vec<&Cell> = cells.iter().filter(|c| !c.head).collect();
    let rows = body
        .iter()
        .map(|c| c.row)
        .collect::<std::collections::BTreeSet<_>>()
        .len();
    if rows == 0 || numeric.contains(&true) {
        return false;
    }
    let width: usize = body.iter().map(|c| display_width(c.text.trim())).sum();
    width >= STACK_WIDTH * rows
}

/// Columns a text takes in a monospaced view: East Asian wide characters count two.
fn display_width(text: &str) -> usize {
    text.chars()
        .map(|c| match c as u32 {
            0x1100..=0x115F
            | 0x2E80..=0xA4CF
            | 0xAC00..=0xD7A3
            | 0xF900..=0xFAFF
            | 0xFE30..=0xFE4F
            | 0xFF00..=0xFF60 => 2,
            _ => 1,
        })
        .sum()
}

/// The cells of a table's events (`offset`: where those events sit in the page's events).
fn cells(events: &[Event<'_>], offset: usize) -> Vec<Cell> {
    let mut cells = Vec::new();
    let (mut row, mut column, mut head) = (0, 0, false);
    let mut open: Option<Cell> = None;
    for (i, event) in events.iter().enumerate() {
        match event {
            Event::Start(Tag::TableHead) => {
                head = true;
                column = 0;
            }
            Event::End(TagEnd::TableHead) => head = false,
            Event::Start(Tag::TableRow) => {
                row += 1;
                column = 0;
            }
            Event::Start(Tag::TableCell) => {
                open = Some(Cell {
                    start: offset + i,
                    end: 0,
                    row,
                    column,
                    head,
                    text: String::new(),
                    plain: true,
                });
            }
            Event::End(TagEnd::TableCell) => {
                if let Some(mut cell) = open.take() {
                    cell.end = offset + i;
                    cells.push(cell);
                }
                column += 1;
            }
            Event::Text(text) | Event::Code(text) => {
                if let Some(cell) = open.as_mut() {
                    cell.text.push_str(text);
                }
            }
            Event::Start(Tag::Strong | Tag::Emphasis)
            | Event::End(TagEnd::Strong | TagEnd::Emphasis)
            | Event::SoftBreak => {}
            // A phrase boundary is no markup of the cell's own.
            Event::InlineHtml(html) if html.as_ref() == super::phrases::BREAK => {}
            _ => {
                if let Some(cell) = open.as_mut() {
                    cell.plain = false;
                }
            }
        }
    }
    cells
}

/// The label of a totals row: the word alone, perhaps with a colon (合計すると, "when added up",
/// is not one).
fn is_total(text: &str) -> bool {
    let label = text.trim().trim_end_matches([':', '：']).trim_end();
    TOTAL_WORDS.iter().any(|word| label.eq_ignore_ascii_case(word))
}

/// A figure as tables write them: an optional sign and unit around digits with optional
/// thousands commas and decimals.
fn is_number(text: &str) -> bool {
    let signs: &[char] = &['+', '-', '−', '±'];
    let mut s = text.trim().trim_start_matches(signs);
    if let Some(rest) = PREFIXES.iter().find_map(|p| s.strip_prefix(p)) {
        s = rest.trim_start_matches(signs);
    }
    if let Some(rest) = SUFFIXES.iter().find_map(|u| s.strip_suffix(u)) {
        s = rest.trim_end();
    }
    let (whole, fraction) = s.split_once('.').unwrap_or((s, ""));
    if whole.is_empty() || !fraction.bytes().all(|b| b.is_ascii_digit()) || s.ends_with('.') {
        return false;
    }
    let mut groups = whole.split(',');
    let first = groups.next().unwrap_or("");
    let grouped = whole.contains(',');
    !first.is_empty()
        && first.bytes().all(|b| b.is_ascii_digit())
        && (!grouped || first.len() <= 3)
        && groups.all(|g| g.len() == 3 && g.bytes().all(|b| b.is_ascii_digit()))
}

#[cfg(test)]
mod tests {
    use super::{is_number, is_total};

    #[test]
    fn totals_rows_are_labelled_by_the_word_alone() {
        for yes in ["Total", "total:", " 合計 ", "總計：", "总计"] {
            assert!(is_total(yes), "{yes}");
        }
        for no in ["合計すると", "Total return", "Subtotals", ""] {
            assert!(!is_total(no), "{no}");
        }
    }

    #[test]
    fn figures_as_tables_write_them() {
        for yes in [
            "1",
            "447.70",
            "1,785.00",
            "$1,070.00",
            "+7.5%",
            "−15%",
            "110.25 美元",
            "1,000.00ドル",
            "1.61051",
        ] {
            assert!(is_number(yes), "{yes}");
        }
        for no in [
            "",
            "Total",
            "1.",
            ".5",
            "1,78",
            "12,3456",
            "Year 1",
            "1.2.3",
            "$",
            "High (listed shares)",
        ] {
            assert!(!is_number(no), "{no}");
        }
    }
}
