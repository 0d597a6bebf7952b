//! One `node` run of the UI's server bundle over a batch of islands: the island protocol of
//! `docs/internals.md` ("Islands"). The request goes in on stdin; the answer comes back on its
//! own pipe (file descriptor 3), so whatever an island or a library prints on stdout cannot
//! corrupt it. Both sides name the protocol's version and refuse another; a renderer that does
//! not answer in time is stopped, and the error names its batch.

use anyhow::{anyhow, Context, Result};
use serde::Deserialize;
use std::io::{Read, Write};
use std::os::fd::{AsRawFd, RawFd};
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::mpsc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use super::calls::IslandItem;

/// The version of the request and answer format; `PROTOCOL` in `ui/src/ssr.tsx` must match.
pub const PROTOCOL: u32 = 2;

/// The renderer's answer channel in the child process.
const ANSWER_FD: RawFd = 3;

/// How long one batch may take. The largest batch the bench builds (about 4,500 islands) renders in
/// well under a minute on a loaded machine; a renderer this late is stuck, not slow.
pub const RENDER_TIMEOUT: Duration = Duration::from_secs(300);

/// How many of a batch's pages an error names before it says "and N more".
const PAGES_NAMED: usize = 5;

#[derive(Deserialize)]
struct Answer {
    protocol: u32,
    /// One HTML string per request item, in the request's order.
    html: Vec<String>,
}

/// Renders `items` in one renderer process: their HTML in the same order.
pub fn render_batch(
    server_bundle: &Path,
    locales_dir: &Path,
    items: &[IslandItem],
    timeout: Duration,
) -> Result<Vec<String>> {
    let request = serde_json::json!({
        "protocol": PROTOCOL,
        "localesDir": locales_dir.canonicalize().unwrap_or_else(|_| locales_dir.to_path_buf()),
        "items": items,
    });
    let body = serde_json::to_vec(&request)?;
    let fail = |what: String| {
        anyhow!(
            "the island renderer {} {what}\n{}",
            server_bundle.display(),
            batch(items)
        )
    };
    let (mut child, answer) = spawn(server_bundle)?;
    let mut stdin = child.stdin.take().expect("piped stdin");
    // Written and read from threads so neither side can block the other on a full pipe.
    let writer = std::thread::spawn(move || stdin.write_all(&body));
    let stdout = drain(child.stdout.take().expect("piped stdout"));
    let stderr = drain(child.stderr.take().expect("piped stderr"));
    let (answered, answer_read) = mpsc::channel();
    std::thread::spawn(move || {
        let mut bytes = Vec::new();
        let read = (&answer).read_to_end(&mut bytes).map(|_| bytes);
        let _ = answered.send(read);
    });
    let deadline = Instant::now() + timeout;
    let answer = answer_read.recv_timeout(timeout);
    let status = match answer {
        Ok(_) => wait_until(&mut child, deadline)?,
        Err(_) => None,
    };
    let Some(status) = status else {
        let _ = child.kill();
        let _ = child.wait();
        let said = joined(stderr);
        return Err(fail(format!(
            "did not answer and exit within {} s and was stopped{}",
            timeout.as_secs_f64(),
            said_on_stderr(&said)
        )));
    };
    // The stdout of a renderer is only islands' and libraries' logging: never read as the answer.
    drop(joined(stdout));
    let said = joined(stderr);
    if !status.success() {
        return Err(fail(format!("failed ({status}){}", said_on_stderr(&said))));
    }
    writer
        .join()
        .expect("stdin writer")
        .map_err(|e| fail(format!("did not take the request: {e}")))?;
    let bytes = answer
        .expect("answered")
        .map_err(|e| fail(format!("answer could not be read: {e}")))?;
    parse_answer(&bytes, items.len()).map_err(fail)
}

