//! What the checks find wrong, as data: each problem names its file and line where it has them,
//! and becomes `file:line: message` text only where a person reads it (the terminal); the dev
//! overlay gets the same values as JSON (`dev`).

use std::fmt;
use std::path::Path;

/// One problem of the site's sources.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    /// The file, as the build names it (below the site's root).
    pub file: Option<String>,
    /// 1-based line of `file`.
    pub line: Option<usize>,
    /// 1-based column of `line`, where the reader of the file says it.
    pub column: Option<usize>,
    pub message: String,
}

impl Diagnostic {
    /// A problem at a line of a file.
    pub fn at(file: &Path, line: usize, message: impl Into<String>) -> Self {
        Diagnostic {
            line: Some(line),
            ..Diagnostic::in_file(file, message)
        }
    }

    /// A problem at a line and column of a file (a parser's error).
    pub fn at_column(file: &Path, line: usize, column: usize, message: impl Into<String>) -> Self {
        Diagnostic {
            column: Some(column),
            ..Diagnostic::at(file, line, message)
        }
    }

    /// A problem of a whole file.
    pub fn in_file(file: &Path, message: impl Into<String>) -> Self {
        Diagnostic {
            file: Some(file.display().to_string()),
            line: None,
            column: None,
            message: message.into(),
        }
    }

    /// A problem no file holds.
    pub fn general(message: impl Into<String>) -> Self {
        Diagnostic {
            file: None,
            line: None,
            column: None,
            message: message.into(),
        }
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        if let Some(file) = &self.file {
            write!(f, "{file}:")?;
            for number in [self.line, self.column].into_iter().flatten() {
                write!(f, "{number}:")?;
            }
            f.write_str(" ")?;
        }
        f.write_str(&self.message)
    }
}

impl std::error::Error for Diagnostic {}

/// Every problem one check found, sorted by their text, under a heading that says what was checked.
#[derive(Debug)]
pub struct Diagnostics {
    pub heading: Option<String>,
    pub list: Vec<Diagnostic>,
}

impl fmt::Display for Diagnostics {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        let mut lines: Vec<String> = self.heading.iter().cloned().collect();
        lines.extend(self.list.iter().map(Diagnostic::to_string));
        f.write_str(&lines.join("\n"))
    }
}

impl std::error::Error for Diagnostics {}

/// Fails with every problem, sorted and each once, or passes when there are none.
pub fn fail_on(problems: impl IntoIterator<Item = Diagnostic>) -> anyhow::Result<()> {
    fail_under(None, problems)
}

/// `fail_on`, the problems under `heading`.
pub fn fail_under(heading: Option<&str>, problems: impl IntoIterator<Item = Diagnostic>) -> anyhow::Result<()> {
    let mut list: Vec<(String, Diagnostic)> = problems.into_iter().map(|d| (d.to_string(), d)).collect();
    if list.is_empty() {
        return Ok(());
    }
    list.sort_by(|a, b| a.0.cmp(&b.0));
    list.dedup_by(|a, b| a.0 == b.0);
    Err(Diagnostics {
        heading: heading.map(String::from),
        list: list.into_iter().map(|(_, d)| d).collect(),
    }
    .into())
}

/// The problems an error holds: those the checks made, with file and line; any other cause a
/// problem without file, each line of its text one, and the causes after the first as
/// `Reason: ...` (as `describe_error` prints them).
pub fn of_error(error: &anyhow::Error) -> Vec<Diagnostic> {
    let mut found = Vec::new();
    for (n, cause) in error.chain().enumerate() {
        if let Some(many) = cause.downcast_ref::<Diagnostics>() {
            found.extend(many.heading.iter().map(Diagnostic::general));
            found.extend(many.list.iter().cloned());
        } else if let Some(one) = cause.downcast_ref::<Diagnostic>() {
            found.push(one.clone());
        } else {
            let text = cause.to_string();
            let lines = text.lines().filter(|line| !line.trim().is_empty());
            found.extend(lines.enumerate().map(|(at, line)| match (n, at) {
                (1.., 0) => Diagnostic::general(format!("Reason: {line}")),
                _ => Diagnostic::general(line),
            }));
        }
    }
    found
}

/// An error and its causes, one `Reason:` line each, for the owner's terminal.
pub fn describe_error(error: &anyhow::Error) -> String {
    let mut text = error.to_string();
    for cause in error.chain().skip(1) {
        text.push_str(&format!("\nReason: {cause}"));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn problems_read_as_file_line_and_message_and_keep_their_parts_through_context() {
        let error = fail_under(
            Some("broken internal links:"),
            [
                Diagnostic::at(Path::new("content/b.en.md"), 3, "link to /x"),
                Diagnostic::at_column(Path::new("content/a.en.md"), 24, 7, "not a date"),
                Diagnostic::in_file(Path::new("site-config.yaml"), "frames: `/x` is not the route of a page"),
            ],
        )
        .unwrap_err()
        .context("the build failed");
        assert_eq!(
            describe_error(&error),
            "the build failed\nReason: broken internal links:\ncontent/a.en.md:24:7: not a date\n\
             content/b.en.md:3: link to /x\nsite-config.yaml: frames: `/x` is not the route of a page"
        );
        let found = of_error(&error);
        let parts: Vec<(Option<&str>, Option<usize>, &str)> = (found.iter())
            .map(|d| (d.file.as_deref(), d.line, d.message.as_str()))
            .collect();
        assert_eq!(
            parts,
            [
                (None, None, "the build failed"),
                (None, None, "broken internal links:"),
                (Some("content/a.en.md"), Some(24), "not a date"),
                (Some("content/b.en.md"), Some(3), "link to /x"),
                (
                    Some("site-config.yaml"),
                    None,
                    "frames: `/x` is not the route of a page"
                ),
            ]
        );
    }
}
