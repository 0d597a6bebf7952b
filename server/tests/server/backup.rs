//! `api backup DIR` while the server runs and `api restore DIR` on a fresh data directory and a
//! fresh database, on SQLite and PostgreSQL (docs/deploy.md, "Backups and restore").

use crate::helpers::{fresh_database, Backend, TestApp};
use poem::http::StatusCode;
use serde_json::json;
use std::path::Path;

fn api_backup(database_url: &str, data_dir: &Path, target: &Path) -> (bool, String, String) {
    crate::process::run_api(|api| {
        api.arg("backup")
            .arg(target)
            .env("DATABASE_URL", database_url)
            .env("DATA_DIR", data_dir)
            .env_remove("INVITE_KEY")
            .env("PUBLIC_URL", "https://example.test")
            .env("SMTP_URL", "smtps://user:mail-secret@smtp.example.test")
    })
}

fn api_restore(database_url: &str, data_dir: &Path, source: &Path) -> (bool, String, String) {
    crate::process::run_api(|api| {
        api.arg("restore")
            .arg(source)
            .env("DATABASE_URL", database_url)
            .env("DATA_DIR", data_dir)
            .env_remove("INVITE_KEY")
    })
}

/// Every file under `dir` with its bytes, to show that a refused command changed nothing.
fn snapshot(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut files: Vec<_> = walk(dir)
        .into_iter()
        .map(|p| (p.display().to_string(), std::fs::read(&p).unwrap()))
        .collect();
    files.sort();
    files
}

fn walk(dir: &Path) -> Vec<std::path::PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    entries
        .flat_map(|e| {
            let path = e.unwrap().path();
            if path.is_dir() {
                walk(&path)
            } else {
                vec![path]
            }
        })
        .collect()
}

