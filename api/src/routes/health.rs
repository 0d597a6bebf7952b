//! `/api/health`: whether this instance can serve (for nginx, systemd and monitoring).

use crate::state::AppState;
use poem_openapi::payload::Json;
use poem_openapi::{ApiResponse, Object, OpenApi};
use std::sync::Arc;

pub struct HealthApi(pub Arc<AppState>);

#[derive(Object, Debug, Clone, PartialEq)]
pub struct Health {
    /// `ok` or `unavailable`.
    pub status: String,
    /// Why the instance cannot serve (for the operator, in English).
    #[oai(skip_serializing_if_is_none)]
    pub reason: Option<String>,
}

#[derive(ApiResponse)]
pub enum ReadyResponse {
    /// The database answers: this instance can serve every request.
    #[oai(status = 200)]
    Ready(Json<Health>),
    /// The database does not answer; `reason` says what failed.
    #[oai(status = 503)]
    Unavailable(Json<Health>, #[oai(header = "Retry-After")] u64),
}

#[OpenApi]
impl HealthApi {
    /// Readiness: 200 when the database answers, 503 with the reason when it does not.
    #[oai(path = "/health", method = "get")]
    async fn ready(&self) -> ReadyResponse {
        match self.0.db.ping().await {
            Ok(()) => ReadyResponse::Ready(Json(Health {
                status: "ok".into(),
                reason: None,
            })),
            Err(err) => {
                tracing::warn!("health check: the database does not answer: {err}");
                ReadyResponse::Unavailable(
                    Json(Health {
                        status: "unavailable".into(),
                        reason: Some(format!("database: {err}")),
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
        Json(Health {
            status: "ok".into(),
            reason: None,
        })
    }
}
