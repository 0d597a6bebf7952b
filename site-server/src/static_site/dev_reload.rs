//! `make dev` live reload: watch `dist/`, reload the in-memory copy after a rebuild, and tell
//! open pages over Server-Sent Events (`/__dev/events`) so `/__dev/reload.js` reloads them, or
//! shows a failed build's errors over the page until the next good build.
//!
//! `site watch` writes `dist/.dev-build.json` after every build, last: `{"build": n, "errors":
//! null}` or the errors, each `{"file", "line", "message"}` (file and line may be null). Seeing
//! it, the server reloads at once and only the files that changed; other changes to `dist/` (a
//! `site build` by hand) wait for a quiet moment, then reload the files the file watch named
//! (every file of a folder that appeared), or all of `dist/` when it lost events or many changed.

use super::files::Site;
use super::SiteCell;
use bytes::Bytes;
use notify::event::{AccessKind, AccessMode, EventKind};
use notify::{RecommendedWatcher, RecursiveMode, Watcher};
use poem::http::header::CACHE_CONTROL;
use poem::{Body, Response};
use site_contract::{DevBuild, DEV_BUILD_FILE as STATUS_FILE, SITE_FACTS_FILE};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Arc, Mutex, Weak};
use std::time::Duration;
use tokio::sync::broadcast;

/// A rebuild writes many files; without the watcher's status, wait for this much quiet before
/// reloading once.
const DEBOUNCE: Duration = Duration::from_millis(100);
const KEEP_ALIVE: Duration = Duration::from_secs(15);
/// More changed files than this are read as a new load of `dist/`, not one by one.
const PATCH_LIMIT: usize = 2000;

/// The client: reload on `reload`; on reconnecting (server restarted), reload if the build
/// changed meanwhile. EventSource retries by itself, so errors are left quiet.
pub const RELOAD_JS: &str = r#"// Dev-only live reload (served by `api serve --dev`).
const source = new EventSource('/__dev/events');
let build = null;
source.addEventListener('hello', (event) => {
  if (build !== null && build !== event.data) location.reload();
  build = event.data;
});
source.addEventListener('reload', () => location.reload());
// A failed build: its errors (file, line, message) over the page until the next good build.
let overlay = null;
source.addEventListener('build-error', (event) => {
  overlay?.remove();
  overlay = document.createElement('div');
  overlay.id = 'dev-build-errors';
  overlay.setAttribute('role', 'alert');
  overlay.style.cssText =
    'position:fixed;inset:0;z-index:2147483647;overflow:auto;margin:0;padding:2rem;' +
    'background:rgba(24,0,0,.94);color:#fff;font:15px/1.5 ui-monospace,monospace;white-space:pre-wrap';
  for (const error of JSON.parse(event.data)) {
    const line = document.createElement('p');
    if (error.file) {
      const place = document.createElement('strong');
      place.style.color = '#ff9c9c';
      place.textContent = error.line ? `${error.file}:${error.line}` : error.file;
      line.append(place, ': ');
    }
    line.append(error.message);
    overlay.append(line);
  }
  document.body.append(overlay);
});
source.addEventListener('build-ok', () => {
  overlay?.remove();
  overlay = null;
});
source.onerror = () => {};
"#;

/// What open pages are told.
#[derive(Clone)]
enum DevEvent {
    /// `dist/` changed: its new build id.
    Reload(String),
    /// The last build failed: its errors as JSON.
    Errors(String),
    /// A good build after a failed one that changed nothing.
    Ok,
}

pub struct DevReload {
    events: broadcast::Sender<DevEvent>,
    /// The errors of the last build while it stays failed, for pages opened meanwhile.
    errors: Arc<Mutex<Option<String>>>,
    // Dropping the watcher ends the reload thread.
    _watcher: Arc<Mutex<RecommendedWatcher>>,
}

