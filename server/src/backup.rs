//! `api backup DIR` and `api restore DIR` (docs/deploy.md, "Backups and restore"): one directory
//! with everything a restore on a new host needs. The database (SQLite's `VACUUM INTO`, or
//! `pg_dump` of a PostgreSQL), the invitation key (codes are checked against it, and it lives in
//! the data directory or the settings, not in the database), and the settings in force with their
//! secrets left out. A manifest holds each file's SHA-256, so a damaged copy is refused before a
//! restore changes anything.

use crate::cli::StorageArgs;
use anyhow::{bail, ensure, Context};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

const MANIFEST: &str = "manifest.json";
const SQLITE_FILE: &str = "database.sqlite";
const POSTGRES_FILE: &str = "database.pgdump";
const KEY_FILE: &str = "invite.key";
const SETTINGS_FILE: &str = "settings.env";
/// Bumped when the layout changes, so an older binary refuses a backup it cannot read.
const FORMAT: u32 = 1;

#[derive(Serialize, Deserialize, Clone, Copy, PartialEq, Eq, Debug)]
#[serde(rename_all = "lowercase")]
enum Backend {
    Sqlite,
    Postgres,
}

impl Backend {
    fn of(url: &str) -> anyhow::Result<Backend> {
        if api::db::sqlite_path(url).is_some() {
            Ok(Backend::Sqlite)
        } else if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            Ok(Backend::Postgres)
        } else {
            bail!(
                "api backup and restore work on a SQLite file or a PostgreSQL database, not {}",
                api::db::redact(url)
            )
        }
    }

    fn file(self) -> &'static str {
        match self {
            Backend::Sqlite => SQLITE_FILE,
            Backend::Postgres => POSTGRES_FILE,
        }
    }
}

#[derive(Serialize, Deserialize)]
struct Manifest {
    format: u32,
    api_version: String,
    created_at: String,
    database: Backend,
    /// SHA-256 (hex) of each file beside the manifest.
    files: BTreeMap<String, String>,
}

/// `api backup DIR`: writes DIR, which must not exist yet. It is filled under a temporary name
/// and renamed when complete, so an interrupted backup never looks like a finished one.
pub async fn backup(dir: &Path, storage: &StorageArgs, out: &mut impl std::io::Write) -> anyhow::Result<()> {
    let url = storage.database_url();
    let backend = Backend::of(&url)?;
    ensure!(
        !dir.exists(),
        "{} already exists: api backup never overwrites, give it a new name",
        dir.display()
    );
    let parent = dir
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    ensure!(parent.is_dir(), "the directory {} does not exist", parent.display());
    if let Some(source) = api::db::sqlite_path(&url) {
        ensure!(
            Path::new(&source).is_file(),
            "there is no database at {source} to back up"
        );
    }
    let name = dir.file_name().context("the backup needs a directory name")?;
    let partial = parent.join(format!(".{}.partial", name.to_string_lossy()));
    let _ = std::fs::remove_dir_all(&partial);
    private_dir(&partial)?;
    let written = write_backup(&partial, backend, &url, storage).await;
    if let Err(e) = written {
        let _ = std::fs::remove_dir_all(&partial);
        return Err(e);
    }
    std::fs::rename(&partial, dir).with_context(|| format!("renaming {} to {}", partial.display(), dir.display()))?;
    writeln!(
        out,
        "Backed up {} to {}: {}, {}, {}.",
        api::db::redact(&url),
        dir.display(),
        backend.file(),
        if dir.join(KEY_FILE).exists() {
            "the invitation key"
        } else {
            "no invitation key (none made yet)"
        },
        SETTINGS_FILE
    )?;
    Ok(())
}

async fn write_backup(dir: &Path, backend: Backend, url: &str, storage: &StorageArgs) -> anyhow::Result<()> {
    let database = dir.join(backend.file());
    match backend {
        Backend::Sqlite => sqlite_snapshot(url, &database).await?,
        Backend::Postgres => {
            let mut dump = pg_command("pg_dump", url)?;
            dump.args(["--format=custom", "--no-owner", "--no-acl", "--file"])
                .arg(&database);
            run(dump, "pg_dump")?;
        }
    }
    if let Some(key) = invite_key(storage)? {
        write_private(&dir.join(KEY_FILE), key.as_bytes())?;
    }
    write_private(&dir.join(SETTINGS_FILE), settings_without_secrets().as_bytes())?;
    let mut files = BTreeMap::new();
    for entry in std::fs::read_dir(dir)? {
        let name = entry?.file_name().to_string_lossy().into_owned();
        files.insert(name.clone(), sha256_of(&dir.join(&name))?);
    }
    let manifest = Manifest {
        format: FORMAT,
        api_version: env!("CARGO_PKG_VERSION").into(),
        created_at: chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
        database: backend,
        files,
    };
    write_private(&dir.join(MANIFEST), serde_json::to_string_pretty(&manifest)?.as_bytes())
}