/// The HTML of an answer to a request of `count` items, or what is wrong with it.
fn parse_answer(bytes: &[u8], count: usize) -> Result<Vec<String>, String> {
    if bytes.is_empty() {
        return Err(format!(
            "gave no answer on file descriptor {ANSWER_FD}: it is older than the generator's island protocol {PROTOCOL}; rebuild the UI with `npm --prefix ui run build` (`make build` does it)"
        ));
    }
    let answer: Answer = serde_json::from_slice(bytes).map_err(|e| format!("answered with invalid JSON: {e}"))?;
    if answer.protocol != PROTOCOL {
        return Err(format!(
            "speaks island protocol {}, the generator {PROTOCOL}: build the UI and the generator from the same sources (`make build`)",
            answer.protocol
        ));
    }
    if answer.html.len() != count {
        return Err(format!(
            "answered {} islands for a request of {count}",
            answer.html.len()
        ));
    }
    Ok(answer.html)
}

/// `node BUNDLE` with stdin, stdout and stderr piped, and the write end of the answer pipe as its
/// file descriptor 3; the returned reader ends when the renderer closes it or exits.
fn spawn(server_bundle: &Path) -> Result<(Child, std::io::PipeReader)> {
    let (reader, writer) = std::io::pipe().context("Failed to make the island renderer's answer pipe")?;
    let fd = writer.as_raw_fd();
    let mut command = Command::new("node");
    command
        .arg(server_bundle)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    // SAFETY: between fork and exec the closure only calls dup2 and fcntl, which are
    // async-signal-safe, and allocates nothing.
    unsafe {
        command.pre_exec(move || answer_channel(fd));
    }
    let child = command
        .spawn()
        .context("Failed to start `node` to render the islands (is Node.js installed?)")?;
    // The child has its copy; ours must close for the reader to see the end of the answer.
    drop(writer);
    Ok((child, reader))
}

/// In the child: the answer pipe as `ANSWER_FD`, kept open across exec (the pipe is made close-on-exec,
/// so no other child inherits it).
fn answer_channel(fd: RawFd) -> std::io::Result<()> {
    let result = if fd == ANSWER_FD {
        // SAFETY: fcntl on a descriptor this process owns.
        unsafe { libc::fcntl(fd, libc::F_SETFD, 0) }
    } else {
        // SAFETY: dup2 onto a descriptor number of the child's own; the copy is not close-on-exec.
        unsafe { libc::dup2(fd, ANSWER_FD) }
    };
    if result == -1 {
        return Err(std::io::Error::last_os_error());
    }
    Ok(())
}

/// The child's exit status once it exits, or None once `deadline` passes. Only called once the
/// answer channel has closed, when a renderer exits at once; one whose module keeps a timer alive
/// would otherwise hold the build forever.
fn wait_until(child: &mut Child, deadline: Instant) -> Result<Option<ExitStatus>> {
    loop {
        if let Some(status) = child.try_wait().context("Failed to wait for the island renderer")? {
            return Ok(Some(status));
        }
        if Instant::now() >= deadline {
            return Ok(None);
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

fn drain(mut from: impl Read + Send + 'static) -> JoinHandle<Vec<u8>> {
    std::thread::spawn(move || {
        let mut bytes = Vec::new();
        let _ = from.read_to_end(&mut bytes);
        bytes
    })
}

fn joined(reader: JoinHandle<Vec<u8>>) -> String {
    String::from_utf8_lossy(&reader.join().expect("output reader"))
        .trim()
        .to_string()
}

fn said_on_stderr(said: &str) -> String {
    if said.is_empty() {
        String::new()
    } else {
        format!(":\n{said}")
    }
}

/// The batch in words: how many islands, which kinds, and the pages they are on.
fn batch(items: &[IslandItem]) -> String {
    let mut pages: Vec<String> = items.iter().flat_map(|i| i.pages.iter()).cloned().collect();
    pages.sort();
    pages.dedup();
    let more = pages.len().saturating_sub(PAGES_NAMED);
    pages.truncate(PAGES_NAMED);
    let more = if more > 0 {
        format!(" and {more} more")
    } else {
        String::new()
    };
    format!(
        "Its batch: {} islands ({}) on the pages {}{more}",
        items.len(),
        super::calls::distinct_names(items),
        pages.join(", ")
    )
}
