//! The server of the prerendered site: `dist/` from memory with precomputed headers, the
//! visitor's language at unprefixed paths, dev reload, and the HTTP/1.1 listener of `api serve`.
//! The membership API is mounted into it as an endpoint (see `server::startup`).

pub mod server;
pub mod static_site;
