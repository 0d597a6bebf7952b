//! Small local servers tests start: what the API talks to (Google, a blog feed, an SMTP server).
#![allow(dead_code)]

use poem::listener::{Acceptor, Listener, TcpListener};
use poem::{Endpoint, Server};
use std::net::SocketAddr;

/// Serves `app` on a free loopback port until the test ends.
pub async fn serve<E: Endpoint + 'static>(app: E) -> SocketAddr {
    let acceptor = TcpListener::bind("127.0.0.1:0").into_acceptor().await.expect("bind");
    let addr = *acceptor.local_addr()[0].as_socket_addr().expect("a TCP address");
    tokio::spawn(Server::new_with_acceptor(acceptor).run(app));
    addr
}
