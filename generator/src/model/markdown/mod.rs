//! Markdown to HTML: CommonMark with tables, footnotes, strikethrough, heading ids, math as
//! MathML and highlighted code; also the page's plain text (for search) and its internal links.

use crate::model::photos::{picture_html, Photo, Photos, Place};
use pulldown_cmark::{html, CodeBlockKind, CowStr, Event, HeadingLevel, Options, Parser, Tag, TagEnd};
use serde::{Deserialize, Serialize};
use std::collections::HashSet;
use std::fmt;
use std::sync::Arc;
use std::sync::OnceLock;
use syntect::html::{ClassStyle, ClassedHTMLGenerator};
use syntect::parsing::SyntaxSet;
use syntect::util::LinesWithEndings;

mod cache;
mod math;
pub mod phrases;
mod tables;

pub use cache::RenderCache;

pub const CODE_CLASS_STYLE: ClassStyle = ClassStyle::SpacedPrefixed { prefix: "hl-" };

#[derive(Default)]
pub struct RenderOptions<'a> {
    pub lang: &'a str,
    pub default_language: &'a str,
    /// Single line breaks become `<br>`: the web projects' light markup.
    pub line_breaks: bool,
    /// Where raster images (`/images/x.jpg`) become resized photos; None leaves them as written.
    pub photos: Option<&'a Photos>,
    /// A photo above the text (a cover) is the page's largest paint: every photo of the text
    /// then loads lazily, else the first is fetched at once.
    pub photo_above: bool,
    /// Marks the phrase boundaries of text written without spaces (`phrases`).
    pub phrases: Option<&'static budoux::Model>,
}

#[derive(Debug, Default, Serialize, Deserialize)]
pub struct Rendered {
    pub html: String,
    /// The text a reader sees, for the search index and the description of lists.
    pub text: String,
    /// Internal links as written (`/valuation-models/dcf#formula`) with their 1-based body line.
    pub links: Vec<(String, usize)>,
    /// Every heading in order: the contents list of long pages and the link check read them.
    pub headings: Vec<Heading>,
    pub has_code: bool,
    /// The photos the page shows (`/images/beach.jpg`), as written, in order.
    pub photos: Vec<String>,
    /// The text shows an image of the site's own files (a path from `/`): its HTML follows
    /// those files (a photo or not, its sizes), not only the text.
    pub shows_site_images: bool,
}

/// A heading as the contents list names it: its level (2 for `##`), id and plain text.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Heading {
    pub level: u8,
    pub id: String,
    pub title: String,
}

/// A problem in a page body, at a 1-based line of the body (the caller knows where the body starts).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MarkdownError {
    pub line: usize,
    pub message: String,
}

impl fmt::Display for MarkdownError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for MarkdownError {}

fn syntax_set() -> &'static SyntaxSet {
    static SET: OnceLock<SyntaxSet> = OnceLock::new();
    SET.get_or_init(SyntaxSet::load_defaults_newlines)
}

fn line_of(source: &str, offset: usize) -> usize {
    source[..offset].bytes().filter(|b| *b == b'\n').count() + 1
}

/// Heading ids for headings without `{#id}`: lowercase words joined by hyphens; CJK kept as is.
pub fn slugify(text: &str) -> String {
    let mut slug = String::new();
    for c in text.chars() {
        if c.is_alphanumeric() {
            slug.extend(c.to_lowercase());
        } else if !slug.is_empty() && !slug.ends_with('-') {
            slug.push('-');
        }
    }
    slug.trim_end_matches('-').to_string()
}

fn highlight(code: &str, lang: &str) -> String {
    let set = syntax_set();
    let syntax = set
        .find_syntax_by_token(lang)
        .unwrap_or_else(|| set.find_syntax_plain_text());
    let mut generator = ClassedHTMLGenerator::new_with_class_style(syntax, set, CODE_CLASS_STYLE);
    for line in LinesWithEndings::from(code) {
        // A line that fails to highlight is still shown, unhighlighted, by the fallback below.
        if generator.parse_html_for_line_which_includes_newline(line).is_err() {
            return format!(
                "<pre class=\"code hl-code\"><code>{}</code></pre>",
                html_escape::encode_text(code)
            );
        }
    }
    format!(
        "<pre class=\"code hl-code\" data-lang=\"{}\"><code>{}</code></pre>",
        html_escape::encode_double_quoted_attribute(lang),
        generator.finalize()
    )
}

