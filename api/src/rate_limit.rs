//! Rate limits kept in the database, so every API instance sees the same counts.
//!
//! Each (key, window) has one counter row; a window starts at its first event and ends `window`
//! seconds later. An event is counted by a conditional `UPDATE` (only while the count is under
//! the allowance, or the window is over), so the database decides: a crowd of simultaneous
//! requests gets exactly the allowance through, never more. Actions are counted before they
//! are attempted (a password check, a mail) and given back when they turn out not to count.

use crate::clock::Clock;
use crate::db::entities::rate_limit;
use sea_orm::sea_query::{Condition, Expr, OnConflict};
use sea_orm::{
    ColumnTrait, DatabaseConnection, DatabaseTransaction, DbErr, EntityTrait, QueryFilter, Set, TransactionError,
    TransactionTrait,
};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Arc;

/// At most `count` events per `window` seconds.
#[derive(Clone, Copy, Debug)]
pub struct Limit {
    pub count: u32,
    pub window: i64,
}

pub const fn limit(count: u32, window: i64) -> Limit {
    Limit { count, window }
}

/// Emails to one address asked for by one client: one a minute, five an hour.
pub const MAIL_PER_ADDRESS_AND_CLIENT: &[Limit] = &[limit(1, 60), limit(5, 3600)];
/// Emails to one address from every client together: what a crowd can send one inbox. Larger
/// than one client's share, so one client cannot spend a member's quota of reset mail.
pub const MAIL_PER_ADDRESS: &[Limit] = &[limit(20, 3600)];
/// Emails asked for by one client address.
pub const MAIL_PER_CLIENT: &[Limit] = &[limit(20, 3600)];
/// Failed logins for one username from one client: the limit a guesser meets.
pub const LOGIN_FAILURES_PER_ACCOUNT_AND_CLIENT: &[Limit] = &[limit(10, 900)];
/// Failed logins for one username from every client together, for guessers with many addresses
/// (ASVS 2.2.1: no more than 100 an hour). Ten times one client's share, so locking a member out
/// takes a crowd of addresses rather than one.
pub const LOGIN_FAILURES_PER_ACCOUNT: &[Limit] = &[limit(100, 3600)];
/// Failed logins from one client address, whatever the username.
pub const LOGIN_FAILURES_PER_CLIENT: &[Limit] = &[limit(30, 900)];
/// Failed logins from one IPv6 /48, whatever the username: one cheap /48 holds 65,536 /64s,
/// each of which is a client of its own.
pub const LOGIN_FAILURES_PER_NETWORK: &[Limit] = &[limit(100, 900)];
/// Failed logins from one browser that signed in as the account before (its device cookie):
/// such a browser is not held by the account's ceiling, only by its own.
pub const LOGIN_FAILURES_PER_DEVICE: &[Limit] = &[limit(10, 900)];
/// Attempts at codes and invitations per client address.
pub const CODE_ATTEMPTS_PER_CLIENT: &[Limit] = &[limit(30, 900)];
/// Google sign-ins started by one client: each stores a sign-in state until it expires.
pub const GOOGLE_STARTS_PER_CLIENT: &[Limit] = &[limit(20, 900)];
/// Attempts at codes and invitations per IPv6 /48.
pub const CODE_ATTEMPTS_PER_NETWORK: &[Limit] = &[limit(100, 900)];
/// Guesses at one address's codes of one purpose, across codes and from every client: a new code
/// brings no new tries, so a crowd of addresses asking for code after code still gets 20 guesses
/// an hour (one in 50,000 of a six-digit code).
pub const CODE_GUESSES_PER_ADDRESS: &[Limit] = &[limit(20, 3600)];

/// What one counter counts: its key in the database and its limits follow from it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Counter {
    /// Mails to one address asked for by one client.
    MailToAddressFromClient { email_key: String, client: String },
    /// Mails to one address, whoever asked.
    MailToAddress { email_key: String },
    /// Mails asked for by one client.
    MailFromClient { client: String },
    /// Failed logins as one account from one client.
    LoginFailuresOfAccountFromClient { account: String, client: String },
    /// Failed logins as one account, from anywhere.
    LoginFailuresOfAccount { account: String },
    /// Failed logins from one client, as anyone.
    LoginFailuresFromClient { client: String },
    /// Failed logins from one IPv6 /48, as anyone.
    LoginFailuresFromNetwork { network: String },
    /// Failed logins from one browser with a device cookie (its nonce).
    LoginFailuresOfDevice { device: String },
    /// Google sign-ins started by one client.
    GoogleStartsFromClient { client: String },
    /// Codes and invitations tried from one IPv6 /48.
    CodeAttemptsFromNetwork { network: String },
    /// Codes and invitations tried by one client.
    CodeAttemptsFromClient { client: String },
    /// Codes of one purpose (`register`, `reset`) tried for one address, by anyone.
    CodeGuessesForAddress { purpose: &'static str, email_key: String },
}

