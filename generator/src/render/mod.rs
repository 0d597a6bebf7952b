//! From the site model to each page's HTML: the templates, what they see of a page, and the
//! islands the UI's server bundle renders into them.

pub mod islands;
pub mod reading;
pub mod structured_data;
pub mod templates;
pub mod views;
