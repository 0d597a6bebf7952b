//! The site contract: what the generator (`site`) writes into `dist/` and the server (`api
//! serve`) relies on, in one place so the two cannot drift apart.

mod aliases;
mod api_messages;
pub mod config;
mod dev_build;
mod facts;
pub mod headers;
mod paths;
mod visitor;

pub use aliases::{is_plain_path, location, Alias, ALIASES_NGINX_FILE, REDIRECTS_FILE};
pub use api_messages::{site_languages, MessagesError, API_MESSAGES_FILE};
pub use config::{SiteConfig, SITE_CONFIG_FILE};
pub use dev_build::{BuildError, DevBuild, DEV_BUILD_FILE};
pub use facts::{Language, SiteFacts, SITE_FACTS_FILE};
pub use headers::HEADERS_FILE;
pub use paths::{
    is_build_record, is_file_path, localized_path, not_found_file, page_file, FILE_ONLY_ROOTS, NOT_FOUND_FILE,
};
pub use visitor::{choose, split_q, visitor_language, COOKIE_NAME};
