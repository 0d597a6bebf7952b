//! `api serve` under a crowd: password checks queue for a turn at argon2 (one per core), so
//! memory stays bounded and every request gets an answer.

use crate::helpers::{client_from, tally, Reply};
use crate::process::ServeProcess;
use futures_util::future::join_all;
use serde_json::json;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_crowd_of_logins_is_answered_in_bounded_memory() {
    let server = ServeProcess::start(&[]).await;
    let base = server.base();
    // Fifty clients, ten logins each, every one for its own username: no limit stops them
    // before argon2, so all 500 want a password check at once.
    let clients: Vec<reqwest::Client> = (0..50).map(|i| client_from(&format!("127.0.1.{}", i + 1))).collect();
    let replies = join_all((0..500).map(|i| {
        let client = &clients[i % clients.len()];
        let url = format!("{base}/api/denglu");
        async move {
            let resp = client
                .post(url)
                .header("accept-language", "ja")
                .json(&json!({"username": format!("crowd{i}"), "password": "a wrong password"}))
                .send()
                .await
                .unwrap_or_else(|e| panic!("request {i} got no answer: {e}"));
            Reply::from_reqwest(resp).await
        }
    }))
    .await;
    let counts = tally(&replies);
    assert!(counts.keys().all(|s| [401, 429, 503].contains(s)), "{counts:?}");
    for busy in replies.iter().filter(|r| r.status == 503) {
        assert_eq!(busy.retry_after(), api::passwords::BUSY_RETRY_SECONDS);
        assert_eq!(
            busy.field("message"),
            "サーバーが混み合っています。数秒後にもう一度お試しください。"
        );
    }
    let peak_mib = server.status_kib("VmHWM") / 1024;
    eprintln!("500 logins at once: {counts:?}, peak memory {peak_mib} MiB");
    assert!(peak_mib < 200, "peak resident memory {peak_mib} MiB");
}

/// Reads until the server closes the connection; false if it is still open after `limit`
/// (a guard against a hung test, far longer than the server's own timeouts).
async fn closed_by_server(stream: &mut tokio::net::TcpStream, limit: std::time::Duration) -> (bool, String) {
    use tokio::io::AsyncReadExt;
    let mut seen = Vec::new();
    let mut buf = [0u8; 1024];
    let read_all = async {
        loop {
            match stream.read(&mut buf).await {
                Ok(0) | Err(_) => return,
                Ok(n) => seen.extend_from_slice(&buf[..n]),
            }
        }
    };
    let closed = tokio::time::timeout(limit, read_all).await.is_ok();
    (closed, String::from_utf8_lossy(&seen).into_owned())
}

async fn connect_from(source: &str, to: std::net::SocketAddr) -> tokio::net::TcpStream {
    let socket = tokio::net::TcpSocket::new_v4().unwrap();
    socket.bind(format!("{source}:0").parse().unwrap()).unwrap();
    socket.connect(to).await.unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn slow_and_idle_connections_are_closed() {
    use tokio::io::AsyncWriteExt;
    let server = ServeProcess::start(&[]).await;
    let guard = std::time::Duration::from_secs(120);
    // Slowloris: headers that never finish, from several clients at once.
    let mut slow = Vec::new();
    for n in 1..=10 {
        let mut stream = connect_from(&format!("127.0.4.{n}"), server.addr).await;
        stream
            .write_all(b"GET / HTTP/1.1\r\nHost: x\r\nX-Slow: 1")
            .await
            .unwrap();
        slow.push(stream);
    }
    // A body that stops halfway.
    let mut trickle = connect_from("127.0.4.20", server.addr).await;
    trickle
        .write_all(b"POST /api/denglu HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"user")
        .await
        .unwrap();
    // A keep-alive connection left idle after one request.
    let mut idle = connect_from("127.0.4.21", server.addr).await;
    idle.write_all(b"GET /api/denglu HTTP/1.1\r\nHost: x\r\n\r\n")
        .await
        .unwrap();

    // Meanwhile everyone else is served.
    let client = crate::helpers::client_from("127.0.4.30");
    let ok = client
        .get(format!("{}/api/denglu", server.base()))
        .send()
        .await
        .unwrap();
    assert_eq!(ok.status(), 200);

    for (n, stream) in slow.iter_mut().enumerate() {
        let (closed, _) = closed_by_server(stream, guard).await;
        assert!(closed, "slow connection {n} is still open");
    }
    let (closed, answer) = closed_by_server(&mut trickle, guard).await;
    assert!(closed && answer.starts_with("HTTP/1.1 408"), "{answer}");
    assert!(answer.contains("too slowly"), "{answer}");
    let (closed, answer) = closed_by_server(&mut idle, guard).await;
    assert!(closed && answer.starts_with("HTTP/1.1 200"), "{answer}");
}
