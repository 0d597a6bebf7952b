//! `site watch`: rebuild on every change to content, locales, templates, static files, the site
//! config or the UI sources. The server's dev mode (`api serve --dev`) sees `dist/` change and
//! reloads open pages.

use crate::site::{build, BuildOptions};
use anyhow::{Context, Result};
use notify::{RecursiveMode, Watcher};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::mpsc;
use std::time::Duration;

/// Changes closer together than this are one rebuild (an editor saves in several writes).
const SETTLE: Duration = Duration::from_millis(80);

fn rebuild_ui(root: &Path) -> Result<()> {
    let status = Command::new("npm")
        .args(["--prefix", "ui", "run", "--silent", "build"])
        .current_dir(root)
        .status()
        .context("Failed to run `npm --prefix ui run build`")?;
    anyhow::ensure!(status.success(), "the UI build failed ({status})");
    Ok(())
}

fn report(result: Result<crate::site::BuildReport>) {
    match result {
        Ok(report) => {
            // Every rebuild repeats them, stale translations among them: the owner is looking here.
            for warning in &report.warnings {
                eprintln!("warning: {warning}");
            }
            eprintln!("{}", report.summary())
        }
        Err(e) => eprintln!("Build failed: {}", crate::describe_error(&e)),
    }
}

pub fn watch(options: &BuildOptions) -> Result<()> {
    report(build(options));
    let ui_src = options.root.join("ui/src");
    let mut watched: Vec<PathBuf> = ["content", "locales", "static", "site-config.yaml"]
        .iter()
        .map(|p| options.root.join(p))
        .collect();
    watched.push(options.templates.clone());
    watched.push(ui_src.clone());
    let (tx, rx) = mpsc::channel();
    let mut watcher = notify::recommended_watcher(move |event: notify::Result<notify::Event>| {
        if let Ok(event) = event {
            if !event.kind.is_access() {
                let _ = tx.send(event.paths);
            }
        }
    })?;
    for path in watched.iter().filter(|p| p.exists()) {
        watcher
            .watch(path, RecursiveMode::Recursive)
            .with_context(|| format!("Failed to watch {}", path.display()))?;
    }
    eprintln!("Watching for changes (Ctrl-C to stop)");
    while let Ok(first) = rx.recv() {
        let mut paths = first;
        while let Ok(more) = rx.recv_timeout(SETTLE) {
            paths.extend(more);
        }
        if paths.iter().any(|p| p.starts_with(&ui_src)) {
            if let Err(e) = rebuild_ui(&options.root) {
                eprintln!("{e}");
                continue;
            }
        }
        report(build(options));
    }
    Ok(())
}
