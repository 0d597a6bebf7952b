//! The site generator: `site-config.yaml`, `content/` and `locales/` in, `dist/` out.

pub mod assets;
pub mod config;
pub mod content;
pub mod date;
pub mod feed;
pub mod incremental;
pub mod islands;
pub mod layout;
pub mod links;
pub mod locales;
pub mod markdown;
pub mod new_page;
pub mod output;
pub mod page_styles;
pub mod pages;
pub mod reading;
pub mod search_chunks;
pub mod search_index;
pub mod site;
pub mod site_values;
pub mod sitemap;
pub mod structured_data;
pub mod tags;
pub mod templates;
pub mod translations;
pub mod views;
pub mod watch;

/// An error and its causes, one `Reason:` line each, for the owner's terminal.
pub fn describe_error(error: &anyhow::Error) -> String {
    let mut text = error.to_string();
    for cause in error.chain().skip(1) {
        text.push_str(&format!("\nReason: {cause}"));
    }
    text
}
