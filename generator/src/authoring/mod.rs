//! The owner's commands that write `content/`: a new page in every language.

pub mod new_page;