impl DevReload {
    pub fn start(dist_dir: &Path, site: Arc<SiteCell>) -> anyhow::Result<DevReload> {
        let dist_dir = std::fs::canonicalize(dist_dir)?;
        let (changes_tx, changes_rx) = mpsc::channel();
        let watched = dist_dir.clone();
        let mut watcher = notify::recommended_watcher(move |event: notify::Result<notify::Event>| {
            if let Ok(event) = event {
                if event.need_rescan() {
                    let _ = changes_tx.send(Change::Unknown);
                } else if is_change(&event.kind) && event.paths.iter().any(|p| p.starts_with(&watched)) {
                    let _ = changes_tx.send(Change::Files(event.paths));
                }
            }
        })?;
        watcher.watch(&dist_dir, RecursiveMode::Recursive)?;
        // A build that deletes and recreates dist/ drops the recursive watch; the parent sees
        // dist/ come back so the watch can be renewed.
        if let Some(parent) = dist_dir.parent() {
            let _ = watcher.watch(parent, RecursiveMode::NonRecursive);
        }
        let watcher = Arc::new(Mutex::new(watcher));
        let (events, _) = broadcast::channel(16);
        let errors = Arc::new(Mutex::new(None));
        let reloader = Reloader {
            dist_dir,
            site,
            events: events.clone(),
            errors: errors.clone(),
            watcher: Arc::downgrade(&watcher),
        };
        std::thread::Builder::new()
            .name("dist-watcher".into())
            .spawn(move || reloader.run(changes_rx))?;
        Ok(DevReload {
            events,
            errors,
            _watcher: watcher,
        })
    }

    pub fn script(&self) -> Response {
        Response::builder()
            .content_type("text/javascript")
            .header(CACHE_CONTROL, "no-cache")
            .body(RELOAD_JS)
    }

    pub fn event_stream(&self, build_id: &str) -> Response {
        let mut hello = format!("retry: 1000\nevent: hello\ndata: {build_id}\n\n");
        if let Some(errors) = self.errors.lock().ok().and_then(|e| e.clone()) {
            hello.push_str(&format!("event: build-error\ndata: {errors}\n\n"));
        }
        let hello = Bytes::from(hello);
        let receiver = self.events.subscribe();
        let stream = futures_util::stream::unfold((receiver, Some(hello)), |(mut receiver, first)| async move {
            if let Some(first) = first {
                return Some((Ok::<_, std::io::Error>(first), (receiver, None)));
            }
            let chunk = tokio::select! {
                message = receiver.recv() => match message {
                    Ok(DevEvent::Reload(build_id)) => Bytes::from(format!("event: reload\ndata: {build_id}\n\n")),
                    Ok(DevEvent::Errors(errors)) => Bytes::from(format!("event: build-error\ndata: {errors}\n\n")),
                    Ok(DevEvent::Ok) => Bytes::from_static(b"event: build-ok\ndata: \n\n"),
                    Err(broadcast::error::RecvError::Lagged(_)) => Bytes::from_static(b"event: reload\ndata: \n\n"),
                    Err(broadcast::error::RecvError::Closed) => return None,
                },
                _ = tokio::time::sleep(KEEP_ALIVE) => Bytes::from_static(b": keep-alive\n\n"),
            };
            Some((Ok(chunk), (receiver, None)))
        });
        Response::builder()
            .content_type("text/event-stream")
            .header(CACHE_CONTROL, "no-cache")
            .body(Body::from_bytes_stream(stream))
    }
}

/// Reading files (ours included) is not a change; writes, creations, removals and renames are.
fn is_change(kind: &EventKind) -> bool {
    match kind {
        EventKind::Access(AccessKind::Close(AccessMode::Write)) => true,
        EventKind::Access(_) => false,
        _ => true,
    }
}

/// What the watcher of `dist/` saw.
enum Change {
    Files(Vec<PathBuf>),
    /// Events were lost: anything may have changed.
    Unknown,
}

