//! Password hashing (argon2id) with bounded cost: one hashing thread per core, each with its own
//! memory kept between hashes, and requests that queue for a turn for at most a few seconds.
//!
//! Each hash needs 19 MiB. Left to the blocking pool, a crowd of logins ran hundreds at once
//! (gigabytes), and even a handful at a time left 19 MiB behind in each allocator arena the
//! short-lived threads touched. Here memory is the threads' buffers and nothing more.

use argon2::password_hash::{self, rand_core::OsRng, Output, ParamsString, PasswordHash, Salt, SaltString};
use argon2::{Algorithm, Argon2, Block, Params, Version};
use std::cell::RefCell;
use std::sync::{mpsc, Arc, Mutex, OnceLock};
use std::time::Duration;
use tokio::sync::Semaphore;

/// How long a request may wait for its turn before it is told to come back later.
pub const HASH_WAIT: Duration = Duration::from_secs(3);
/// The `Retry-After` of an answer that waited too long.
pub const BUSY_RETRY_SECONDS: u64 = 5;

/// OWASP's recommended argon2id parameters: 19 MiB of memory, 2 passes, 1 lane.
fn params() -> Params {
    Params::new(19_456, 2, 1, None).expect("valid argon2 parameters")
}

/// No turn came within the wait: too many passwords are being checked right now.
#[derive(Debug)]
pub struct Busy;

impl std::fmt::Display for Busy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("every password-hashing turn stayed taken")
    }
}

impl std::error::Error for Busy {}

/// Hashes a new password; fails with `Busy` when no turn came within `wait`.
pub async fn hash(password: String, wait: Duration) -> anyhow::Result<String> {
    with_turn(wait, move || {
        new_hash(password.as_bytes()).map_err(|e| anyhow::anyhow!("argon2: {e}"))
    })
    .await?
}

/// Checks a password against a stored hash; with no hash it still does the work of one check,
/// so an unknown username takes as long as a wrong password.
pub async fn verify(password: String, stored: Option<String>, wait: Duration) -> Result<bool, Busy> {
    with_turn(wait, move || {
        let (hash, real) = match stored {
            Some(hash) => (hash, true),
            None => (dummy_hash().to_string(), false),
        };
        matches(password.as_bytes(), &hash).unwrap_or(false) && real
    })
    .await
}

/// Whether `password` gives `stored` (a PHC string) again; the comparison is constant-time.
fn matches(password: &[u8], stored: &str) -> password_hash::Result<bool> {
    let parsed = PasswordHash::new(stored)?;
    let algorithm = Algorithm::try_from(parsed.algorithm)?;
    let version = parsed.version.map(Version::try_from).transpose()?.unwrap_or_default();
    let argon2 = Argon2::new(algorithm, version, Params::try_from(&parsed)?);
    let (Some(salt), Some(expected)) = (parsed.salt, parsed.hash) else {
        return Ok(false);
    };
    Ok(compute(&argon2, password, &salt, expected.len())? == expected)
}

/// argon2 in this thread's kept memory.
fn compute(argon2: &Argon2, password: &[u8], salt: &Salt, len: usize) -> password_hash::Result<Output> {
    thread_local! {
        static MEMORY: RefCell<Vec<Block>> = const { RefCell::new(Vec::new()) };
    }
    let mut salt_bytes = [0u8; 64];
    let salt = salt.decode_b64(&mut salt_bytes)?;
    let blocks = argon2.params().block_count();
    MEMORY.with_borrow_mut(|memory| {
        if memory.len() < blocks {
            memory.resize(blocks, Block::default());
        }
        Output::init_with(len, |out| {
            Ok(argon2.hash_password_into_with_memory(password, salt, out, &mut memory[..blocks])?)
        })
    })
}

fn dummy_hash() -> &'static str {
    static DUMMY: OnceLock<String> = OnceLock::new();
    DUMMY.get_or_init(|| new_hash(b"not a real password").expect("argon2 hashes"))
}

