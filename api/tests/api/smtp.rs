//! Mail over SMTP to a local sink the test starts.

use crate::helpers::{Backend, Mail, TestApp};
use poem::http::StatusCode;
use serde_json::json;
use std::sync::{Arc, Mutex};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpListener;

/// A tiny SMTP server: enough of RFC 5321 for one client to hand over messages.
/// (recipients, message) pairs as the sink received them.
type Inbox = Arc<Mutex<Vec<(Vec<String>, String)>>>;

async fn smtp_sink() -> (u16, Inbox) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let received: Inbox = Arc::default();
    let store = received.clone();
    tokio::spawn(async move {
        loop {
            let Ok((socket, _)) = listener.accept().await else {
                return;
            };
            let store = store.clone();
            tokio::spawn(async move {
                let (read, mut write) = socket.into_split();
                let mut lines = BufReader::new(read).lines();
                write.write_all(b"220 sink.test ESMTP\r\n").await.unwrap();
                let mut recipients = Vec::new();
                while let Ok(Some(line)) = lines.next_line().await {
                    let upper = line.to_ascii_uppercase();
                    let reply: &[u8] = if upper.starts_with("EHLO") || upper.starts_with("HELO") {
                        b"250-sink.test\r\n250 8BITMIME\r\n"
                    } else if upper.starts_with("MAIL FROM") {
                        b"250 OK\r\n"
                    } else if upper.starts_with("RCPT TO") {
                        recipients.push(line[8..].trim().trim_matches(['<', '>']).to_string());
                        b"250 OK\r\n"
                    } else if upper == "DATA" {
                        write.write_all(b"354 go ahead\r\n").await.unwrap();
                        let mut data = String::new();
                        while let Ok(Some(l)) = lines.next_line().await {
                            if l == "." {
                                break;
                            }
                            data.push_str(l.strip_prefix('.').filter(|_| l.starts_with("..")).unwrap_or(&l));
                            data.push_str("\r\n");
                        }
                        store.lock().unwrap().push((std::mem::take(&mut recipients), data));
                        b"250 queued\r\n"
                    } else if upper == "QUIT" {
                        write.write_all(b"221 bye\r\n").await.unwrap();
                        return;
                    } else if upper == "RSET" || upper == "NOOP" {
                        b"250 OK\r\n"
                    } else {
                        b"502 not implemented\r\n"
                    };
                    write.write_all(reply).await.unwrap();
                }
            });
        }
    });
    (port, received)
}

on_both_databases! {
    async fn codes_are_delivered_over_smtp(backend: Backend) {
        let (port, received) = smtp_sink().await;
        let app = TestApp::with(backend, |s| s.smtp_url = Some(format!("smtp://127.0.0.1:{port}"))).await;
        let reply = app.post("/api/send-email", json!({"email": "smtp@example.com", "username": "mailer", "preferredLanguage": "ja"})).await;
        reply.assert(StatusCode::OK);
        let (recipients, data) = received.lock().unwrap().first().cloned().expect("one message at the sink");
        assert_eq!(recipients, vec!["smtp@example.com".to_string()]);
        let mail = Mail::parse(data.as_bytes());
        assert_eq!(mail.subject, "【127.0.0.1】会員登録の確認コード");
        let code = mail.code().expect("a code");
        assert!(mail.html.contains(&code));
        // Nothing went to the outbox, and the code works.
        assert!(app.mails_to("smtp@example.com").is_empty());
        let invite = app.invite(1, None).await;
        app.post("/api/register", json!({"username": "mailer", "password": "password1234", "email": "smtp@example.com",
                                         "invitationCode": invite, "emailVerificationCode": code}))
            .await
            .assert(StatusCode::OK);
    }

    async fn an_unreachable_mail_server_is_reported(backend: Backend) {
        // A port nobody listens on.
        let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        let app = TestApp::with(backend, |s| s.smtp_url = Some(format!("smtp://127.0.0.1:{port}"))).await;
        let reply = app.post("/api/send-email", json!({"email": "down@example.com", "username": "mailer"})).await;
        reply.assert(StatusCode::SERVICE_UNAVAILABLE);
        assert_eq!(reply.field("message"), "Email sending failed, please try again later");
    }
}