/// The files changed since the last reload, relative to `dist/`.
#[derive(Default)]
struct Pending {
    files: BTreeSet<String>,
    /// Folders that appeared, whose files are read at the reload (`read_folders`).
    folders: BTreeSet<PathBuf>,
    unknown: bool,
    status: bool,
}

impl Pending {
    /// The files a one-page rebuild of the watcher says it wrote or removed: all that changed,
    /// so events the file watch lost are no reason to read every file again. (They are lost at
    /// 10,000 pages x 3: the server's own reads fill the kernel's event queue with opens.)
    fn written_by_watcher(&mut self, files: Vec<String>) {
        self.files.extend(
            files
                .into_iter()
                .filter(|f| !f.split('/').any(|part| part.starts_with('.'))),
        );
        self.unknown = false;
    }

    fn add(&mut self, change: Change, dist_dir: &Path) {
        let Change::Files(paths) = change else {
            self.unknown = true;
            return;
        };
        for path in paths {
            let Ok(relative) = path.strip_prefix(dist_dir) else {
                continue;
            };
            let relative = dist_name(relative);
            if relative.is_empty() {
                // dist/ itself went or came back (a clean build): its watch must be renewed.
                self.unknown = true;
            } else if relative == STATUS_FILE {
                self.status = true;
            } else if relative.split('/').any(|part| part.starts_with('.')) {
                continue;
            } else if path.is_dir() {
                self.folders.insert(path);
            } else {
                self.files.insert(relative);
            }
        }
    }

    /// The files of the folders that appeared, as they are now: after the quiet the reload waits
    /// for, not when the folder's creation was seen. The watch of a new folder is added only once
    /// its creation is seen, so files written into it at once (a build adding a section, or a
    /// page with its own folder) bring no event of their own.
    fn read_folders(&mut self, dist_dir: &Path) {
        for folder in std::mem::take(&mut self.folders) {
            let files = walkdir::WalkDir::new(folder)
                .into_iter()
                .filter_entry(|entry| !entry.file_name().to_string_lossy().starts_with('.'))
                .filter_map(Result::ok)
                .filter(|entry| entry.file_type().is_file());
            for entry in files {
                if let Ok(relative) = entry.path().strip_prefix(dist_dir) {
                    self.files.insert(dist_name(relative));
                }
            }
        }
    }
}

/// A path inside `dist/` as the site names its files: relative, with `/` between its parts.
fn dist_name(relative: &Path) -> String {
    relative.to_string_lossy().replace('\\', "/")
}

struct Reloader {
    dist_dir: PathBuf,
    site: Arc<SiteCell>,
    events: broadcast::Sender<DevEvent>,
    errors: Arc<Mutex<Option<String>>>,
    watcher: Weak<Mutex<RecommendedWatcher>>,
}

impl Reloader {
    fn run(self, changes: mpsc::Receiver<Change>) {
        // recv fails once the watcher (and with it the sender) is dropped.
        while let Ok(change) = changes.recv() {
            let mut pending = Pending::default();
            pending.add(change, &self.dist_dir);
            // The watcher's status comes after its last write: while it runs, wait for that
            // (a feed written after the pages must not reload them half-built), else for quiet.
            let watcher_runs = self.dist_dir.join(STATUS_FILE).exists();
            while !pending.status {
                let wait = if watcher_runs { KEEP_ALIVE } else { DEBOUNCE };
                match changes.recv_timeout(wait) {
                    Ok(change) => pending.add(change, &self.dist_dir),
                    Err(RecvTimeoutError::Timeout) => break,
                    Err(RecvTimeoutError::Disconnected) => return,
                }
            }
            self.reload(pending);
        }
    }

