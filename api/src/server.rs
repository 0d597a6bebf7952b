//! The HTTP/1.1 listener of `api serve`: one accept loop per core, each on its own single-threaded
//! runtime, hyper straight on each TCP stream, every request handed to the app as a poem request.
//!
//! Why not poem's `Server` on the shared multi-threaded runtime (BENCHMARKS.md, static serving):
//! - poem splits each connection into read and write halves, which hides the socket's vectored
//!   writes from hyper; hyper then copies every body into its write buffer. On the whole stream
//!   hyper sends headers and body (a `Bytes` of the in-memory `dist/`) in one `writev`.
//! - On a work-stealing runtime a connection's readiness often wakes another thread; most of the
//!   CPU of a small page went to those wake-ups. Here a connection lives on one thread, like an
//!   nginx worker (the kernel spreads connections over the loops' `SO_REUSEPORT` sockets).
//!
//! API requests still run on the main runtime, where the database pool and timers live.

use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper_util::rt::TokioIo;
use poem::endpoint::BoxEndpoint;
use poem::http::uri::Scheme;
use poem::http::StatusCode;
use poem::web::{LocalAddr, RemoteAddr};
use poem::{Endpoint, Response};
use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;
use tokio::net::{TcpListener, TcpSocket};
use tokio::runtime::Handle;

/// A wait after a failed accept (out of file descriptors, say), so the loop does not spin.
const ACCEPT_RETRY: Duration = Duration::from_millis(50);
const BACKLOG: u32 = 1024;

type App = Arc<BoxEndpoint<'static, Response>>;

/// Serves `app` on `addr` with one accept loop per core until the process ends. Call it from the
/// main runtime: API requests are spawned there.
pub async fn serve(addr: SocketAddr, app: BoxEndpoint<'static, Response>) -> std::io::Result<()> {
    let app: App = Arc::new(app);
    let main = Handle::current();
    let loops = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1);
    // Bound here, before any loop starts, so a port in use is an error of `serve` itself.
    let sockets = (0..loops).map(|_| bind(addr)).collect::<std::io::Result<Vec<_>>>()?;
    let (done, mut ended) = tokio::sync::mpsc::channel::<std::io::Error>(loops);
    for (n, socket) in sockets.into_iter().enumerate() {
        let (app, main, done) = (app.clone(), main.clone(), done.clone());
        std::thread::Builder::new().name(format!("http-{n}")).spawn(move || {
            let runtime = match tokio::runtime::Builder::new_current_thread().enable_all().build() {
                Ok(runtime) => runtime,
                Err(error) => return drop(done.blocking_send(error)),
            };
            let error = runtime.block_on(async move {
                match socket.listen(BACKLOG) {
                    Ok(listener) => accept_loop(listener, app, main).await,
                    Err(error) => error,
                }
            });
            let _ = done.blocking_send(error);
        })?;
    }
    drop(done);
    Err(ended.recv().await.unwrap_or_else(|| std::io::Error::other("the HTTP loops ended")))
}

fn bind(addr: SocketAddr) -> std::io::Result<TcpSocket> {
    let socket = if addr.is_ipv4() { TcpSocket::new_v4()? } else { TcpSocket::new_v6()? };
    socket.set_reuseaddr(true)?;
    socket.set_reuseport(true)?;
    socket.bind(addr)?;
    Ok(socket)
}

async fn accept_loop(listener: TcpListener, app: App, main: Handle) -> std::io::Error {
    let local = match listener.local_addr() {
        Ok(addr) => LocalAddr(addr.into()),
        Err(error) => return error,
    };
    loop {
        let (stream, peer) = match listener.accept().await {
            Ok(accepted) => accepted,
            Err(error) => {
                tracing::warn!(%error, "accepting a connection failed");
                tokio::time::sleep(ACCEPT_RETRY).await;
                continue;
            }
        };
        // Responses go out whole in one write; waiting to coalesce them only adds latency.
        let _ = stream.set_nodelay(true);
        let (app, main, local) = (app.clone(), main.clone(), local.clone());
        let remote = RemoteAddr(peer.into());
        tokio::spawn(async move {
            let service = service_fn(move |req| {
                let (app, main) = (app.clone(), main.clone());
                let request = poem::Request::from((req, local.clone(), remote.clone(), Scheme::HTTP));
                async move { Ok::<_, Infallible>(poem::http::Response::from(respond(app, main, request).await)) }
            });
            let connection = http1::Builder::new().keep_alive(true).serve_connection(TokioIo::new(stream), service);
            if let Err(error) = connection.with_upgrades().await {
                tracing::debug!(%error, %peer, "connection ended with an error");
            }
        });
    }
}

async fn respond(app: App, main: Handle, request: poem::Request) -> Response {
    let path = request.uri().path();
    if path == "/api" || path.starts_with("/api/") {
        let task = main.spawn(async move { app.get_response(request).await });
        return task.await.unwrap_or_else(|error| {
            tracing::error!(%error, "an API request's task failed");
            Response::builder().status(StatusCode::INTERNAL_SERVER_ERROR).finish()
        });
    }
    app.get_response(request).await
}
