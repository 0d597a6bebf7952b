//! `make dev` live reload: watch `dist/`, reload the in-memory copy after a rebuild, and tell
//! open pages over Server-Sent Events (`/__dev/events`) so `/__dev/reload.js` reloads them.

use super::files::Site;
use super::SiteCell;
use bytes::Bytes;
use notify::event::{AccessKind, AccessMode, EventKind};
use notify::{RecommendedWatcher, RecursiveMode, Watcher};
use poem::http::header::CACHE_CONTROL;
use poem::{Body, Response};
use std::path::{Path, PathBuf};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Arc, Mutex, Weak};
use std::time::Duration;
use tokio::sync::broadcast;

/// A rebuild writes many files; wait for this much quiet before reloading once.
const DEBOUNCE: Duration = Duration::from_millis(100);
const KEEP_ALIVE: Duration = Duration::from_secs(15);

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
source.onerror = () => {};
"#;

pub struct DevReload {
    events: broadcast::Sender<String>,
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
                if is_change(&event.kind) && event.paths.iter().any(|p| p.starts_with(&watched)) {
                    let _ = changes_tx.send(());
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
        let reloader = Reloader {
            dist_dir,
            site,
            events: events.clone(),
            watcher: Arc::downgrade(&watcher),
        };
        std::thread::Builder::new()
            .name("dist-watcher".into())
            .spawn(move || reloader.run(changes_rx))?;
        Ok(DevReload {
            events,
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
        let hello = Bytes::from(format!("retry: 1000\nevent: hello\ndata: {build_id}\n\n"));
        let receiver = self.events.subscribe();
        let stream = futures_util::stream::unfold((receiver, Some(hello)), |(mut receiver, first)| async move {
            if let Some(first) = first {
                return Some((Ok::<_, std::io::Error>(first), (receiver, None)));
            }
            let chunk = tokio::select! {
                message = receiver.recv() => match message {
                    Ok(build_id) => Bytes::from(format!("event: reload\ndata: {build_id}\n\n")),
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

struct Reloader {
    dist_dir: PathBuf,
    site: Arc<SiteCell>,
    events: broadcast::Sender<String>,
    watcher: Weak<Mutex<RecommendedWatcher>>,
}

impl Reloader {
    fn run(self, changes: mpsc::Receiver<()>) {
        // recv fails once the watcher (and with it the sender) is dropped.
        while changes.recv().is_ok() {
            loop {
                match changes.recv_timeout(DEBOUNCE) {
                    Ok(()) => continue,
                    Err(RecvTimeoutError::Timeout) => break,
                    Err(RecvTimeoutError::Disconnected) => return,
                }
            }
            self.reload();
        }
    }

    fn reload(&self) {
        if let Some(watcher) = self.watcher.upgrade() {
            if let Ok(mut watcher) = watcher.lock() {
                let _ = watcher.watch(&self.dist_dir, RecursiveMode::Recursive);
            }
        }
        match Site::load(&self.dist_dir) {
            Ok(site) => {
                let changed = site.build_id != self.site.get().build_id;
                let build_id = site.build_id.clone();
                self.site.set(site);
                if changed {
                    tracing::info!("dist/ changed: reloaded, telling open pages");
                    let _ = self.events.send(build_id);
                }
            }
            // Mid-build states are expected; the build's last write brings another event.
            Err(e) => tracing::warn!("dist/ changed but could not be loaded yet: {e:#}"),
        }
    }
}
