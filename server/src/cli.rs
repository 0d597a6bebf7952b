//! The binary's command line: `serve`, and the owner's `invite`, `members`, `backup` and
//! `restore` commands (the last two in `backup`).

use api::clock::{Clock, OsEntropy, SystemClock};
use api::settings::{self, GoogleSettings, Settings};
use clap::{Args, Parser, Subcommand, ValueEnum};
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::Arc;

#[derive(Parser)]
#[command(about = "The site's server and membership API")]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
    /// `json`: one JSON object per log line, for a log collector.
    #[arg(long, env = "LOG_FORMAT", value_enum, default_value_t = LogFormat::Text, global = true)]
    pub log_format: LogFormat,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum LogFormat {
    Text,
    Json,
}

#[derive(Subcommand)]
pub enum Command {
    /// Serve dist/ and /api on LISTEN (127.0.0.1:PORT unless told otherwise).
    Serve(Box<ServeArgs>),
    /// Make, list and revoke invitation codes.
    Invite {
        #[command(subcommand)]
        command: InviteCommand,
        #[command(flatten)]
        storage: StorageArgs,
    },
    /// Write a backup directory with everything a restore needs: a consistent copy of the
    /// database (SQLite, or pg_dump of PostgreSQL), the invitation key and the settings' names
    /// without secrets; also while the server runs.
    Backup {
        /// A new directory; an existing one is never overwritten.
        path: PathBuf,
        #[command(flatten)]
        storage: StorageArgs,
    },
    /// Restore a backup directory into an empty database and the data directory's invitation
    /// key, with the servers stopped.
    Restore {
        /// A directory written by `api backup`.
        path: PathBuf,
        #[command(flatten)]
        storage: StorageArgs,
    },
    /// List members.
    Members {
        #[command(subcommand)]
        command: MembersCommand,
        #[command(flatten)]
        storage: StorageArgs,
    },
}

#[derive(Subcommand)]
pub enum InviteCommand {
    /// Make a code; it is printed as the last line of the output.
    Create {
        /// How many sign-ups the code allows.
        #[arg(long, default_value_t = 1)]
        uses: u32,
        /// Days until the code expires (0: it never expires).
        #[arg(long, default_value_t = 30)]
        expires_days: u32,
    },
    /// List every code (their first characters), uses and expiry.
    List,
    /// Revoke a code (the full code, or its id from `invite list`).
    Revoke { code: String },
}

#[derive(Subcommand)]
pub enum MembersCommand {
    List,
}

#[derive(Args, Clone)]
pub struct StorageArgs {
    /// Directory for the SQLite database and the mail outbox.
    #[arg(long, env = "DATA_DIR", default_value = "data", global = true)]
    pub data_dir: PathBuf,
    /// Database URL: sqlite://PATH?mode=rwc or postgres://USER:PASS@HOST/DB [default: sqlite://$DATA_DIR/site.db?mode=rwc]
    #[arg(long, env = "DATABASE_URL", global = true, hide_env_values = true)]
    pub database_url: Option<String>,
    /// Key (32+ characters) invitation codes are stored under; servers sharing a database share it [default: one made in $DATA_DIR/invite.key]
    #[arg(long, env = "INVITE_KEY", global = true, hide_env_values = true)]
    pub invite_key: Option<String>,
}

impl StorageArgs {
    pub fn database_url(&self) -> String {
        self.database_url
            .clone()
            .filter(|u| !u.is_empty())
            .unwrap_or_else(|| settings::default_database_url(&self.data_dir))
    }
}

