//! The membership API: sign-up, login, reset, invitations, Google sign-in, the blog feed, as a
//! library (`app` opens it and gives its endpoint). The `server` crate joins it to the static
//! site of the `site-server` crate and holds the `api` binary's command line.

pub mod app;
pub mod client_ip;
pub mod clock;
pub mod codes;
pub mod db;
pub mod devices;
pub mod domain;
pub mod feed;
pub mod google_link;
pub mod i18n;
pub mod invites;
pub mod mail;
pub mod members;
pub mod metrics;
pub mod oauth_cookies;
pub mod passwords;
pub mod rate_limit;
pub mod routes;
pub mod secrets;
pub mod sessions;
pub mod settings;
pub mod state;
pub mod texts;
pub mod user_agents;
