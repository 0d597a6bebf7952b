//! Rate limits kept in the database, so every API instance sees the same counts.

use crate::clock::Clock;
use crate::db::entities::rate_event;
use sea_orm::{
    ColumnTrait, DatabaseConnection, DbErr, EntityTrait, PaginatorTrait, QueryFilter, QueryOrder, QuerySelect, Set,
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

/// Emails to one address: one a minute, five an hour.
pub const MAIL_PER_ADDRESS: &[Limit] = &[limit(1, 60), limit(5, 3600)];
/// Emails asked for by one client address.
pub const MAIL_PER_CLIENT: &[Limit] = &[limit(20, 3600)];
/// Failed logins per username and per client address.
pub const LOGIN_FAILURES_PER_USER: &[Limit] = &[limit(10, 900)];
pub const LOGIN_FAILURES_PER_CLIENT: &[Limit] = &[limit(30, 900)];
/// Attempts at codes and invitations per client address.
pub const CODE_ATTEMPTS_PER_CLIENT: &[Limit] = &[limit(30, 900)];

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

    fn allowance(&self, limit: &Limit) -> u64 {
        ((limit.count as f64) * self.scale).round().max(1.0) as u64
    }

    /// Err when `key` has used up any of `limits`.
    pub async fn check(&self, key: &str, limits: &[Limit]) -> Result<Result<(), RetryAfter>, DbErr> {
        let now = self.clock.now();
        for limit in limits {
            let since = now - limit.window;
            let allowance = self.allowance(limit);
            let used = rate_event::Entity::find()
                .filter(rate_event::Column::Key.eq(key))
                .filter(rate_event::Column::At.gt(since))
                .count(&self.db)
                .await?;
            if used >= allowance {
                // The window frees a slot when its oldest counted event ages out.
                let oldest_counted = rate_event::Entity::find()
                    .filter(rate_event::Column::Key.eq(key))
                    .filter(rate_event::Column::At.gt(since))
                    .order_by_desc(rate_event::Column::At)
                    .offset(allowance - 1)
                    .one(&self.db)
                    .await?
                    .map(|e| e.at)
                    .unwrap_or(now);
                let wait = (oldest_counted + limit.window - now).max(1) as u64;
                return Ok(Err(RetryAfter(wait)));
            }
        }
        Ok(Ok(()))
    }

    /// Counts one event for `key`.
    pub async fn record(&self, key: &str) -> Result<(), DbErr> {
        let now = self.clock.now();
        rate_event::Entity::insert(rate_event::ActiveModel {
            key: Set(key.to_string()),
            at: Set(now),
            ..Default::default()
        })
        .exec(&self.db)
        .await?;
        // Old events only take space; sweep now and then rather than on every write.
        if self.writes.fetch_add(1, Ordering::Relaxed).is_multiple_of(200) {
            rate_event::Entity::delete_many()
                .filter(rate_event::Column::At.lt(now - 86_400))
                .exec(&self.db)
                .await?;
        }
        Ok(())
    }

    /// Checks and, when allowed, counts: for actions limited on every attempt.
    pub async fn hit(&self, key: &str, limits: &[Limit]) -> Result<Result<(), RetryAfter>, DbErr> {
        let verdict = self.check(key, limits).await?;
        if verdict.is_ok() {
            self.record(key).await?;
        }
        Ok(verdict)
    }

    /// Forgets a key's events (a successful login clears its failures).
    pub async fn reset(&self, key: &str) -> Result<(), DbErr> {
        rate_event::Entity::delete_many()
            .filter(rate_event::Column::Key.eq(key))
            .exec(&self.db)
            .await?;
        Ok(())
    }
}

impl RateLimiter {
    /// Checks every (key, limits) pair and counts an event for each only when all allow it.
    pub async fn hit_all(&self, checks: &[(&str, &[Limit])]) -> Result<Result<(), RetryAfter>, DbErr> {
        for (key, limits) in checks {
            if let Err(wait) = self.check(key, limits).await? {
                return Ok(Err(wait));
            }
        }
        for (key, _) in checks {
            self.record(key).await?;
        }
        Ok(Ok(()))
    }
}