impl Counter {
    /// The counter's row key (the same strings since the first schema, so counts survive an upgrade).
    pub fn key(&self) -> String {
        match self {
            Counter::MailToAddressFromClient { email_key, client } => {
                format!("mail:address-client:{email_key}|{client}")
            }
            Counter::MailToAddress { email_key } => format!("mail:address:{email_key}"),
            Counter::MailFromClient { client } => format!("mail:client:{client}"),
            Counter::LoginFailuresOfAccountFromClient { account, client } => {
                format!("login:account-client:{account}|{client}")
            }
            Counter::LoginFailuresOfAccount { account } => format!("login:account:{account}"),
            Counter::LoginFailuresFromClient { client } => format!("login:client:{client}"),
            Counter::LoginFailuresFromNetwork { network } => format!("login:network:{network}"),
            Counter::LoginFailuresOfDevice { device } => format!("login:device:{device}"),
            Counter::CodeAttemptsFromNetwork { network } => format!("code:network:{network}"),
            Counter::GoogleStartsFromClient { client } => format!("google:client:{client}"),
            Counter::CodeAttemptsFromClient { client } => format!("code:client:{client}"),
            Counter::CodeGuessesForAddress { purpose, email_key } => format!("code:address:{purpose}:{email_key}"),
        }
    }

    pub fn limits(&self) -> &'static [Limit] {
        match self {
            Counter::MailToAddressFromClient { .. } => MAIL_PER_ADDRESS_AND_CLIENT,
            Counter::MailToAddress { .. } => MAIL_PER_ADDRESS,
            Counter::MailFromClient { .. } => MAIL_PER_CLIENT,
            Counter::LoginFailuresOfAccountFromClient { .. } => LOGIN_FAILURES_PER_ACCOUNT_AND_CLIENT,
            Counter::LoginFailuresOfAccount { .. } => LOGIN_FAILURES_PER_ACCOUNT,
            Counter::LoginFailuresFromClient { .. } => LOGIN_FAILURES_PER_CLIENT,
            Counter::LoginFailuresFromNetwork { .. } => LOGIN_FAILURES_PER_NETWORK,
            Counter::LoginFailuresOfDevice { .. } => LOGIN_FAILURES_PER_DEVICE,
            Counter::CodeAttemptsFromNetwork { .. } => CODE_ATTEMPTS_PER_NETWORK,
            Counter::GoogleStartsFromClient { .. } => GOOGLE_STARTS_PER_CLIENT,
            Counter::CodeAttemptsFromClient { .. } => CODE_ATTEMPTS_PER_CLIENT,
            Counter::CodeGuessesForAddress { .. } => CODE_GUESSES_PER_ADDRESS,
        }
    }
}

/// The counters a mail to `email_key` asked for by `client` is counted in.
pub fn mail_counters(email_key: &str, client: &str) -> [Counter; 3] {
    [
        Counter::MailToAddressFromClient {
            email_key: email_key.to_string(),
            client: client.to_string(),
        },
        Counter::MailToAddress {
            email_key: email_key.to_string(),
        },
        Counter::MailFromClient {
            client: client.to_string(),
        },
    ]
}

/// A try at a secret code: a mailed code of `purpose` (`register`, `reset`) for an address, or
/// an invitation code (the Google invitation step, which names no address).
pub enum CodeAttempt<'a> {
    Mailed { purpose: &'static str, email_key: &'a str },
    Invitation,
}

/// The counters a try at a code from `client` is counted in: the client's and its network's,
/// and a mailed code's address's own.
fn code_counters(attempt: CodeAttempt<'_>, client: &str) -> Vec<Counter> {
    let mut counters = vec![Counter::CodeAttemptsFromClient {
        client: client.to_string(),
    }];
    if let CodeAttempt::Mailed { purpose, email_key } = attempt {
        counters.push(Counter::CodeGuessesForAddress {
            purpose,
            email_key: email_key.to_string(),
        });
    }
    counters.extend(crate::client_ip::network_of(client).map(|network| Counter::CodeAttemptsFromNetwork { network }));
    counters
}

/// The counters a login from `client` with a valid device cookie (`device`, its nonce) is
/// counted in: the device's own and the client's, not the account's ceiling. The first is the
/// device's own.
pub fn device_login_counters(device: &str, client: &str) -> Vec<Counter> {
    let mut counters = vec![
        Counter::LoginFailuresOfDevice {
            device: device.to_string(),
        },
        Counter::LoginFailuresFromClient {
            client: client.to_string(),
        },
    ];
    counters.extend(crate::client_ip::network_of(client).map(|network| Counter::LoginFailuresFromNetwork { network }));
    counters
}

