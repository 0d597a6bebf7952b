//! `api serve` as a process: the address it listens on, its log format, and how it stops.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// A running `api serve` with a fresh data directory and a minimal dist/.
struct Served {
    child: Child,
    addr: SocketAddr,
    log: Arc<Mutex<Vec<String>>>,
    _dir: tempfile::TempDir,
}

fn free_addr(ip: &str) -> SocketAddr {
    TcpListener::bind((ip, 0)).unwrap().local_addr().unwrap()
}

/// Waits for `done` to hold, failing after 30 s (a condition, not a timed assertion).
fn wait_until(what: &str, mut done: impl FnMut() -> bool) {
    let deadline = Instant::now() + Duration::from_secs(30);
    while !done() {
        assert!(Instant::now() < deadline, "gave up waiting until {what}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// `api serve` in a fresh directory with a minimal dist/ and its own data directory.
fn serve_command(dir: &tempfile::TempDir) -> Command {
    let dist = crate::process::minimal_dist(dir.path());
    let mut command = Command::new(env!("CARGO_BIN_EXE_api"));
    command
        .arg("serve")
        .env_remove("DATABASE_URL")
        .env_remove("LISTEN")
        .env("DIST_DIR", &dist)
        .env("DATA_DIR", dir.path().join("data"))
        .env("RUST_LOG", "info");
    command
}

impl Served {
    fn start(env: &[(&str, String)]) -> Served {
        let dir = tempfile::tempdir().unwrap();
        let mut addr = free_addr("127.0.0.1");
        let mut command = serve_command(&dir);
        command
            .env("PORT", addr.port().to_string())
            .stdout(Stdio::null())
            .stderr(Stdio::piped());
        for (name, value) in env {
            command.env(name, value);
            if *name == "LISTEN" {
                addr = value.parse().unwrap();
            }
        }
        let mut child = command.spawn().expect("start api serve");
        let log = Arc::new(Mutex::new(Vec::new()));
        let stderr = BufReader::new(child.stderr.take().unwrap());
        let lines = log.clone();
        std::thread::spawn(move || {
            for line in stderr.lines().map_while(Result::ok) {
                lines.lock().unwrap().push(line);
            }
        });
        let served = Served {
            child,
            addr,
            log,
            _dir: dir,
        };
        wait_until("the server logs that it serves", || {
            served.log_has("serving on") || served.log_has("Error")
        });
        assert!(served.log_has("serving on"), "{}", served.log());
        served
    }

    fn log(&self) -> String {
        self.log.lock().unwrap().join("\n")
    }

    fn log_has(&self, text: &str) -> bool {
        self.log.lock().unwrap().iter().any(|l| l.contains(text))
    }

    fn signal(&self, name: &str) {
        let status = Command::new("kill")
            .args([format!("-{name}"), self.child.id().to_string()])
            .status()
            .unwrap();
        assert!(status.success());
    }

    fn wait_for_exit(&mut self) -> ExitStatus {
        let mut status = None;
        wait_until("the server exits", || {
            status = self.child.try_wait().unwrap();
            status.is_some()
        });
        status.unwrap()
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Reads one HTTP/1.1 response with a Content-Length body: (head, body).
fn read_response(stream: &mut TcpStream) -> (String, String) {
    let mut reader = BufReader::new(stream);
    let mut head = String::new();
    loop {
        let mut line = String::new();
        assert!(
            reader.read_line(&mut line).unwrap() > 0,
            "connection closed mid-head: {head}"
        );
        if line == "\r\n" {
            break;
        }
        head.push_str(&line);
    }
    let length = head
        .lines()
        .find_map(|l| {
            l.to_ascii_lowercase()
                .strip_prefix("content-length:")
                .map(|v| v.trim().to_string())
        })
        .map_or(0, |v| v.parse().unwrap());
    let mut body = vec![0; length];
    reader.read_exact(&mut body).unwrap();
    (head, String::from_utf8(body).unwrap())
}

fn get(addr: SocketAddr, path: &str) -> (String, String) {
    let mut stream = TcpStream::connect(addr).unwrap();
    write!(
        stream,
        "GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    read_response(&mut stream)
}

#[test]
fn listens_on_the_address_it_is_given() {
    // 127.0.0.2 is loopback too, and a listener there does not answer on 127.0.0.1.
    let addr = free_addr("127.0.0.2");
    let served = Served::start(&[("LISTEN", addr.to_string())]);
    let (head, _) = get(addr, "/");
    assert!(head.starts_with("HTTP/1.1 200"), "{head}");
    assert!(TcpStream::connect(("127.0.0.1", addr.port())).is_err());
    assert!(served.log_has(&format!("serving on http://{addr}")), "{}", served.log());
}

#[test]
fn listen_names_an_address_it_cannot_use() {
    let dir = tempfile::tempdir().unwrap();
    let taken = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = taken.local_addr().unwrap();
    let out = serve_command(&dir)
        .args(["--listen", &addr.to_string()])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains(&format!("cannot listen on {addr}")), "{err}");
    let out = serve_command(&dir).env("LISTEN", "localhost").output().unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("invalid value 'localhost'") && err.contains("--listen"),
        "{err}"
    );
}

#[test]
fn json_logs_are_one_object_per_line() {
    let served = Served::start(&[("LOG_FORMAT", "json".into())]);
    get(served.addr, "/");
    let lines = served.log.lock().unwrap().clone();
    assert!(!lines.is_empty());
    for line in &lines {
        let value: serde_json::Value = serde_json::from_str(line).unwrap_or_else(|e| panic!("not JSON ({e}): {line}"));
        assert!(value["level"].is_string() && value["timestamp"].is_string(), "{line}");
    }
    assert!(
        lines.iter().any(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            v["message"] == format!("serving on http://{}", served.addr)
        }),
        "{lines:?}"
    );
}

#[test]
fn sigterm_finishes_the_request_in_flight_then_exits_cleanly() {
    let mut served = Served::start(&[]);
    let addr = served.addr;
    // An idle keep-alive connection, and a login whose body is still on its way: `Expect:
    // 100-continue` makes the server say when the handler has started reading it.
    let mut idle = TcpStream::connect(addr).unwrap();
    write!(idle, "GET / HTTP/1.1\r\nHost: {addr}\r\n\r\n").unwrap();
    assert!(read_response(&mut idle).0.starts_with("HTTP/1.1 200"));
    let body = r#"{"username":"nobody","password":"not the password"}"#;
    let mut slow = TcpStream::connect(addr).unwrap();
    write!(
        slow,
        "POST /api/denglu HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\nExpect: 100-continue\r\n\r\n",
        body.len()
    )
    .unwrap();
    let mut reader = BufReader::new(slow.try_clone().unwrap());
    let mut line = String::new();
    reader.read_line(&mut line).unwrap();
    assert!(line.starts_with("HTTP/1.1 100"), "{line}");
    reader.read_line(&mut line).unwrap();

    served.signal("TERM");
    wait_until("new connections are refused", || TcpStream::connect(addr).is_err());
    // The idle connection is closed; the one in flight is answered, then closed.
    let mut rest = Vec::new();
    idle.read_to_end(&mut rest).unwrap();
    assert!(rest.is_empty(), "{}", String::from_utf8_lossy(&rest));
    slow.write_all(body.as_bytes()).unwrap();
    let (head, answer) = read_response(&mut slow);
    assert!(head.starts_with("HTTP/1.1 401"), "{head}{answer}");
    assert!(head.to_ascii_lowercase().contains("connection: close"), "{head}");
    assert!(answer.contains("Login failed"), "{answer}");

    let status = served.wait_for_exit();
    assert!(status.success(), "{status}\n{}", served.log());
    assert!(served.log_has("SIGTERM"), "{}", served.log());
}

#[test]
fn sigint_stops_an_idle_server_cleanly() {
    let mut served = Served::start(&[]);
    served.signal("INT");
    let status = served.wait_for_exit();
    assert!(status.success(), "{status}\n{}", served.log());
}

/// A feed host that accepts connections and never answers: `/api/feed` waits on it (up to the
/// feed's own 10 s fetch timeout, after which it would answer 200 from an empty cache).
fn silent_feed_host() -> (String, std::thread::JoinHandle<()>) {
    let host = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}/feed.xml", host.local_addr().unwrap());
    let held = std::thread::spawn(move || {
        let mut open = Vec::new();
        for stream in host.incoming().take(4).map_while(Result::ok) {
            open.push(stream);
        }
    });
    (url, held)
}

#[test]
fn a_request_past_the_timeout_is_answered_503() {
    let (feed_url, _held) = silent_feed_host();
    let served = Served::start(&[("REQUEST_TIMEOUT_SECONDS", "1".into()), ("BLOG_FEED_URL", feed_url)]);
    let (head, body) = get(served.addr, "/api/feed");
    assert!(head.starts_with("HTTP/1.1 503"), "{head}{body}");
    assert!(head.to_ascii_lowercase().contains("retry-after: 5"), "{head}");
    assert!(body.contains("too long"), "{body}");
    wait_until("the timeout is logged", || served.log_has("request_timed_out"));
    assert!(served.log_has("GET /api/feed"), "{}", served.log());
    // The server goes on answering.
    let (head, _) = get(served.addr, "/");
    assert!(head.starts_with("HTTP/1.1 200"), "{head}");
}

/// Sends a keep-alive GET / and reads its answer: the connection stays open afterwards.
fn keep_open(addr: SocketAddr) -> TcpStream {
    let mut stream = TcpStream::connect(addr).unwrap();
    write!(stream, "GET / HTTP/1.1\r\nHost: {addr}\r\n\r\n").unwrap();
    let (head, _) = read_response(&mut stream);
    assert!(head.starts_with("HTTP/1.1 200"), "{head}");
    stream
}

#[test]
fn connections_beyond_the_cap_wait_until_one_closes() {
    let served = Served::start(&[("MAX_CONNECTIONS", "2".into())]);
    let first = keep_open(served.addr);
    let _second = keep_open(served.addr);
    // The third connects (the kernel's backlog) but is not served while both are open. This
    // wait can only let a broken cap pass on a very slow machine, never fail a working one.
    let mut third = TcpStream::connect(served.addr).unwrap();
    write!(
        third,
        "GET / HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n\r\n",
        served.addr
    )
    .unwrap();
    third.set_read_timeout(Some(Duration::from_millis(500))).unwrap();
    let mut byte = [0; 1];
    let early = third.peek(&mut byte);
    assert!(
        early
            .as_ref()
            .is_err_and(|e| e.kind() == std::io::ErrorKind::WouldBlock),
        "the third connection was answered while two were open: {early:?}"
    );
    drop(first);
    third.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    let (head, _) = read_response(&mut third);
    assert!(head.starts_with("HTTP/1.1 200"), "{head}");
}

#[test]
fn the_connection_cap_and_the_timeout_must_be_at_least_one() {
    let dir = tempfile::tempdir().unwrap();
    for (name, value) in [("MAX_CONNECTIONS", "0"), ("REQUEST_TIMEOUT_SECONDS", "0")] {
        let out = serve_command(&dir).env(name, value).output().unwrap();
        assert!(!out.status.success(), "{name}={value}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(&name.to_ascii_lowercase().replace('_', "-")), "{err}");
    }
}