/// The CSS for highlighted code from a syntect theme: light, or dark with every rule scoped to
/// `html.dark-mode` (the class the UI sets before first paint) so both can load together.
pub fn syntax_stylesheet(dark: bool) -> Result<String, syntect::Error> {
    let themes = syntect::highlighting::ThemeSet::load_defaults();
    let theme = &themes.themes[if dark { "base16-ocean.dark" } else { "InspiredGitHub" }];
    let css = syntect::html::css_for_theme_with_class_style(theme, CODE_CLASS_STYLE)?;
    if !dark {
        return Ok(css);
    }
    Ok(css
        .lines()
        .map(|line| match line.strip_suffix('{') {
            Some(selectors) if !line.trim_start().starts_with(['@', '/', '*']) => {
                let scoped: Vec<String> = selectors
                    .split(',')
                    .map(|s| format!("html.dark-mode {}", s.trim()))
                    .collect();
                format!("{} {{", scoped.join(", "))
            }
            _ => line.to_string(),
        })
        .collect::<Vec<_>>()
        .join("\n"))
}

/// Points an internal link at the page's language: `/notes` becomes `/zh/notes` on a Chinese page.
pub fn localize_link(url: &str, lang: &str, default_language: &str) -> Option<String> {
    if !url.starts_with('/') || url.starts_with("//") || site_contract::is_file_path(url) {
        return None;
    }
    let (path, rest) = match url.find(['#', '?']) {
        Some(i) => (&url[..i], &url[i..]),
        None => (url, ""),
    };
    Some(format!(
        "{}{rest}",
        crate::model::config::localized_path(path, lang, default_language)
    ))
}

/// A heading being read: where its start event is, and its level, id, classes and attributes.
type OpenHeading<'a> = (
    usize,
    HeadingLevel,
    Option<CowStr<'a>>,
    Vec<CowStr<'a>>,
    Vec<(CowStr<'a>, Option<CowStr<'a>>)>,
);

/// A photo being read: what it is, and its alt text so far.
type OpenPhoto = (Arc<Photo>, String);