    fn reload(&self, mut pending: Pending) {
        let had_errors = self.errors.lock().map(|e| e.is_some()).unwrap_or(false);
        let status = pending.status.then(|| DevBuild::read(&self.dist_dir)).flatten();
        let errors = (status.as_ref().and_then(|s| s.errors.as_ref()))
            .map(|errors| serde_json::to_string(errors).expect("errors serialise"));
        if let Some(files) = status.and_then(|s| s.files) {
            pending.written_by_watcher(files);
        }
        pending.read_folders(&self.dist_dir);
        if let Ok(mut current) = self.errors.lock() {
            current.clone_from(&errors);
        }
        if let Some(errors) = errors {
            let _ = self.events.send(DevEvent::Errors(errors));
        }
        let reloaded = (pending.unknown || !pending.files.is_empty()) && self.reload_files(&pending);
        if had_errors && !reloaded && self.errors.lock().map(|e| e.is_none()).unwrap_or(false) {
            let _ = self.events.send(DevEvent::Ok);
        }
    }

    /// Reloads the changed files (or all of `dist/`); true when open pages were told to reload.
    fn reload_files(&self, pending: &Pending) -> bool {
        // Only when dist/ itself went or events were lost: watching it again walks every folder
        // of the site (seconds at 30,000 pages), and the watch follows new folders by itself.
        if let Some(watcher) = self.watcher.upgrade().filter(|_| pending.unknown) {
            if let Ok(mut watcher) = watcher.lock() {
                let _ = watcher.watch(&self.dist_dir, RecursiveMode::Recursive);
            }
        }
        let current = self.site.get();
        let whole = pending.unknown || pending.files.len() > PATCH_LIMIT || pending.files.contains(SITE_FACTS_FILE);
        let loaded = if whole {
            Site::load(&self.dist_dir)
        } else {
            // A file that could not be read is read again with all the others.
            (current.with_changes(&self.dist_dir, &pending.files)).or_else(|_| Site::load(&self.dist_dir))
        };
        match loaded {
            Ok(site) => {
                let changed = site.build_id != current.build_id;
                let build_id = site.build_id.clone();
                self.site.set(site);
                if changed {
                    tracing::info!("dist/ changed: reloaded, telling open pages");
                    let _ = self.events.send(DevEvent::Reload(build_id));
                }
                changed
            }
            // Mid-build states are expected; the build's last write brings another event.
            Err(e) => {
                tracing::warn!("dist/ changed but could not be loaded yet: {e:#}");
                false
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_new_folder_brings_the_files_written_into_it() {
        let root = tempfile::tempdir().unwrap();
        let dist = root.path();
        std::fs::create_dir_all(dist.join("tools/calc")).unwrap();
        let mut pending = Pending::default();
        // Only the folder's creation was seen; its files are written after that, before it was
        // watched.
        pending.add(Change::Files(vec![dist.join("tools")]), dist);
        for file in [
            "tools/index.html",
            "tools/index.html.br",
            "tools/calc/index.html",
            "tools/.partial",
        ] {
            std::fs::write(dist.join(file), "x").unwrap();
        }
        assert!(!pending.unknown);
        pending.read_folders(dist);
        assert_eq!(
            pending.files.iter().map(String::as_str).collect::<Vec<_>>(),
            ["tools/calc/index.html", "tools/index.html", "tools/index.html.br"]
        );
    }

    #[test]
    fn the_watchers_list_of_files_stands_in_for_lost_events() {
        let dist = Path::new("/site/dist");
        let mut pending = Pending::default();
        pending.add(Change::Files(vec![dist.join("notes/a/index.html")]), dist);
        pending.add(Change::Unknown, dist);
        pending.add(Change::Files(vec![dist.join(STATUS_FILE)]), dist);
        assert!(pending.unknown && pending.status);
        // Without the list every file is read again; with it, only the files it names.
        pending.written_by_watcher(vec!["notes/b/index.html".into(), ".dev-build.json.partial".into()]);
        assert!(!pending.unknown);
        assert_eq!(
            pending.files.iter().map(String::as_str).collect::<Vec<_>>(),
            ["notes/a/index.html", "notes/b/index.html"]
        );
    }
}
