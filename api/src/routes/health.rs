//! `/api/health`: whether this instance can serve (for nginx, systemd and monitoring).

use crate::state::AppState;
use poem_openapi::payload::Json;
use poem_openapi::{ApiResponse, Object, OpenApi};
use std::sync::Arc;

pub struct HealthApi(pub Arc<AppState>);

/// Only a status: why an instance cannot serve (a database host, user or password error) is
/// for the operator's log, not for anyone who asks.
#[derive(Object, Debug, Clone, PartialEq)]
pub struct Health {
    /// `ok` or `unavailable`.
    pub status: String,
}

#[derive(ApiResponse)]
pub enum ReadyResponse {
    /// The database answers: this instance can serve every request.
    #[oai(status = 200)]
    Ready(Json<Health>),
    /// The database does not answer; the log says why.
    #[oai(status = 503)]
    Unavailable(Json<Health>, #[oai(header = "Retry-After")] u64),
}

#[OpenApi]
impl HealthApi {
    /// Readiness: 200 when the database answers, 503 when it does not (the reason goes to the log).
    #[oai(path = "/health", method = "get")]
    async fn ready(&self) -> ReadyResponse {
        match self.0.db.ping().await {
            Ok(()) => ReadyResponse::Ready(Json(Health { status: "ok".into() })),
            Err(err) => {
                tracing::warn!(
                    event = "health_unavailable",
                    "health check: the database does not answer: {err}"
                );
                ReadyResponse::Unavailable(
                    Json(Health {
                        status: "unavailable".into(),
                    }),
                    super::errors::DATABASE_RETRY_SECONDS,
                )
            }
        }
    }

    /// Liveness: 200 while the process answers requests; never touches the database, so a
    /// database outage does not get every instance restarted.
    #[oai(path = "/health/live", method = "get")]
    async fn live(&self) -> Json<Health> {
        Json(Health { status: "ok".into() })
    }
}