/// SQLite's `VACUUM INTO`: a snapshot as of one transaction that readers and writers of the live
/// database are not blocked by. The file is opened read-only and no migration runs, so a backup
/// taken with a newer binary before an upgrade leaves the database as it is.
async fn sqlite_snapshot(url: &str, target: &Path) -> anyhow::Result<()> {
    use sea_orm::{ConnectionTrait, Statement};
    let source = api::db::sqlite_path(url).context("a SQLite URL")?;
    let db = sea_orm::Database::connect(format!("sqlite://{source}?mode=ro"))
        .await
        .map_err(|e| anyhow::anyhow!("cannot open {source}: {e}"))?;
    db.execute(Statement::from_sql_and_values(
        db.get_database_backend(),
        "VACUUM INTO ?",
        [target.to_string_lossy().into_owned().into()],
    ))
    .await
    .map_err(|e| anyhow::anyhow!("backing {source} up failed: {e}"))?;
    db.close().await?;
    Ok(())
}

/// The key invitation codes are stored under: INVITE_KEY, else the data directory's file. None
/// when neither exists (no invitation was made with a key yet); a backup never makes one.
fn invite_key(storage: &StorageArgs) -> anyhow::Result<Option<String>> {
    if let Some(given) = storage.invite_key.as_deref().filter(|k| !k.is_empty()) {
        return Ok(Some(given.to_string()));
    }
    let path = storage.data_dir.join(api::invites::KEY_FILE);
    match std::fs::read_to_string(&path) {
        Ok(text) => Ok(Some(text.trim().to_string())),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(anyhow::anyhow!(
            "cannot read the invitation key {}: {e}",
            path.display()
        )),
    }
}

/// The server's settings that are set, as `NAME=value` lines; a secret (a value `serve --help`
/// hides) by its name only, and the database URL without its password.
fn settings_without_secrets() -> String {
    use clap::CommandFactory;
    let cli = crate::cli::Cli::command();
    let serve = cli.find_subcommand("serve").expect("the serve command");
    let mut text = String::from(
        "# The settings in force when this backup was taken (api backup). Secrets are not copied:\n\
         # on a new host, set them again in api.env (deploy/api.env.example).\n",
    );
    for arg in cli.get_arguments().chain(serve.get_arguments()) {
        let Some(name) = arg.get_env().and_then(|n| n.to_str()) else {
            continue;
        };
        let Some(value) = std::env::var(name).ok().filter(|v| !v.is_empty()) else {
            continue;
        };
        let line = match name {
            "DATABASE_URL" => format!("{name}={}\n", api::db::redact(&value)),
            _ if arg.is_hide_env_values_set() => format!("#{name}= (set; a secret, not copied)\n"),
            _ => format!("{name}={value}\n"),
        };
        if !text.contains(&line) {
            text.push_str(&line);
        }
    }
    text
}

/// `api restore DIR`, with the instances stopped: into an empty database (DATABASE_URL, or a
/// SQLite file that does not exist yet) and the data directory's invitation key. Everything is
/// checked first, so a refused restore changes nothing.
pub async fn restore(dir: &Path, storage: &StorageArgs, out: &mut impl std::io::Write) -> anyhow::Result<()> {
    let manifest = verified_manifest(dir)?;
    let url = storage.database_url();
    let backend = Backend::of(&url)?;
    ensure!(
        backend == manifest.database,
        "{} holds a {:?} backup and DATABASE_URL names a {backend:?} database: restore it into the same kind",
        dir.display(),
        manifest.database
    );
    let key = match manifest.files.contains_key(KEY_FILE) {
        true => Some(std::fs::read_to_string(dir.join(KEY_FILE))?.trim().to_string()),
        false => None,
    };
    let key_file = storage.data_dir.join(api::invites::KEY_FILE);
    if let Some(key) = &key {
        check_key_target(key, storage.invite_key.as_deref(), &key_file)?;
    }
    let database = dir.join(backend.file());
    match backend {
        Backend::Sqlite => restore_sqlite(&database, &url)?,
        Backend::Postgres => restore_postgres(&database, &url).await?,
    }
    if let Some(key) = key.filter(|_| storage.invite_key.as_deref().is_none_or(str::is_empty) && !key_file.exists()) {
        std::fs::create_dir_all(&storage.data_dir)?;
        write_private(&key_file, key.as_bytes())?;
    }
    writeln!(
        out,
        "Restored {} (taken {}) into {}.\nThe settings it was taken with, secrets left out, are in {}.",
        dir.display(),
        manifest.created_at,
        api::db::redact(&url),
        dir.join(SETTINGS_FILE).display()
    )?;
    Ok(())
}

