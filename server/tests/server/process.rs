//! `api serve` as its own process, for what only a whole process shows: its memory, its listener.
#![allow(dead_code)]

use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

pub struct ServeProcess {
    pub child: Child,
    pub addr: std::net::SocketAddr,
    pub dir: tempfile::TempDir,
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

impl ServeProcess {
    /// Starts `api serve` on a free port with a fresh SQLite database, plus `env`, and waits
    /// until it answers.
    pub async fn start(env: &[(&str, &str)]) -> ServeProcess {
        let dir = tempfile::tempdir().unwrap();
        minimal_dist(dir.path());
        let port = free_port();
        let log = std::fs::File::create(dir.path().join("server.log")).unwrap();
        let child = Command::new(env!("CARGO_BIN_EXE_api"))
            .arg("serve")
            .env("PORT", port.to_string())
            .env("DIST_DIR", dir.path().join("dist"))
            .env("DATA_DIR", dir.path().join("data"))
            .env_remove("DATABASE_URL")
            .env("RUST_LOG", "warn")
            .envs(env.iter().copied())
            .stdout(Stdio::null())
            .stderr(log)
            .spawn()
            .expect("start api serve");
        let addr: std::net::SocketAddr = format!("127.0.0.1:{port}").parse().unwrap();
        let process = ServeProcess { child, addr, dir };
        for _ in 0..600 {
            if tokio::net::TcpStream::connect(addr).await.is_ok() {
                return process;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        panic!("api serve never listened on {addr}:\n{}", process.log());
    }

    /// What the server has logged so far (its standard error).
    pub fn log(&self) -> String {
        std::fs::read_to_string(self.dir.path().join("server.log")).unwrap_or_default()
    }

    /// Waits until the log has a line containing `text`.
    pub async fn wait_for_log(&self, text: &str) -> String {
        for _ in 0..600 {
            let log = self.log();
            if log.contains(text) {
                return log;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        panic!("no {text:?} in the log:\n{}", self.log());
    }

    pub fn base(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// A line of /proc/PID/status in KiB, e.g. `VmHWM` (peak resident memory).
    pub fn status_kib(&self, field: &str) -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).unwrap();
        status
            .lines()
            .find_map(|l| l.strip_prefix(&format!("{field}:")))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
            .unwrap_or_else(|| panic!("no {field} in {status}"))
    }

    /// Whether the process is still running.
    pub fn alive(&mut self) -> bool {
        self.child.try_wait().unwrap().is_none()
    }
}

impl Drop for ServeProcess {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A dist/ in `dir` with only the build facts the server needs (`_site.json`: the repository's
/// languages with their API messages, read as `site build` reads them) and a home page.
pub fn minimal_dist(dir: &std::path::Path) -> PathBuf {
    let dist = dir.join("dist");
    std::fs::create_dir_all(&dist).unwrap();
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let config = site_contract::SiteConfig::load(&root.join(site_contract::SITE_CONFIG_FILE)).unwrap();
    let facts = site_contract::SiteFacts {
        aliases: Vec::new(),
        languages: site_contract::site_languages(&config, &root.join("locales")).unwrap(),
        default_language: config.default_language,
        dev: false,
        script_hashes: Vec::new(),
    };
    std::fs::write(
        dist.join(site_contract::SITE_FACTS_FILE),
        serde_json::to_vec(&facts).unwrap(),
    )
    .unwrap();
    std::fs::write(dist.join("index.html"), "<!doctype html><title>home</title>").unwrap();
    dist
}

/// Runs the `api` binary as `command` sets it up: (success, stdout, stderr).
pub fn run_api(
    command: impl FnOnce(&mut std::process::Command) -> &mut std::process::Command,
) -> (bool, String, String) {
    let mut api = std::process::Command::new(env!("CARGO_BIN_EXE_api"));
    let out = command(api.env("RUST_LOG", "warn"))
        .output()
        .expect("run the api binary");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}
