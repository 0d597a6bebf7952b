//! `api backup PATH` while the server runs, and a restore from it (docs/deploy.md, Backups).

mod common;
use common::{Backend, TestApp};
use poem::http::StatusCode;
use serde_json::json;
use std::path::Path;

fn api_backup(database_url: &str, target: &Path) -> (bool, String, String) {
    common::run_api(|api| api.arg("backup").arg(target).env("DATABASE_URL", database_url))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_backup_taken_while_serving_restores_every_member() {
    let data = tempfile::tempdir().unwrap();
    let live = data.path().join("site.db");
    let url = format!("sqlite://{}?mode=rwc", live.display());
    let backup = data.path().join("backup.db");

    let app = TestApp::with(Backend::Sqlite, |s| s.database_url = url.clone()).await;
    app.register("keeper", "keeper@example.com", "old password 1").await;
    let cookie = app.login("keeper", "old password 1").await;
    // The server keeps writing (sessions, rate-limit events) while the backup is taken.
    let ((), backed_up) = tokio::join!(
        async {
            for _ in 0..20 {
                app.login("keeper", "old password 1").await;
            }
        },
        tokio::task::spawn_blocking({
            let (url, backup) = (url.clone(), backup.clone());
            move || api_backup(&url, &backup)
        }),
    );
    let (ok, out, err) = backed_up.unwrap();
    assert!(ok, "{err}");
    assert!(out.contains("Backed up") && out.contains("backup.db"), "{out}");

    // A second backup to the same file is refused and leaves it alone.
    let before = std::fs::read(&backup).unwrap();
    let (ok, _, err) = api_backup(&url, &backup);
    assert!(!ok);
    assert!(err.contains("already exists"), "{err}");
    assert_eq!(std::fs::read(&backup).unwrap(), before);

    // Lose the database (the server stopped first), then restore the backup in its place.
    app.state.db.clone().close().await.unwrap();
    drop(app);
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", live.display()));
    }
    std::fs::copy(&backup, &live).unwrap();

    let restored = TestApp::with(Backend::Sqlite, |s| s.database_url = url.clone()).await;
    assert_eq!(restored.logged_in_as(&cookie).await.as_deref(), Some("keeper"));
    restored.login("keeper", "old password 1").await;
    restored
        .post(
            "/api/denglu",
            json!({"username": "keeper", "password": "wrong password"}),
        )
        .await
        .assert(StatusCode::UNAUTHORIZED);
}

#[test]
fn backup_explains_what_it_cannot_do() {
    let dir = tempfile::tempdir().unwrap();
    let (ok, _, err) = api_backup("postgres://site:secret@127.0.0.1:1/site", &dir.path().join("x.db"));
    assert!(!ok);
    assert!(err.contains("pg_dump") && err.contains("docs/deploy.md"), "{err}");
    assert!(!err.contains("secret"), "the password stays out of messages: {err}");

    let missing = format!("sqlite://{}?mode=rwc", dir.path().join("none.db").display());
    let (ok, _, err) = api_backup(&missing, &dir.path().join("x.db"));
    assert!(!ok);
    assert!(err.contains("there is no database"), "{err}");
    assert!(!dir.path().join("none.db").exists(), "no empty database was made");
}