on_both_databases! {
    async fn a_restore_on_a_fresh_host_keeps_members_sessions_and_unused_invitations(backend: Backend) {
        let app = TestApp::new(backend).await;
        app.register("keeper", "keeper@example.com", "old password 1").await;
        let cookie = app.login("keeper", "old password 1").await;
        let unused = app.invite(1, Some(7)).await;
        let data_dir = app.state.settings.data_dir.clone();
        let backups = tempfile::tempdir().unwrap();
        let backup = backups.path().join("site-1");

        // The server keeps writing (sessions, rate-limit events) while the backup is taken.
        let ((), backed_up) = tokio::join!(
            async {
                for _ in 0..10 {
                    app.login("keeper", "old password 1").await;
                }
            },
            tokio::task::spawn_blocking({
                let (url, data_dir, backup) = (app.database_url.clone(), data_dir.clone(), backup.clone());
                move || api_backup(&url, &data_dir, &backup)
            }),
        );
        let (ok, out, err) = backed_up.unwrap();
        assert!(ok, "{err}");
        assert!(out.contains("Backed up") && out.contains("the invitation key"), "{out}");
        let settings = std::fs::read_to_string(backup.join("settings.env")).unwrap();
        assert!(settings.contains("PUBLIC_URL=https://example.test"), "{settings}");
        assert!(settings.contains("#SMTP_URL= (set; a secret, not copied)"), "{settings}");
        let every_byte: Vec<u8> = snapshot(&backup).into_iter().flat_map(|(_, bytes)| bytes).collect();
        assert!(!String::from_utf8_lossy(&every_byte).contains("mail-secret"), "a secret was copied");

        // A new host: an empty database and an empty data directory.
        let host = tempfile::tempdir().unwrap();
        let new_data = host.path().join("data");
        let new_url = fresh_database(backend, host.path()).await;
        let (ok, out, err) = api_restore(&new_url, &new_data, &backup);
        assert!(ok, "{err}");
        assert!(out.contains("Restored"), "{out}");

        let restored = TestApp::with(backend, |s| {
            s.database_url = new_url.clone();
            s.data_dir = new_data.clone();
        })
        .await;
        assert_eq!(restored.logged_in_as(&cookie).await.as_deref(), Some("keeper"));
        restored.login("keeper", "old password 1").await;
        restored
            .post("/api/denglu", json!({"username": "keeper", "password": "wrong password"}))
            .await
            .assert(StatusCode::UNAUTHORIZED);
        // The invitation made before the backup still opens a sign-up: its key came along.
        restored.register_with_invite("newcomer", "newcomer@example.com", &unused).await;
        restored.login("newcomer", "password1234").await;

        // Restoring again over the restored database is refused and changes nothing.
        let before = snapshot(&new_data);
        let (ok, _, err) = api_restore(&new_url, &new_data, &backup);
        assert!(!ok);
        assert!(err.contains("api restore writes only"), "{err}");
        assert_eq!(snapshot(&new_data), before);
        restored.login("newcomer", "password1234").await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn refused_backups_and_restores_change_nothing() {
    let app = TestApp::new(Backend::Sqlite).await;
    app.invite(1, Some(7)).await;
    let data_dir = app.state.settings.data_dir.clone();
    let backups = tempfile::tempdir().unwrap();
    let backup = backups.path().join("b");
    let (ok, _, err) = api_backup(&app.database_url, &data_dir, &backup);
    assert!(ok, "{err}");

    // A second backup to the same directory is refused and leaves it alone.
    let before = snapshot(&backup);
    let (ok, _, err) = api_backup(&app.database_url, &data_dir, &backup);
    assert!(!ok);
    assert!(err.contains("already exists"), "{err}");
    assert_eq!(snapshot(&backup), before);

    // A data directory holding another invitation key: nothing restored, no database made.
    let host = tempfile::tempdir().unwrap();
    let new_data = host.path().join("data");
    std::fs::create_dir_all(&new_data).unwrap();
    std::fs::write(
        new_data.join("invite.key"),
        "another key of more than thirty-two characters",
    )
    .unwrap();
    let new_url = format!("sqlite://{}?mode=rwc", new_data.join("site.db").display());
    let (ok, _, err) = api_restore(&new_url, &new_data, &backup);
    assert!(!ok);
    assert!(err.contains("holds another invitation key"), "{err}");
    assert!(!new_data.join("site.db").exists());

    std::fs::remove_file(new_data.join("invite.key")).unwrap();
    // A SQLite backup does not go into PostgreSQL.
    let (ok, _, err) = api_restore("postgres://site:secret@127.0.0.1:1/site", &new_data, &backup);
    assert!(!ok);
    assert!(err.contains("same kind"), "{err}");
    assert!(!err.contains("secret"), "the password stays out of messages: {err}");

    // A damaged backup is refused before anything is written.
    let mut bytes = std::fs::read(backup.join("database.sqlite")).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 1;
    std::fs::write(backup.join("database.sqlite"), bytes).unwrap();
    let (ok, _, err) = api_restore(&new_url, &new_data, &backup);
    assert!(!ok);
    assert!(err.contains("database.sqlite") && err.contains("damaged"), "{err}");
    assert!(snapshot(&new_data).is_empty());
}

#[test]
fn backup_explains_what_it_cannot_do() {
    let dir = tempfile::tempdir().unwrap();
    let (ok, _, err) = api_backup(
        "postgres://site:secret@127.0.0.1:1/site",
        dir.path(),
        &dir.path().join("x"),
    );
    assert!(!ok);
    assert!(err.contains("pg_dump failed"), "{err}");
    assert!(!err.contains("secret"), "the password stays out of messages: {err}");
    assert!(!dir.path().join("x").exists() && !dir.path().join(".x.partial").exists());

    let missing = format!("sqlite://{}?mode=rwc", dir.path().join("none.db").display());
    let (ok, _, err) = api_backup(&missing, dir.path(), &dir.path().join("x"));
    assert!(!ok);
    assert!(err.contains("there is no database"), "{err}");
    assert!(!dir.path().join("none.db").exists(), "no empty database was made");
}
