//! The membership API: sign-up, login, reset, invitations, Google sign-in, the blog feed.
//! The site's files and the HTTP listener are the `site-server` crate; `startup` joins the two.

pub mod backup;
pub mod cli;
pub mod client_ip;
pub mod clock;
pub mod codes;
pub mod db;
pub mod devices;
pub mod domain;
pub mod feed;
pub mod i18n;
pub mod invites;
pub mod logging;
pub mod mail;
pub mod members;
pub mod metrics;
pub mod passwords;
pub mod rate_limit;
pub mod routes;
pub mod secrets;
pub mod sessions;
pub mod settings;
pub mod startup;
pub mod state;
pub mod texts;
pub mod user_agents;