#[derive(Args)]
pub struct ServeArgs {
    /// Port on 127.0.0.1 when LISTEN is not set.
    #[arg(long, env = "PORT", default_value_t = 8080)]
    pub port: u16,
    /// Address and port to listen on, e.g. 127.0.0.1:8081 or [::1]:8081 [default: 127.0.0.1:$PORT]
    #[arg(long, env = "LISTEN")]
    pub listen: Option<SocketAddr>,
    /// The generator's output.
    #[arg(long, env = "DIST_DIR", default_value = "dist")]
    pub dist_dir: PathBuf,
    /// Live reload for `make dev`.
    #[arg(long)]
    pub dev: bool,
    #[command(flatten)]
    pub storage: StorageArgs,
    /// Where visitors reach the site; https makes cookies Secure [default: http://$LISTEN]
    #[arg(long, env = "PUBLIC_URL")]
    pub public_url: Option<String>,
    /// smtps://user:pass@host or smtp://host?tls=required (plain smtp:// only to a loopback relay); unset: mail goes to $DATA_DIR/outbox/*.eml
    #[arg(long, env = "SMTP_URL", hide_env_values = true)]
    pub smtp_url: Option<String>,
    /// Sender of the API's mail.
    #[arg(long, env = "MAIL_FROM", default_value = "Site <no-reply@localhost>")]
    pub mail_from: String,
    /// RSS or Atom feed behind /api/feed [default: feed_url of site-config.yaml]
    #[arg(long, env = "BLOG_FEED_URL")]
    pub blog_feed_url: Option<String>,
    /// The site-config.yaml that names the default feed.
    #[arg(long, env = "SITE_CONFIG", default_value = "site-config.yaml")]
    pub site_config: PathBuf,
    /// Seconds the feed is cached.
    #[arg(long, env = "FEED_CACHE_SECONDS", default_value_t = 600)]
    pub feed_cache_seconds: u64,
    /// Google OAuth client id; Google sign-in is off without it and the secret.
    #[arg(long, env = "GOOGLE_CLIENT_ID")]
    pub google_client_id: Option<String>,
    /// Google OAuth client secret.
    #[arg(long, env = "GOOGLE_CLIENT_SECRET", hide_env_values = true)]
    pub google_client_secret: Option<String>,
    /// Google's authorization endpoint (tests point the three endpoints at a local fake).
    #[arg(long, env = "GOOGLE_AUTH_URL", default_value = settings::GOOGLE_AUTH_URL)]
    pub google_auth_url: String,
    /// Google's token endpoint.
    #[arg(long, env = "GOOGLE_TOKEN_URL", default_value = settings::GOOGLE_TOKEN_URL)]
    pub google_token_url: String,
    /// Google's OpenID Connect userinfo endpoint.
    #[arg(long, env = "GOOGLE_USERINFO_URL", default_value = settings::GOOGLE_USERINFO_URL)]
    pub google_userinfo_url: String,
    /// Comma-separated ranges of reverse proxies (10.0.0.0/8,::1) whose X-Forwarded-For names the client [default: none: the TCP peer is the client]
    #[arg(long, env = "TRUSTED_PROXIES")]
    pub trusted_proxies: Option<String>,
    /// Comma-separated ranges (10.0.0.5/32) that may read /metrics besides loopback [default: loopback only]
    #[arg(long, env = "METRICS_ALLOW")]
    pub metrics_allow: Option<String>,
    /// Multiplies every rate limit's allowance (e.g. 1000 for load tests).
    #[arg(long, env = "RATE_LIMIT_SCALE", default_value_t = 1.0)]
    pub rate_limit_scale: f64,
    /// With an https PUBLIC_URL, HSTS also covers every subdomain (true or false)
    #[arg(long, env = "HSTS_INCLUDE_SUBDOMAINS", default_value_t = true, action = clap::ArgAction::Set)]
    pub hsts_include_subdomains: bool,
    /// Open connections at most; more wait until one closes
    #[arg(long, env = "MAX_CONNECTIONS", default_value_t = 500, value_parser = clap::value_parser!(u32).range(1..))]
    pub max_connections: u32,
    /// Seconds a request may take before its answer starts; past it the client gets 503
    #[arg(long, env = "REQUEST_TIMEOUT_SECONDS", default_value_t = 30, value_parser = clap::value_parser!(u64).range(1..))]
    pub request_timeout_seconds: u64,
}

impl ServeArgs {
    pub fn listen_addr(&self) -> SocketAddr {
        self.listen
            .unwrap_or_else(|| SocketAddr::from(([127, 0, 0, 1], self.port)))
    }

    pub fn limits(&self) -> site_server::server::Limits {
        site_server::server::Limits {
            max_connections: self.max_connections as usize,
            request_timeout: std::time::Duration::from_secs(self.request_timeout_seconds),
        }
    }

    /// What the static site is served from.
    pub fn site_options(&self) -> site_server::static_site::SiteOptions {
        site_server::static_site::SiteOptions {
            dist_dir: self.dist_dir.clone(),
            dev: self.dev,
        }
    }

