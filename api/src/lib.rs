//! The membership API and the server of the prerendered site.

pub mod cli;
pub mod client_ip;
pub mod clock;
pub mod codes;
pub mod db;
pub mod domain;
pub mod i18n;
pub mod invites;
pub mod logging;
pub mod mail;
pub mod members;
pub mod passwords;
pub mod rate_limit;
pub mod routes;
pub mod secrets;
pub mod server;
pub mod sessions;
pub mod settings;
pub mod startup;
pub mod state;
pub mod static_site;
pub mod texts;
