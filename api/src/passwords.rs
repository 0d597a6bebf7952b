//! Password hashing (argon2id) with bounded cost: one hashing thread per core, each with its own
//! memory kept between hashes, and requests that queue for a turn for at most a few seconds.
//!
//! Each hash needs 19 MiB. Left to the blocking pool, a crowd of logins ran hundreds at once
//! (gigabytes), and even a handful at a time left 19 MiB behind in each allocator arena the
//! short-lived threads touched. Here memory is the threads' buffers and nothing more.

use argon2::password_hash::{self, rand_core::OsRng, Output, ParamsString, PasswordHash, Salt, SaltString};
use argon2::{Algorithm, Argon2, Block, Params, Version};
use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::{mpsc, Arc, Mutex, OnceLock};
use std::time::Duration;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

/// How long a request may wait for its turn before it is told to come back later.
pub const HASH_WAIT: Duration = Duration::from_secs(3);
/// The `Retry-After` of an answer that waited too long.
pub const BUSY_RETRY_SECONDS: u64 = 5;

/// Password checks one client (an IPv4 address or IPv6 /64) may have waiting for a turn or
/// running at once; its further checks wait for one of these places first.
pub const SHARE_PER_CLIENT: usize = 4;
/// ...and one IPv6 /48, whose 65,536 /64s would otherwise each bring their own share.
pub const SHARE_PER_NETWORK: usize = 8;

/// A client's place in the hashing queue. A flood from one client or /48 waits for its own few
/// places, in memory, before it may join the queue for the hashing threads; everyone else's
/// check waits behind those few places rather than behind the whole flood.
pub struct QueueShare {
    _permits: Vec<OwnedSemaphorePermit>,
    keys: Vec<String>,
}

fn shares() -> &'static Mutex<HashMap<String, Arc<Semaphore>>> {
    static SHARES: OnceLock<Mutex<HashMap<String, Arc<Semaphore>>>> = OnceLock::new();
    SHARES.get_or_init(Mutex::default)
}

impl QueueShare {
    /// A place for `client` and its /48 `network` (if any), waiting at most `wait` for it.
    pub async fn take(client: &str, network: Option<&str>, wait: Duration) -> Result<QueueShare, Busy> {
        let mut wanted = vec![(client.to_string(), SHARE_PER_CLIENT)];
        wanted.extend(network.map(|n| (format!("net:{n}"), SHARE_PER_NETWORK)));
        let semaphores: Vec<Arc<Semaphore>> = {
            let mut held = shares().lock().map_err(|_| Busy)?;
            wanted
                .iter()
                .map(|(key, share)| {
                    held.entry(key.clone())
                        .or_insert_with(|| Arc::new(Semaphore::new(*share)))
                        .clone()
                })
                .collect()
        };
        let keys: Vec<String> = wanted.into_iter().map(|(key, _)| key).collect();
        // Always the client's place first, then the network's: no two requests wait in a cycle.
        let acquire = async {
            let mut permits = Vec::new();
            for semaphore in semaphores {
                permits.push(semaphore.acquire_owned().await.map_err(|_| Busy)?);
            }
            Ok::<_, Busy>(permits)
        };
        match tokio::time::timeout(wait, acquire).await {
            Ok(Ok(permits)) => Ok(QueueShare {
                _permits: permits,
                keys,
            }),
            _ => {
                forget_idle(&keys);
                Err(Busy)
            }
        }
    }
}

/// Forgets the semaphores of `keys` that nobody holds or waits for (the map's reference is then
/// the only one), so the map holds only clients with checks in flight.
fn forget_idle(keys: &[String]) {
    let Ok(mut held) = shares().lock() else { return };
    for key in keys {
        if held.get(key).is_some_and(|s| Arc::strong_count(s) == 1) {
            held.remove(key);
        }
    }
}

impl Drop for QueueShare {
    fn drop(&mut self) {
        drop(std::mem::take(&mut self._permits));
        forget_idle(&self.keys);
    }
}

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
    async fn each_client_and_network_holds_at_most_its_share_of_the_queue() {
        let none = Duration::from_millis(0);
        let take = |client: &'static str, network: Option<&'static str>| QueueShare::take(client, network, none);
        let mut first = Vec::new();
        for _ in 0..SHARE_PER_CLIENT {
            first.push(take("2001:db8:7:1::/64", Some("2001:db8:7::/48")).await.unwrap());
        }
        assert!(take("2001:db8:7:1::/64", Some("2001:db8:7::/48")).await.is_err());
        // Another /64 of the same /48 gets the rest of the network's share, and no more.
        let mut second = Vec::new();
        for _ in 0..SHARE_PER_NETWORK - SHARE_PER_CLIENT {
            second.push(take("2001:db8:7:2::/64", Some("2001:db8:7::/48")).await.unwrap());
        }
        assert!(take("2001:db8:7:3::/64", Some("2001:db8:7::/48")).await.is_err());
        // Someone elsewhere is not held by them.
        assert!(take("2001:db8:8:1::/64", Some("2001:db8:8::/48")).await.is_ok());
        assert!(take("198.51.100.7", None).await.is_ok());
        // A waiting check gets the place a finished one leaves.
        let waiting = tokio::spawn(QueueShare::take(
            "2001:db8:7:1::/64",
            Some("2001:db8:7::/48"),
            Duration::from_secs(300),
        ));
        drop(first.pop());
        drop(second.pop());
        assert!(waiting.await.unwrap().is_ok());
        drop(first);
        drop(second);
        assert!(shares().lock().unwrap().keys().all(|k| !k.contains("2001:db8:7")));
    }

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
