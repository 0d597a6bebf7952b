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

/// A TCP relay to `target` whose connections the test can cut and let through again: a
/// database going down and coming back, as the app sees it.
pub struct Relay {
    pub addr: SocketAddr,
    target: SocketAddr,
    tasks: std::sync::Arc<std::sync::Mutex<Vec<tokio::task::AbortHandle>>>,
}

impl Relay {
    pub async fn start(target: SocketAddr) -> Relay {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
        let mut relay = Relay {
            addr: listener.local_addr().unwrap(),
            target,
            tasks: Default::default(),
        };
        relay.accept_on(listener);
        relay
    }

    fn accept_on(&mut self, listener: tokio::net::TcpListener) {
        let (target, tasks) = (self.target, self.tasks.clone());
        let accept = tokio::spawn(async move {
            while let Ok((mut client, _)) = listener.accept().await {
                let relayed = tokio::spawn(async move {
                    if let Ok(mut server) = tokio::net::TcpStream::connect(target).await {
                        let _ = tokio::io::copy_bidirectional(&mut client, &mut server).await;
                    }
                });
                tasks.lock().unwrap().push(relayed.abort_handle());
            }
        });
        self.tasks.lock().unwrap().push(accept.abort_handle());
    }

    /// Drops every relayed connection and refuses new ones.
    pub async fn cut(&self) {
        for task in self.tasks.lock().unwrap().drain(..) {
            task.abort();
        }
        // The listener closes once its task has been dropped.
        while tokio::net::TcpStream::connect(self.addr).await.is_ok() {
            tokio::time::sleep(std::time::Duration::from_millis(10)).await;
        }
    }

    /// Accepts again on the same address.
    pub async fn restore(&mut self) {
        let listener = tokio::net::TcpListener::bind(self.addr)
            .await
            .expect("bind the relay again");
        self.accept_on(listener);
    }
}
