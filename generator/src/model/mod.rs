//! The site as its sources describe it: the config, the UI text, every page in every language
//! rendered from its Markdown, and the checks across them.

pub mod aliases;
pub mod cards;
pub mod config;
pub mod content;
pub mod date;
pub mod kept;
pub mod layout;
pub mod links;
pub mod locales;
pub mod markdown;
pub mod pages;
pub mod photos;
pub mod publishing;
pub mod site;
pub mod site_values;
pub mod tags;
pub mod translations;
