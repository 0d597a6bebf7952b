//! Storage: sea-orm entities, migrations, and the connection.

pub mod entities;
pub mod migration;

use sea_orm::{
    ConnAcquireErr, ConnectOptions, ConnectionTrait, Database, DatabaseConnection, DbBackend, DbErr, RuntimeErr,
    TransactionTrait,
};
use sea_orm_migration::MigratorTrait;
use std::time::Duration;

/// How long a request waits for a database connection. Short: while the database is down a
/// request waits this long before it is told to retry, and a proxy's timeout must exceed it.
pub const ACQUIRE_TIMEOUT: Duration = Duration::from_secs(3);

/// Connects, switches SQLite to WAL, and brings the schema up to date.
pub async fn connect(url: &str) -> anyhow::Result<DatabaseConnection> {
    if let Some(path) = sqlite_path(url) {
        if let Some(dir) = std::path::Path::new(&path).parent() {
            if !dir.as_os_str().is_empty() {
                std::fs::create_dir_all(dir)?;
            }
        }
    }
    let mut options = ConnectOptions::new(url.to_string());
    options
        .max_connections(if url.starts_with("sqlite:") { 8 } else { 16 })
        .acquire_timeout(ACQUIRE_TIMEOUT)
        // A connection the database dropped (restart, failover) is found by a ping before use
        // and replaced, so the pool recovers on its own once the database is back.
        .test_before_acquire(true)
        .sqlx_logging(false);
    let db = Database::connect(options)
        .await
        .map_err(|e| anyhow::anyhow!("cannot open database {}: {e}", redact(url)))?;
    migrate(&db, url).await?;
    Ok(db)
}

/// The key of the PostgreSQL advisory lock that migrations run under (any constant unique to
/// this application; "site" in ASCII).
const MIGRATION_LOCK: i64 = 0x73_69_74_65;

/// Applies the migrations this binary knows and the database lacks, one instance at a time:
/// instances started together would otherwise both create the same tables, and one would fail.
async fn migrate(db: &DatabaseConnection, url: &str) -> anyhow::Result<()> {
    match db.get_database_backend() {
        DbBackend::Postgres => {
            // Held until the transaction ends; the migrations run inside it (PostgreSQL's DDL is
            // transactional), so a second instance waits, then finds nothing left to do.
            let txn = db.begin().await?;
            txn.execute_unprepared(&format!("SELECT pg_advisory_xact_lock({MIGRATION_LOCK})"))
                .await?;
            if !migrated_by_newer_release(&txn).await? {
                migration::Migrator::up(&txn, None).await?;
            }
            txn.commit().await?;
        }
        _ => {
            // SQLite: an exclusive flock on a file beside the database for as long as the
            // migrator runs. Not on the database file itself: closing any descriptor of that file
            // drops every POSIX lock this process holds on it, SQLite's own included.
            let _lock = match sqlite_path(url) {
                Some(path) => Some(lock_file(std::path::PathBuf::from(format!("{path}-migrate.lock"))).await?),
                None => None,
            };
            if db.get_database_backend() == DbBackend::Sqlite {
                // WAL lets readers run while a writer commits; the setting is stored in the file.
                // Switched under the lock: the switch needs the database to itself, and another
                // instance's first migrations may hold it past SQLite's busy timeout (seen once in
                // `make test`: "database is locked" for the second of two instances started together).
                db.execute_unprepared("PRAGMA journal_mode=WAL").await?;
            }
            if !migrated_by_newer_release(db).await? {
                migration::Migrator::up(db, None).await?;
            }
        }
    }
    Ok(())
}

