//! The membership API and the server of the prerendered site.

pub mod static_site;
pub mod startup;
