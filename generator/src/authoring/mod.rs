//! The owner's commands that write `content/`: a new page in every language, and a translation
//! recorded as up to date.

pub mod new_page;
pub mod translated;
