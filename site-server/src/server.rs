//! The HTTP/1.1 listener of `api serve`: connections spread over one single-threaded runtime per
//! core, hyper straight on each TCP stream, every request handed to the app as a poem request.
//!
//! Why not poem's `Server` on the shared multi-threaded runtime (BENCHMARKS.md, static serving):
//! - poem splits each connection into read and write halves, which hides the socket's vectored
//!   writes from hyper; hyper then copies every body into its write buffer. On the whole stream
//!   hyper sends headers and body (a `Bytes` of the in-memory `dist/`) in one `writev`.
//! - On a work-stealing runtime a connection's readiness often wakes another thread; most of the
//!   CPU of a small page went to those wake-ups. Here a connection lives on one thread, like an
//!   nginx worker: the main runtime accepts and hands each connection to a loop in turn.
//!
//! API requests run on the connection's loop too (hopping to another runtime cost a third of
//! their throughput); the slow part of a login, argon2, goes to the blocking pool either way.
//!
//! Shutdown (SIGTERM from systemd, Ctrl-C): the listener closes at once, so new connections are
//! refused and a proxy moves on to another instance; each open connection finishes the request
//! it is answering, if any, then closes; after [`SHUTDOWN_GRACE`] the server stops regardless.

use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper_util::rt::{TokioIo, TokioTimer};
use poem::endpoint::BoxEndpoint;
use poem::http::uri::Scheme;
use poem::web::{LocalAddr, RemoteAddr};
use poem::{Endpoint, Response};
use std::convert::Infallible;
use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;
use tokio::net::{TcpListener, TcpStream};
use tokio::runtime::Handle;
use tokio::sync::{watch, OwnedSemaphorePermit, Semaphore};

/// How long a client has to send a request's headers, and an idle keep-alive connection to
/// start its next request: slow or silent clients (slowloris) cannot hold connections open.
/// A proxy that keeps connections to the instances must close idle ones sooner (the shipped
/// nginx site: `keepalive_timeout 4s` in its upstream), or it may send a request on a
/// connection as this closes it.
pub const HEADER_READ_TIMEOUT: Duration = Duration::from_secs(10);

/// What one instance takes on at once, and how long it may take to answer: without nginx in
/// front, a flood of connections or requests that never finish could otherwise hold the server.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Open connections at most; the next waits in the listen backlog until one closes.
    pub max_connections: usize,
    /// From a request's head to its response's head (a streamed body may go on); past it the
    /// client gets 503.
    pub request_timeout: Duration,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_connections: 500,
            request_timeout: Duration::from_secs(30),
        }
    }
}

/// A wait after a failed accept (out of file descriptors, say), so the loop does not spin.
const ACCEPT_RETRY: Duration = Duration::from_millis(50);

/// How long requests in flight may take to finish once shutdown begins; the systemd unit's
/// TimeoutStopSec (deploy/api@.service) leaves room for it.
pub const SHUTDOWN_GRACE: Duration = Duration::from_secs(10);

type App = Arc<BoxEndpoint<'static, Response>>;

/// Binds the listener, naming the address when that fails (in use, not an address of this host).
pub async fn bind(addr: SocketAddr) -> anyhow::Result<TcpListener> {
    TcpListener::bind(addr)
        .await
        .map_err(|e| anyhow::anyhow!("cannot listen on {addr}: {e}"))
}

/// Resolves on the first SIGTERM or SIGINT.
pub async fn shutdown_signal() {
    use tokio::signal::unix::{signal, SignalKind};
    let (Ok(mut term), Ok(mut int)) = (signal(SignalKind::terminate()), signal(SignalKind::interrupt())) else {
        tracing::warn!("cannot watch for SIGTERM/SIGINT: the server stops only when killed");
        return std::future::pending().await;
    };
    let name = tokio::select! {
        _ = term.recv() => "SIGTERM",
        _ = int.recv() => "SIGINT",
    };
    tracing::info!("{name}: finishing the requests in flight, then stopping");
}