fn verified_manifest(dir: &Path) -> anyhow::Result<Manifest> {
    let text = std::fs::read_to_string(dir.join(MANIFEST))
        .with_context(|| format!("{} is not a backup made by api backup (no {MANIFEST})", dir.display()))?;
    let manifest: Manifest =
        serde_json::from_str(&text).with_context(|| format!("reading {}", dir.join(MANIFEST).display()))?;
    ensure!(
        manifest.format == FORMAT,
        "{} is in backup format {}, this api reads format {FORMAT}",
        dir.display(),
        manifest.format
    );
    ensure!(
        manifest.files.contains_key(manifest.database.file()),
        "the backup has no database file"
    );
    for (name, expected) in &manifest.files {
        let actual = sha256_of(&dir.join(name)).with_context(|| format!("the backup lacks {name}"))?;
        ensure!(
            &actual == expected,
            "{name} in {} is damaged (its SHA-256 differs from the manifest's)",
            dir.display()
        );
    }
    Ok(manifest)
}

/// The restored key must be the one the server will use: INVITE_KEY when set, else the data
/// directory's file, which must not already hold another key.
fn check_key_target(key: &str, given: Option<&str>, key_file: &Path) -> anyhow::Result<()> {
    if let Some(given) = given.filter(|k| !k.is_empty()) {
        ensure!(
            given == key,
            "INVITE_KEY differs from the backup's invitation key: every unused invitation would be refused. \
             Set INVITE_KEY to the key in the backup's {KEY_FILE}, or unset it"
        );
        return Ok(());
    }
    if key_file.exists() {
        let existing = std::fs::read_to_string(key_file)?;
        ensure!(
            existing.trim() == key,
            "{} holds another invitation key: restore into a fresh data directory, or remove it first",
            key_file.display()
        );
    }
    Ok(())
}

fn restore_sqlite(database: &Path, url: &str) -> anyhow::Result<()> {
    let target = PathBuf::from(api::db::sqlite_path(url).context("a SQLite URL")?);
    for suffix in ["", "-wal", "-shm"] {
        let path = PathBuf::from(format!("{}{suffix}", target.display()));
        ensure!(
            !path.exists(),
            "{} exists: api restore writes only a new database (stop the server and move the old files away first)",
            path.display()
        );
    }
    if let Some(parent) = target.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(parent)?;
    }
    let partial = PathBuf::from(format!("{}.restoring", target.display()));
    std::fs::copy(database, &partial).with_context(|| format!("copying to {}", partial.display()))?;
    std::fs::rename(&partial, &target)?;
    Ok(())
}

async fn restore_postgres(database: &Path, url: &str) -> anyhow::Result<()> {
    use sea_orm::{ConnectionTrait, Statement};
    // Connected without migrating: a migrated database would not be empty.
    let db = sea_orm::Database::connect(url)
        .await
        .map_err(|e| anyhow::anyhow!("cannot open database {}: {e}", api::db::redact(url)))?;
    let row = db
        .query_one(Statement::from_string(
            db.get_database_backend(),
            "SELECT count(*) AS tables FROM pg_tables WHERE schemaname = current_schema()",
        ))
        .await?
        .context("counting tables")?;
    let tables: i64 = row.try_get("", "tables")?;
    db.close().await?;
    ensure!(
        tables == 0,
        "{} already has {tables} tables: api restore writes only into an empty database (dropdb and createdb first)",
        api::db::redact(url)
    );
    let mut restore = pg_command("pg_restore", url)?;
    restore
        .args(["--no-owner", "--no-acl", "--exit-on-error", "--single-transaction"])
        .arg(database);
    run(restore, "pg_restore")
}

/// A PostgreSQL client tool connected to `url`; the password goes in PGPASSWORD rather than on
/// the command line, where every user of the host could read it.
fn pg_command(program: &str, url: &str) -> anyhow::Result<Command> {
    let mut parsed = url::Url::parse(url).map_err(|e| anyhow::anyhow!("DATABASE_URL: {e}"))?;
    let mut command = Command::new(program);
    if let Some(password) = parsed.password() {
        let password = percent_encoding::percent_decode_str(password)
            .decode_utf8()?
            .into_owned();
        command.env("PGPASSWORD", password);
        let _ = parsed.set_password(None);
    }
    command.arg(format!("--dbname={parsed}"));
    Ok(command)
}

fn run(mut command: Command, program: &str) -> anyhow::Result<()> {
    let output = command.output().map_err(|e| match e.kind() {
        std::io::ErrorKind::NotFound => {
            anyhow::anyhow!("{program} not found: install PostgreSQL's client tools (Debian: postgresql-client)")
        }
        _ => anyhow::anyhow!("cannot run {program}: {e}"),
    })?;
    ensure!(
        output.status.success(),
        "{program} failed: {}",
        String::from_utf8_lossy(&output.stderr).trim()
    );
    Ok(())
}

fn sha256_of(path: &Path) -> anyhow::Result<String> {
    let bytes = std::fs::read(path)?;
    Ok(hex::encode(Sha256::digest(bytes)))
}

fn private_dir(path: &Path) -> std::io::Result<()> {
    let mut builder = std::fs::DirBuilder::new();
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
    builder.create(path)
}

/// A new file only its owner can read: the backup holds the invitation key.
fn write_private(path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    use std::io::Write;
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    let mut file = options
        .open(path)
        .with_context(|| format!("writing {}", path.display()))?;
    file.write_all(bytes)?;
    Ok(())
}
