//! React islands: templates place them with `island(...)`; once every page is rendered, each
//! island on each page gets its id (unique on the page), the build renders every distinct island
//! with the UI's server bundle (`renderer`), then puts the HTML into the pages.

mod calls;
mod html;
mod renderer;
#[cfg(test)]
mod tests;
mod text;

pub use calls::{place, IslandCalls, IslandFn, IslandItem, Placement, SCRIPTS_MARKER};
pub use html::{render_all_keeping, render_more};
pub use text::{IslandText, IslandTextFn};
