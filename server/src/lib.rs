//! The `api` binary: its command line (`cli`, with `backup` and `restore`), its log, and
//! `startup`, which composes the membership API (the `api` crate) with the static site (the
//! `site-server` crate) behind one listener.

pub mod backup;
pub mod cli;
pub mod logging;
pub mod startup;
