//! `site watch`: rebuild on every change to content, locales, templates, static files, the site
//! config or the UI sources, keeping the site in memory so a Markdown edit rebuilds only what it
//! touches (`plan`). After each build it writes `dist/.dev-build.json`, the outcome the
//! server's dev mode (`api serve --dev`) passes to open pages: reload, or show the error.

use crate::diagnostics::{describe_error, of_error, Diagnostic};
use crate::plan::{BuildOptions, BuildReport, Resident};
use anyhow::{Context, Result};
use notify::{RecursiveMode, Watcher};
use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::mpsc;
use std::time::Duration;

/// Changes closer together than this are one rebuild (an editor saves in a few writes).
const SETTLE: Duration = Duration::from_millis(15);

/// The outcome of the last build, for the server: written last, after every page.
pub use site_contract::DEV_BUILD_FILE as STATUS_FILE;
use site_contract::{BuildError, DevBuild};

/// A problem as the dev overlay shows it (`site_contract::DevBuild`, JSON).
fn overlay_error(problem: Diagnostic) -> BuildError {
    BuildError {
        file: problem.file,
        line: problem.line,
        message: problem.message,
    }
}

fn rebuild_ui(root: &Path) -> Result<()> {
    let status = Command::new("npm")
        .args(["--prefix", "ui", "run", "--silent", "build"])
        .current_dir(root)
        .status()
        .context("Failed to run `npm --prefix ui run build`")?;
    anyhow::ensure!(status.success(), "the UI build failed ({status})");
    Ok(())
}

/// Prints each outcome and tells the server, printing a failure only when it differs from the
/// last one (an editor's save can come as two changes, which fail alike), and a warning (a
/// stale translation among them) only when the last good build did not have it.
struct Reporter {
    out: PathBuf,
    builds: u64,
    last_error: Option<String>,
    warned: HashSet<String>,
}

impl Reporter {
    fn report(&mut self, result: Result<BuildReport>) {
        self.builds += 1;
        let mut files = None;
        let errors = match result {
            Ok(report) => {
                for warning in report.warnings.iter().filter(|w| !self.warned.contains(*w)) {
                    eprintln!("warning: {warning}");
                }
                eprintln!("{}", report.summary());
                files = report.touched;
                self.warned = report.warnings.into_iter().collect();
                self.last_error = None;
                None
            }
            Err(e) => {
                let text = describe_error(&e);
                if self.last_error.as_deref() != Some(text.as_str()) {
                    eprintln!("Build failed: {text}");
                }
                self.last_error = Some(text);
                Some(of_error(&e).into_iter().map(overlay_error).collect())
            }
        };
        let status = DevBuild {
            build: self.builds,
            errors,
            files,
        };
        let written = serde_json::to_vec(&status)
            .map_err(anyhow::Error::from)
            .and_then(|bytes| write_status(&self.out, &bytes));
        if let Err(e) = written {
            eprintln!("{e:#}");
        }
    }
}

/// Written whole and renamed, so the server never reads half of it.
fn write_status(out: &Path, bytes: &[u8]) -> Result<()> {
    std::fs::create_dir_all(out).with_context(|| format!("Failed to create {}", out.display()))?;
    let partial = out.join(format!("{STATUS_FILE}.partial"));
    std::fs::write(&partial, bytes).with_context(|| format!("Failed to write {}", partial.display()))?;
    std::fs::rename(&partial, out.join(STATUS_FILE)).with_context(|| format!("Failed to write {STATUS_FILE}"))
}

/// What a batch of changed paths asks for.
enum Work {
    Nothing,
    /// The UI's sources changed: build the UI, then the whole site.
    Ui,
    /// These files (below the site's root) changed.
    Files(Vec<PathBuf>),
}

/// Sorts the changes of one batch (absolute paths, as the watcher reports them). A file of
/// `content/` that is not Markdown (an editor's swap or backup file) is no part of the site.
fn work(paths: Vec<PathBuf>, root_abs: &Path, root: &Path) -> Work {
    let ui_src = root_abs.join("ui/src");
    if paths.iter().any(|p| p.starts_with(&ui_src)) {
        return Work::Ui;
    }
    let content = root_abs.join("content");
    let mut files: Vec<PathBuf> = paths
        .into_iter()
        .filter(|p| !(p.starts_with(&content) && p.extension().is_none_or(|e| e != "md") && p.is_file()))
        .map(|p| p.strip_prefix(root_abs).map(|rel| root.join(rel)).unwrap_or(p))
        .collect();
    files.sort();
    files.dedup();
    if files.is_empty() {
        Work::Nothing
    } else {
        Work::Files(files)
    }
}

pub fn watch(options: BuildOptions) -> Result<()> {
    let root = options.root.clone();
    let root_abs = std::fs::canonicalize(if root.as_os_str().is_empty() {
        Path::new(".")
    } else {
        &root
    })
    .with_context(|| format!("Failed to find {}", root.display()))?;
    let mut reporter = Reporter {
        out: options.out.clone(),
        builds: 0,
        last_error: None,
        warned: HashSet::new(),
    };
    let mut watched: Vec<PathBuf> = ["content", "locales", "static", "site-config.yaml", "ui/src"]
        .iter()
        .map(|p| root_abs.join(p))
        .collect();
    watched.push(std::fs::canonicalize(&options.templates).unwrap_or(options.templates.clone()));
    // Watching starts before the first build: a change saved once that build's status is out
    // must bring another build.
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
    let mut site = Resident::new(options);
    reporter.report(site.build_all());
    eprintln!("Watching for changes (Ctrl-C to stop)");
    while let Ok(first) = rx.recv() {
        let mut paths = first;
        while let Ok(more) = rx.recv_timeout(SETTLE) {
            paths.extend(more);
        }
        match work(paths, &root_abs, &root) {
            Work::Nothing => {}
            Work::Ui => {
                let result = rebuild_ui(&site.options().root).and_then(|()| site.build_all());
                reporter.report(result);
            }
            Work::Files(files) => reporter.report(site.rebuild(&files)),
        }
    }
    Ok(())
}
