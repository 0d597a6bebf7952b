//! Login latency and throughput over HTTP with the real argon2id parameters: the app on
//! loopback with a fresh SQLite database and one member. Prints one line per figure.

use api::settings::Settings;
use std::sync::Arc;
use std::time::{Duration, Instant};

const USERNAME: &str = "bench_member";
const PASSWORD: &str = "a benchmark password";
const SEQUENTIAL: usize = 100;
const CONCURRENCY: usize = 8;
const THROUGHPUT_SECONDS: u64 = 5;

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let dir = tempfile::tempdir()?;
    let mut settings = Settings::for_data_dir(&dir.path().join("data"), 0);
    // The limits would stop a benchmark that logs in thousands of times from one address.
    settings.rate_limit_scale = 1e9;
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let state = api::app::build_state(settings, api::i18n::Languages::from_sources(&root)?).await?;
    let hash = api::passwords::hash(PASSWORD.into(), api::passwords::HASH_WAIT).await?;
    let username = api::domain::Username::parse(USERNAME).map_err(anyhow::Error::msg)?;
    api::members::insert(&state.db, 0, &username, None, Some(hash), None).await?;

    let app = poem::Route::new().nest("/api", api::app::api_endpoint(state));
    let addr = {
        use poem::listener::{Acceptor, Listener, TcpListener};
        let acceptor = TcpListener::bind("127.0.0.1:0").into_acceptor().await?;
        let addr = *acceptor.local_addr()[0].as_socket_addr().expect("TCP");
        tokio::spawn(poem::Server::new_with_acceptor(acceptor).run(app));
        addr
    };
    let url = Arc::new(format!("http://{addr}/api/denglu"));
    let client = reqwest::Client::new();
    let login = |client: reqwest::Client, url: Arc<String>| async move {
        let resp = client
            .post(url.as_str())
            .header("content-type", "application/json")
            .body(format!(r#"{{"username":"{USERNAME}","password":"{PASSWORD}"}}"#))
            .send()
            .await
            .expect("request");
        assert_eq!(resp.status(), 200, "login failed");
        resp.bytes().await.expect("body");
    };

    // Warm-up: connection, argon2 memory, database pages.
    for _ in 0..5 {
        login(client.clone(), url.clone()).await;
    }
    let mut times = Vec::with_capacity(SEQUENTIAL);
    for _ in 0..SEQUENTIAL {
        let start = Instant::now();
        login(client.clone(), url.clone()).await;
        times.push(start.elapsed());
    }
    times.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    println!("login latency median: {:.1} ms", ms(times[times.len() / 2]));
    println!("login latency p95: {:.1} ms", ms(times[times.len() * 95 / 100]));

    let deadline = Instant::now() + Duration::from_secs(THROUGHPUT_SECONDS);
    let started = Instant::now();
    let workers: Vec<_> = (0..CONCURRENCY)
        .map(|_| {
            let client = client.clone();
            let url = url.clone();
            tokio::spawn(async move {
                let mut done = 0u64;
                while Instant::now() < deadline {
                    login(client.clone(), url.clone()).await;
                    done += 1;
                }
                done
            })
        })
        .collect();
    let mut total = 0;
    for worker in workers {
        total += worker.await?;
    }
    println!(
        "logins per second ({CONCURRENCY} concurrent clients, {} cores): {:.1}",
        std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1),
        total as f64 / started.elapsed().as_secs_f64()
    );
    Ok(())
}