/// A PHC string (`$argon2id$v=19$m=19456,t=2,p=1$salt$hash`) of `password` with a fresh salt.
fn new_hash(password: &[u8]) -> password_hash::Result<String> {
    let salt = SaltString::generate(&mut OsRng);
    let argon2 = Argon2::new(Algorithm::Argon2id, Version::V0x13, params());
    let hash = PasswordHash {
        algorithm: Algorithm::Argon2id.ident(),
        version: Some(Version::V0x13.into()),
        params: ParamsString::try_from(argon2.params())?,
        salt: Some(salt.as_salt()),
        hash: Some(compute(&argon2, password, &salt.as_salt(), Params::DEFAULT_OUTPUT_LEN)?),
    };
    Ok(hash.to_string())
}

/// The hashing threads and the turns at them.
struct Hashing {
    turns: Semaphore,
    jobs: Mutex<mpsc::Sender<Job>>,
}

type Job = Box<dyn FnOnce() + Send>;

fn hashing() -> &'static Hashing {
    static HASHING: OnceLock<Hashing> = OnceLock::new();
    HASHING.get_or_init(|| {
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
        let (jobs, queue) = mpsc::channel::<Job>();
        let queue = Arc::new(Mutex::new(queue));
        for n in 0..threads {
            let queue = queue.clone();
            std::thread::Builder::new()
                .name(format!("argon2-{n}"))
                .spawn(move || loop {
                    let next = queue.lock().map(|q| q.recv());
                    match next {
                        Ok(Ok(job)) => job(),
                        _ => return,
                    }
                })
                .expect("start a hashing thread");
        }
        Hashing {
            turns: Semaphore::new(threads),
            jobs: Mutex::new(jobs),
        }
    })
}

/// Runs `work` on a hashing thread once a turn is free, waiting at most `wait` for one.
async fn with_turn<T: Send + 'static>(wait: Duration, work: impl FnOnce() -> T + Send + 'static) -> Result<T, Busy> {
    let pool = hashing();
    let queued = crate::metrics::Queued::join();
    let asked = std::time::Instant::now();
    let turn = match tokio::time::timeout(wait, pool.turns.acquire()).await {
        Ok(turn) => turn.expect("the semaphore is never closed"),
        Err(_) => {
            crate::metrics::hash_busy();
            return Err(Busy);
        }
    };
    crate::metrics::hash_waited(asked.elapsed());
    let (answer, answered) = tokio::sync::oneshot::channel();
    // The turn goes with the work: a request that gives up does not free it before argon2 ends.
    let job: Job = Box::new(move || {
        let (_turn, _queued) = (turn, queued);
        let _ = answer.send(work());
    });
    pool.jobs.lock().map_err(|_| Busy)?.send(job).map_err(|_| Busy)?;
    answered.await.map_err(|_| Busy)
}

#[cfg(test)]
mod tests {
    use super::*;
    use argon2::PasswordVerifier;

    #[tokio::test]
    async fn passwords_verify() {
        let hash = hash("correct horse".into(), HASH_WAIT).await.unwrap();
        assert!(hash.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"));
        assert!(verify("correct horse".into(), Some(hash.clone()), HASH_WAIT)
            .await
            .unwrap());
        assert!(!verify("wrong horse".into(), Some(hash.clone()), HASH_WAIT)
            .await
            .unwrap());
        assert!(!verify("not a real password".into(), None, HASH_WAIT).await.unwrap());
        assert!(!verify("correct horse".into(), Some("not a hash".into()), HASH_WAIT)
            .await
            .unwrap());
        // The argon2 crate reads these hashes as its own, and the other way round.
        let parsed = PasswordHash::new(&hash).unwrap();
        assert!(Argon2::default().verify_password(b"correct horse", &parsed).is_ok());
        let theirs =
            argon2::PasswordHasher::hash_password(&Argon2::default(), b"theirs", &SaltString::generate(&mut OsRng))
                .unwrap()
                .to_string();
        assert!(verify("theirs".into(), Some(theirs), HASH_WAIT).await.unwrap());
    }
}