// The event loop: one match over pulldown-cmark's events, each arm short, which reads best whole
// (docs/internals.md, "Crates"); the one function of the generator allowed over 80 lines.
#[allow(clippy::too_many_lines)]
pub fn render(source: &str, options: &RenderOptions) -> Result<Rendered, MarkdownError> {
    let parser_options = Options::ENABLE_TABLES
        | Options::ENABLE_FOOTNOTES
        | Options::ENABLE_STRIKETHROUGH
        | Options::ENABLE_HEADING_ATTRIBUTES
        | Options::ENABLE_MATH;
    let mut out = Rendered::default();
    let mut events: Vec<Event> = Vec::new();
    let mut code: Option<(String, String)> = None;
    let mut heading: Option<OpenHeading> = None;
    let mut seen_ids: HashSet<String> = HashSet::new();
    let mut table_start = 0;
    // Inside a link (an image there is not made a link of its own), and inside a diagram's.
    let (mut in_link, mut in_diagram) = (0, false);
    let mut photo: Option<OpenPhoto> = None;
    // Inside an image: its text is the alt text, where no markup may go.
    let mut in_image = 0;

    for (event, range) in Parser::new_ext(source, parser_options).into_offset_iter() {
        match event {
            Event::Start(Tag::Image { .. }) => in_image += 1,
            Event::End(TagEnd::Image) => in_image -= 1,
            _ => {}
        }
        if let Some((_, alt)) = photo.as_mut() {
            match event {
                Event::Text(text) | Event::Code(text) => {
                    alt.push_str(&text);
                    out.text.push_str(&text);
                }
                Event::End(TagEnd::Image) => {
                    let (shown, alt) = photo.take().expect("inside an image");
                    let place = match out.photos.len() == 1 && !options.photo_above {
                        true => Place::FirstInText,
                        false => Place::InText,
                    };
                    events.push(Event::InlineHtml(picture_html(&shown, &alt, place).into()));
                }
                _ => {}
            }
            continue;
        }
        if let Some((_, buffer)) = code.as_mut() {
            match event {
                Event::Text(text) => buffer.push_str(&text),
                Event::End(TagEnd::CodeBlock) => {
                    let (lang, buffer) = code.take().expect("inside a code block");
                    out.text.push_str(&buffer);
                    out.text.push('\n');
                    events.push(Event::Html(highlight(&buffer, &lang).into()));
                }
                _ => {}
            }
            continue;
        }
        match event {
            Event::Start(Tag::CodeBlock(kind)) => {
                out.has_code = true;
                let lang = match kind {
                    CodeBlockKind::Fenced(info) => info.split_whitespace().next().unwrap_or("").to_string(),
                    CodeBlockKind::Indented => String::new(),
                };
                code = Some((lang, String::new()));
            }
            Event::InlineMath(ref latex) | Event::DisplayMath(ref latex) => {
                let display = matches!(event, Event::DisplayMath(_));
                let mathml = math::to_mathml(latex, display).map_err(|e| MarkdownError {
                    line: line_of(source, range.start),
                    message: format!("invalid math `{latex}`: {e}"),
                })?;
                out.text.push_str(latex);
                out.text.push(' ');
                // A wide formula scrolls inside its own box rather than widening the page.
                let html = if display {
                    format!("<span class=\"math-scroll\">{mathml}</span>")
                } else {
                    mathml
                };
                events.push(Event::InlineHtml(html.into()));
            }
            Event::Start(Tag::Heading {
                level,
                id,
                classes,
                attrs,
            }) => {
                heading = Some((events.len(), level, id, classes, attrs));
                events.push(Event::Text("".into()));
            }
            Event::End(TagEnd::Heading(_)) => {
                let (at, level, id, classes, attrs) = heading.take().expect("heading started");
                let title: String = events[at..]
                    .iter()
                    .filter_map(|e| match e {
                        Event::Text(t) | Event::Code(t) => Some(t.as_ref()),
                        _ => None,
                    })
                    .collect();
                let id = id.map(|i| i.to_string()).unwrap_or_else(|| slugify(&title));
                if !seen_ids.insert(id.clone()) {
                    return Err(MarkdownError {
                        line: line_of(source, range.start),
                        message: format!("heading id `{id}` is used twice on this page"),
                    });
                }
                out.headings.push(Heading {
                    level: level as u8,
                    id: id.clone(),
                    title: title.trim().to_string(),
                });
                events[at] = Event::Start(Tag::Heading {
                    level,
                    id: Some(id.into()),
                    classes,
                    attrs,
                });
                events.push(Event::End(TagEnd::Heading(level)));
                out.text.push('\n');
            }
            Event::Start(Tag::Link {
                link_type,
                dest_url,
                title,
                id,
            }) => {
                let dest_url = if dest_url.starts_with('/') && !dest_url.starts_with("//") {
                    out.links.push((dest_url.to_string(), line_of(source, range.start)));
                    localize_link(&dest_url, options.lang, options.default_language)
                        .map(CowStr::from)
                        .unwrap_or(dest_url)
                } else {
                    dest_url
                };
                in_link += 1;
                events.push(Event::Start(Tag::Link {
                    link_type,
                    dest_url,
                    title,
                    id,
                }));
            }
            Event::End(TagEnd::Link) => {
                in_link -= 1;
                events.push(event);
            }
            Event::Start(Tag::Image { ref dest_url, .. }) if dest_url.starts_with('/') => {
                let line = line_of(source, range.start);
                out.links.push((dest_url.to_string(), line));
                out.shows_site_images = true;
                let shown = options.photos.map(|p| p.get(dest_url)).transpose();
                if let Some(shown) = shown.map_err(|message| MarkdownError { line, message })?.flatten() {
                    out.photos.push(dest_url.to_string());
                    photo = Some((shown, String::new()));
                    continue;
                }
                // A diagram (SVG) is drawn for a wide column: on a phone its labels shrink below
                // reading size, so a tap opens it alone, where it can be zoomed.
                if in_link == 0 && dest_url.ends_with(".svg") {
                    in_diagram = true;
                    let href = html_escape::encode_double_quoted_attribute(dest_url.as_ref()).into_owned();
                    events.push(Event::InlineHtml(
                        format!("<a class=\"diagram\" href=\"{href}\">").into(),
                    ));
                }
                events.push(event);
            }
            Event::End(TagEnd::Image) if in_diagram => {
                in_diagram = false;
                events.push(event);
                events.push(Event::InlineHtml("</a>".into()));
            }
            Event::SoftBreak if options.line_breaks => events.push(Event::HardBreak),
            Event::Text(ref t) => {
                out.text.push_str(t);
                let tied = match events.last_mut() {
                    Some(Event::InlineHtml(math)) if math.starts_with("<math display=\"inline\"") => {
                        math::tie_punctuation(math, t)
                    }
                    _ => None,
                };
                let shown: CowStr = match tied {
                    Some("") => continue,
                    Some(rest) => rest.to_string().into(),
                    None => t.clone(),
                };
                match options.phrases {
                    Some(model) if in_image == 0 => events.extend(phrases::phrased(&shown, model)),
                    _ => events.push(Event::Text(shown)),
                }
            }
            Event::Code(ref t) => {
                out.text.push_str(t);
                events.push(event);
            }
            Event::SoftBreak | Event::HardBreak => {
                out.text.push(' ');
                events.push(event);
            }
            Event::Start(Tag::Table(_)) => {
                table_start = events.len();
                events.push(event);
            }
            Event::End(TagEnd::Table) => {
                events.push(event);
                tables::rewrite(&mut events, table_start);
            }
            Event::End(TagEnd::Paragraph | TagEnd::Item | TagEnd::TableCell) => {
                out.text.push('\n');
                events.push(event);
            }
            _ => events.push(event),
        }
    }
    html::push_html(&mut out.html, events.into_iter());
    Ok(out)
}

#[cfg(test)]
mod tests;