    pub fn settings(&self) -> anyhow::Result<Settings> {
        let public_url = self
            .public_url
            .clone()
            .filter(|u| !u.is_empty())
            .unwrap_or_else(|| format!("http://{}", self.listen_addr()));
        let google = match (&self.google_client_id, &self.google_client_secret) {
            (Some(id), Some(secret)) if !id.is_empty() && !secret.is_empty() => Some(GoogleSettings {
                client_id: id.clone(),
                client_secret: secret.clone(),
                auth_url: self.google_auth_url.clone(),
                token_url: self.google_token_url.clone(),
                userinfo_url: self.google_userinfo_url.clone(),
            }),
            _ => None,
        };
        anyhow::ensure!(self.rate_limit_scale > 0.0, "RATE_LIMIT_SCALE must be above 0");
        Ok(Settings {
            data_dir: self.storage.data_dir.clone(),
            database_url: self.storage.database_url(),
            public_url: url::Url::parse(&public_url).map_err(|e| anyhow::anyhow!("PUBLIC_URL {public_url}: {e}"))?,
            smtp_url: self.smtp_url.clone().filter(|u| !u.is_empty()),
            mail_from: self.mail_from.clone(),
            blog_feed_url: self
                .blog_feed_url
                .clone()
                .filter(|u| !u.is_empty())
                .or_else(|| settings::feed_url_from_site_config(&self.site_config)),
            feed_cache_seconds: self.feed_cache_seconds,
            google,
            invite_key: self.storage.invite_key.clone(),
            trusted_proxies: api::client_ip::parse_trusted_proxies(self.trusted_proxies.as_deref().unwrap_or(""))?,
            // The same list syntax as TRUSTED_PROXIES, and errors that name this setting.
            metrics_allow: api::client_ip::parse_trusted_proxies(self.metrics_allow.as_deref().unwrap_or(""))
                .map_err(|e| anyhow::anyhow!("{}", e.to_string().replacen("TRUSTED_PROXIES", "METRICS_ALLOW", 1)))?,
            rate_limit_scale: self.rate_limit_scale,
            hash_wait: api::passwords::HASH_WAIT,
            hsts_include_subdomains: self.hsts_include_subdomains,
            clock: Arc::new(SystemClock),
            entropy: Arc::new(OsEntropy),
        })
    }
}

fn date(secs: i64) -> String {
    chrono::DateTime::from_timestamp(secs, 0)
        .map(|d| d.format("%Y-%m-%d %H:%M UTC").to_string())
        .unwrap_or_default()
}

/// Runs an `invite` subcommand, writing what it has to say to `out`.
pub async fn invite(
    command: &InviteCommand,
    storage: &StorageArgs,
    out: &mut impl std::io::Write,
) -> anyhow::Result<()> {
    let db = open(storage).await?;
    let key = api::invites::InviteKey::load(&storage.data_dir, storage.invite_key.as_deref())?;
    match command {
        InviteCommand::Create { uses, expires_days } => {
            anyhow::ensure!(*uses >= 1, "--uses must be at least 1");
            let expires = (*expires_days > 0).then_some(*expires_days);
            let code = api::invites::create(&db, &SystemClock, &OsEntropy, &key, *uses, expires).await?;
            let until = match expires {
                Some(days) => format!("expires in {days} days"),
                None => "never expires".into(),
            };
            writeln!(
                out,
                "Invitation code ({uses} use{}, {until}):",
                if *uses == 1 { "" } else { "s" }
            )?;
            writeln!(out, "{code}")?;
        }
        InviteCommand::List => {
            writeln!(
                out,
                "{:>4}  {:<9}  {:>9}  {:<20}  status",
                "id", "code", "uses", "expires"
            )?;
            for invite in api::invites::list(&db).await? {
                let status = if invite.revoked {
                    "revoked"
                } else if invite.expires_at.is_some_and(|e| e <= SystemClock.now()) {
                    "expired"
                } else if invite.uses >= invite.max_uses {
                    "used up"
                } else {
                    "active"
                };
                writeln!(
                    out,
                    "{:>4}  {:<9}  {:>4}/{:<4}  {:<20}  {status}",
                    invite.id,
                    format!("{}-…", invite.code_hint),
                    invite.uses,
                    invite.max_uses,
                    invite.expires_at.map(date).unwrap_or_else(|| "never".into())
                )?;
            }
        }
        InviteCommand::Revoke { code } => {
            anyhow::ensure!(
                api::invites::revoke(&db, &key, code).await?,
                "no invitation matches {code}"
            );
            writeln!(out, "Revoked.")?;
        }
    }
    Ok(())
}

pub async fn members(
    command: &MembersCommand,
    storage: &StorageArgs,
    out: &mut impl std::io::Write,
) -> anyhow::Result<()> {
    let db = open(storage).await?;
    match command {
        MembersCommand::List => {
            writeln!(
                out,
                "{:>4}  {:<32}  {:<32}  {:<6}  joined",
                "id", "username", "email", "google"
            )?;
            for m in api::members::list(&db).await? {
                writeln!(
                    out,
                    "{:>4}  {:<32}  {:<32}  {:<6}  {}",
                    m.id,
                    m.username,
                    m.email.unwrap_or_default(),
                    if m.google_sub.is_some() { "yes" } else { "no" },
                    date(m.created_at)
                )?;
            }
        }
    }
    Ok(())
}

async fn open(storage: &StorageArgs) -> anyhow::Result<sea_orm::DatabaseConnection> {
    if !Path::new(&storage.data_dir).exists() {
        std::fs::create_dir_all(&storage.data_dir)?;
    }
    api::db::connect(&storage.database_url()).await
}