/// The account a typed username counts as (typed usernames can be any length; real ones are at
/// most 32 characters).
pub fn account_key(username: &str) -> String {
    username.trim().to_lowercase().chars().take(64).collect()
}

/// The counters a login as `username` from `client` is counted in; the first is the pair's own.
pub fn login_counters(username: &str, client: &str) -> Vec<Counter> {
    let account = account_key(username);
    let mut counters = vec![
        Counter::LoginFailuresOfAccountFromClient {
            account: account.clone(),
            client: client.to_string(),
        },
        Counter::LoginFailuresOfAccount { account },
        Counter::LoginFailuresFromClient {
            client: client.to_string(),
        },
    ];
    counters.extend(crate::client_ip::network_of(client).map(|network| Counter::LoginFailuresFromNetwork { network }));
    counters
}

pub struct RateLimiter {
    db: DatabaseConnection,
    clock: Arc<dyn Clock>,
    scale: f64,
    writes: AtomicU32,
}

/// Seconds until another attempt would be allowed.
#[derive(Debug, Clone, Copy)]
pub struct RetryAfter(pub u64);

impl RateLimiter {
    pub fn new(db: DatabaseConnection, clock: Arc<dyn Clock>, scale: f64) -> Self {
        RateLimiter {
            db,
            clock,
            scale,
            writes: AtomicU32::new(0),
        }
    }

    fn allowance(&self, limit: &Limit) -> i32 {
        ((limit.count as f64) * self.scale).round().clamp(1.0, i32::MAX as f64) as i32
    }

    /// Counts one event in `counter`, unless it has used up one of its limits.
    pub async fn hit(&self, counter: Counter) -> Result<Result<(), RetryAfter>, DbErr> {
        self.hit_all(&[counter]).await
    }

    /// Counts a try at a code (the one call every code check makes before it compares).
    pub async fn hit_code_attempt(
        &self,
        attempt: CodeAttempt<'_>,
        client: &str,
    ) -> Result<Result<(), RetryAfter>, DbErr> {
        self.hit_all(&code_counters(attempt, client)).await
    }

    /// Counts one event in every counter, or in none when any of them has used up a limit.
    pub async fn hit_all(&self, checks: &[Counter]) -> Result<Result<(), RetryAfter>, DbErr> {
        let now = self.clock.now();
        let mut counters: Vec<(String, Limit, i32)> = checks
            .iter()
            .flat_map(|c| c.limits().iter().map(move |l| (c.key(), *l, self.allowance(l))))
            .collect();
        // Always the same order: two requests never wait for each other's rows in a cycle
        // (PostgreSQL would abort one of them as a deadlock).
        counters.sort_by(|a, b| (&a.0, a.1.window).cmp(&(&b.0, b.1.window)));
        // A limit already used up is found by reading: a refused request writes nothing, so a
        // flooding client does not hold SQLite's one writer (or PostgreSQL's row locks).
        if let Some(wait) = self.used_up(&counters, now).await? {
            return Ok(Err(wait));
        }
        // The first statement writes, so SQLite takes its write lock at once. A used-up limit
        // rolls back the counts made before it.
        let counted = self.db.transaction(move |txn| {
            Box::pin(async move {
                for (key, limit, allowance) in counters {
                    count(txn, now, &key, limit, allowance).await?;
                }
                Ok(())
            })
        });
        match counted.await {
            Ok(()) => {}
            Err(TransactionError::Transaction(Refused::Limit(wait))) => return Ok(Err(wait)),
            Err(TransactionError::Transaction(Refused::Db(err)) | TransactionError::Connection(err)) => {
                return Err(err)
            }
        }
        // Finished windows only take space; sweep now and then rather than on every write.
        if self.writes.fetch_add(1, Ordering::Relaxed).is_multiple_of(200) {
            sweep(&self.db, now).await?;
        }
        Ok(Ok(()))
    }

    /// The wait of the first limit among `counters` whose window is running and whose count is
    /// at its allowance, read without writing; the counting transaction decides the rest.
    async fn used_up(&self, counters: &[(String, Limit, i32)], now: i64) -> Result<Option<RetryAfter>, DbErr> {
        let keys: Vec<&String> = counters.iter().map(|(key, _, _)| key).collect();
        let rows = rate_limit::Entity::find()
            .filter(rate_limit::Column::Key.is_in(keys))
            .all(&self.db)
            .await?;
        Ok(counters.iter().find_map(|(key, limit, allowance)| {
            rows.iter()
                .find(|row| &row.key == key && row.window_seconds == limit.window)
                .filter(|row| row.started_at > now - limit.window && row.hits >= *allowance)
                .map(|row| RetryAfter((row.started_at + limit.window - now).max(1) as u64))
        }))
    }