/// True when a newer release has migrated the database past this binary, which then runs on it
/// unchanged: the instances not yet upgraded, and all of them after a rollback (deploy/upgrade.sh).
/// That holds because a release only adds to the schema and removes what it no longer uses a
/// release later (docs/deploy.md, "Upgrades and rollbacks"). A database lacking one of this
/// binary's migrations as well is refused: it is not one this release's schema leads to.
async fn migrated_by_newer_release(db: &impl ConnectionTrait) -> anyhow::Result<bool> {
    use migration::Migrator;
    use std::collections::BTreeSet;
    let known: BTreeSet<String> = Migrator::migrations().iter().map(|m| m.name().to_string()).collect();
    let applied: BTreeSet<String> = Migrator::get_migration_models(db)
        .await?
        .into_iter()
        .map(|m| m.version)
        .collect();
    let newer: Vec<&String> = applied.difference(&known).collect();
    if newer.is_empty() {
        return Ok(false);
    }
    let missing: Vec<&String> = known.difference(&applied).collect();
    anyhow::ensure!(
        missing.is_empty(),
        "the database holds migrations this release does not know ({newer:?}) and lacks some it does \
         ({missing:?}): it belongs to another line of releases; restore a backup made by this one"
    );
    tracing::warn!(
        ?newer,
        "the database was migrated by a newer release; this one runs on it without migrating"
    );
    Ok(true)
}

/// Waits for an exclusive lock on `path`; the lock goes with the returned file.
async fn lock_file(path: std::path::PathBuf) -> anyhow::Result<std::fs::File> {
    let shown = path.display().to_string();
    tokio::task::spawn_blocking(move || {
        let file = std::fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&path)?;
        file.lock()?;
        Ok(file)
    })
    .await?
    .map_err(|e: std::io::Error| anyhow::anyhow!("cannot lock {shown} for migrations: {e}"))
}

/// True when `err` says the database cannot be reached (down, restarting, refusing connections)
/// rather than that a query was wrong: such requests are worth retrying later.
pub fn is_unavailable(err: &DbErr) -> bool {
    use sea_orm::sqlx::Error;
    let sqlx = match err {
        DbErr::ConnectionAcquire(ConnAcquireErr::Timeout | ConnAcquireErr::ConnectionClosed) => return true,
        DbErr::Conn(RuntimeErr::SqlxError(e))
        | DbErr::Exec(RuntimeErr::SqlxError(e))
        | DbErr::Query(RuntimeErr::SqlxError(e)) => e,
        _ => return false,
    };
    match sqlx {
        Error::Io(_) | Error::Tls(_) | Error::PoolTimedOut | Error::PoolClosed | Error::WorkerCrashed => true,
        // PostgreSQL: class 08 is a connection exception; 57P01-57P03 an administrator's or a
        // crash's shutdown, or a server that is starting or stopping.
        Error::Database(e) => e
            .code()
            .is_some_and(|code| code.starts_with("08") || matches!(&*code, "57P01" | "57P02" | "57P03")),
        _ => false,
    }
}

/// The file of a SQLite URL (None for PostgreSQL and in-memory databases).
pub fn sqlite_path(url: &str) -> Option<String> {
    let rest = url.strip_prefix("sqlite://").or_else(|| url.strip_prefix("sqlite:"))?;
    let path = rest.split('?').next().unwrap_or("");
    (!path.is_empty() && path != ":memory:").then(|| path.to_string())
}

/// The URL without its password, for logs.
pub fn redact(url: &str) -> String {
    match url::Url::parse(url) {
        Ok(mut parsed) if parsed.password().is_some() => {
            let _ = parsed.set_password(Some("***"));
            parsed.to_string()
        }
        _ => url.to_string(),
    }
}

/// Deletes what can no longer be used: expired sessions, codes, tokens and sign-in states, and
/// rate-limit events older than the longest window.
pub async fn sweep_expired(db: &DatabaseConnection, now: i64) -> Result<(), sea_orm::DbErr> {
    use entities::*;
    use sea_orm::{ColumnTrait, EntityTrait, QueryFilter};
    crate::sessions::sweep(db, now).await?;
    email_code::Entity::delete_many()
        .filter(email_code::Column::ExpiresAt.lte(now))
        .exec(db)
        .await?;
    reset_token::Entity::delete_many()
        .filter(reset_token::Column::ExpiresAt.lte(now))
        .exec(db)
        .await?;
    google_pending::Entity::delete_many()
        .filter(google_pending::Column::ExpiresAt.lte(now))
        .exec(db)
        .await?;
    oauth_state::Entity::delete_many()
        .filter(oauth_state::Column::ExpiresAt.lte(now))
        .exec(db)
        .await?;
    crate::rate_limit::sweep(db, now).await
}