/// Serves `app` on `listener` until `shutdown` resolves, then lets open connections finish the
/// request in hand for up to `grace` and returns.
pub async fn serve(
    listener: TcpListener,
    app: BoxEndpoint<'static, Response>,
    shutdown: impl Future<Output = ()>,
    grace: Duration,
    limits: Limits,
) -> std::io::Result<()> {
    let slots = Arc::new(Semaphore::new(limits.max_connections.max(1)));
    let app: App = Arc::new(app);
    let local = LocalAddr(listener.local_addr()?.into());
    let loops = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1);
    let loops = (0..loops)
        .map(connection_loop)
        .collect::<std::io::Result<Vec<Handle>>>()?;
    // Every connection holds a receiver: the sender tells them to stop, and learns when the
    // last one has closed.
    let (stopping, stop) = watch::channel(false);
    tokio::pin!(shutdown);
    for next in (0..loops.len()).cycle() {
        let accepted = tokio::select! {
            biased;
            () = &mut shutdown => break,
            accepted = accept_with_slot(&listener, &slots) => accepted,
        };
        let ((stream, peer), slot) = match accepted {
            (Ok(accepted), slot) => (accepted, slot),
            (Err(error), _) => {
                tracing::warn!(%error, "accepting a connection failed");
                tokio::time::sleep(ACCEPT_RETRY).await;
                continue;
            }
        };
        // Re-registered with the loop's own reactor there.
        let stream = stream.into_std()?;
        let (app, local, stop) = (app.clone(), local.clone(), stop.clone());
        let timeout = limits.request_timeout;
        loops[next].spawn(async move {
            // Held for as long as the connection is open.
            let _slot = slot;
            match TcpStream::from_std(stream) {
                Ok(stream) => serve_connection(stream, peer, local, app, stop, timeout).await,
                Err(error) => tracing::warn!(%error, "a connection could not join its loop"),
            }
        });
    }
    drop(listener);
    drop(stop);
    let _ = stopping.send(true);
    if tokio::time::timeout(grace, stopping.closed()).await.is_err() {
        tracing::warn!(
            open = stopping.receiver_count(),
            "connections still open after {}s: stopping anyway",
            grace.as_secs()
        );
    }
    Ok(())
}

/// Waits for a free connection slot, then for a connection: beyond the cap, clients wait in the
/// kernel's backlog rather than being accepted and starved.
async fn accept_with_slot(
    listener: &TcpListener,
    slots: &Arc<Semaphore>,
) -> (std::io::Result<(TcpStream, SocketAddr)>, OwnedSemaphorePermit) {
    let slot = slots
        .clone()
        .acquire_owned()
        .await
        .expect("the semaphore is never closed");
    (listener.accept().await, slot)
}

/// The answer to a request that outlived `Limits::request_timeout`.
fn timed_out(request_line: &str, peer: SocketAddr) -> Response {
    tracing::warn!(event = "request_timed_out", %peer, request = request_line, "no answer in time: 503");
    poem::Response::builder()
        .status(poem::http::StatusCode::SERVICE_UNAVAILABLE)
        .header("retry-after", "5")
        .content_type("text/plain; charset=utf-8")
        .body("The server took too long to answer; please try again.")
}

/// A thread with a single-threaded runtime that runs the connections spawned on its handle.
fn connection_loop(n: usize) -> std::io::Result<Handle> {
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
    let handle = runtime.handle().clone();
    std::thread::Builder::new()
        .name(format!("http-{n}"))
        .spawn(move || runtime.block_on(std::future::pending::<()>()))?;
    Ok(handle)
}

async fn serve_connection(
    stream: TcpStream,
    peer: SocketAddr,
    local: LocalAddr,
    app: App,
    mut stop: watch::Receiver<bool>,
    timeout: Duration,
) {
    // Responses go out whole in one write; waiting to coalesce them only adds latency.
    let _ = stream.set_nodelay(true);
    let remote = RemoteAddr(peer.into());
    let service = service_fn(move |req| {
        let app = app.clone();
        let request = poem::Request::from((req, local.clone(), remote.clone(), Scheme::HTTP));
        async move {
            let line = format!("{} {}", request.method(), request.uri().path());
            let response = match tokio::time::timeout(timeout, app.get_response(request)).await {
                Ok(response) => response,
                Err(_) => timed_out(&line, peer),
            };
            Ok::<_, Infallible>(poem::http::Response::from(response))
        }
    });
    let connection = http1::Builder::new()
        .timer(TokioTimer::new())
        .header_read_timeout(HEADER_READ_TIMEOUT)
        .keep_alive(true)
        .serve_connection(TokioIo::new(stream), service);
    let connection = connection.with_upgrades();
    tokio::pin!(connection);
    let ended = tokio::select! {
        ended = connection.as_mut() => ended,
        // An error means the sender is gone: stopping too.
        _ = async { stop.wait_for(|stopping| *stopping).await.map(|_| ()) } => {
            // Answers the request in hand (with `Connection: close`), or closes an idle one.
            connection.as_mut().graceful_shutdown();
            connection.await
        }
    };
    if let Err(error) = ended {
        tracing::debug!(%error, %peer, "connection ended with an error");
    }
}