    /// Gives back the events `hit_all` counted (a login that succeeded, a hash never made).
    pub async fn refund(&self, checks: &[Counter]) -> Result<(), DbErr> {
        for counter in checks {
            for limit in counter.limits() {
                rate_limit::Entity::update_many()
                    .col_expr(rate_limit::Column::Hits, Expr::col(rate_limit::Column::Hits).sub(1))
                    .filter(rate_limit::Column::Key.eq(counter.key()))
                    .filter(rate_limit::Column::WindowSeconds.eq(limit.window))
                    .filter(rate_limit::Column::Hits.gt(0))
                    .exec(&self.db)
                    .await?;
            }
        }
        Ok(())
    }

    /// Forgets a counter's events (a successful login clears that client's failures). The rows
    /// stay, at zero: deleting them let a login counting beside this one find its row gone and
    /// read that as a spent allowance.
    pub async fn reset(&self, counter: &Counter) -> Result<(), DbErr> {
        rate_limit::Entity::update_many()
            .col_expr(rate_limit::Column::Hits, Expr::value(0))
            .filter(rate_limit::Column::Key.eq(counter.key()))
            .filter(rate_limit::Column::Hits.gt(0))
            .exec(&self.db)
            .await?;
        Ok(())
    }
}

/// Why counting stopped: a limit was used up, or the database failed.
#[derive(Debug)]
enum Refused {
    Limit(RetryAfter),
    Db(DbErr),
}

impl From<DbErr> for Refused {
    fn from(err: DbErr) -> Self {
        Refused::Db(err)
    }
}

impl std::fmt::Display for Refused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Refused::Limit(wait) => write!(f, "limit used up for {} s", wait.0),
            Refused::Db(err) => write!(f, "{err}"),
        }
    }
}

/// Counts one event in the (key, window) counter, opening it if new and restarting it when its
/// window is over; refused when the count is at `allowance`. A row that vanished between the
/// insert and the update (the sweep took it) is opened again rather than read as a refusal.
async fn count(txn: &DatabaseTransaction, now: i64, key: &str, limit: Limit, allowance: i32) -> Result<(), Refused> {
    for _ in 0..3 {
        match count_once(txn, now, key, limit, allowance).await? {
            Counted::Yes => return Ok(()),
            Counted::Refused(wait) => return Err(Refused::Limit(wait)),
            Counted::RowGone => continue,
        }
    }
    Err(Refused::Db(DbErr::Custom(format!("the counter {key} kept vanishing"))))
}

enum Counted {
    Yes,
    Refused(RetryAfter),
    RowGone,
}

async fn count_once(
    txn: &DatabaseTransaction,
    now: i64,
    key: &str,
    limit: Limit,
    allowance: i32,
) -> Result<Counted, DbErr> {
    rate_limit::Entity::insert(rate_limit::ActiveModel {
        key: Set(key.to_string()),
        window_seconds: Set(limit.window),
        started_at: Set(now),
        hits: Set(0),
    })
    .on_conflict(
        OnConflict::columns([rate_limit::Column::Key, rate_limit::Column::WindowSeconds])
            .do_nothing()
            .to_owned(),
    )
    .exec_without_returning(txn)
    .await?;
    let window_over = Expr::col(rate_limit::Column::StartedAt).lte(now - limit.window);
    let counted = rate_limit::Entity::update_many()
        .col_expr(
            rate_limit::Column::Hits,
            Expr::case(window_over.clone(), 1)
                .finally(Expr::col(rate_limit::Column::Hits).add(1))
                .into(),
        )
        .col_expr(
            rate_limit::Column::StartedAt,
            Expr::case(window_over.clone(), now)
                .finally(Expr::col(rate_limit::Column::StartedAt))
                .into(),
        )
        .filter(rate_limit::Column::Key.eq(key))
        .filter(rate_limit::Column::WindowSeconds.eq(limit.window))
        .filter(
            Condition::any()
                .add(window_over)
                .add(Expr::col(rate_limit::Column::Hits).lt(allowance)),
        )
        .exec(txn)
        .await?
        .rows_affected
        == 1;
    if counted {
        return Ok(Counted::Yes);
    }
    let Some(row) = rate_limit::Entity::find_by_id((key.to_string(), limit.window))
        .one(txn)
        .await?
    else {
        return Ok(Counted::RowGone);
    };
    Ok(Counted::Refused(RetryAfter(
        (row.started_at + limit.window - now).max(1) as u64,
    )))
}

/// Deletes counters whose windows ended long ago (the longest window is an hour).
pub async fn sweep(db: &DatabaseConnection, now: i64) -> Result<(), DbErr> {
    rate_limit::Entity::delete_many()
        .filter(rate_limit::Column::StartedAt.lt(now - 86_400))
        .exec(db)
        .await?;
    Ok(())
}
