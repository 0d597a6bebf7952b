//! Error answers: JSON with the field the client reads (`error` for register and verify-invite,
//! `message` elsewhere, as each operation's error type declares), translated, and the guard that
//! turns every other failure into one.

use crate::domain::Problem;
use crate::i18n::{Lang, Languages};
use poem::http::{header, Method, StatusCode};
use poem::{Endpoint, EndpointExt, IntoResponse, Request, Response};
use poem_openapi::payload::Json;
use poem_openapi::{ApiResponse, Object};
use serde_json::Value;
use std::collections::HashMap;
use std::sync::Arc;

/// The most a request body may hold; the forms are far smaller.
pub const BODY_LIMIT: usize = 16 * 1024;
/// How long a client has to send a body that small: a trickling body does not hold a request open.
pub const BODY_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(10);

#[derive(Object, Debug, Clone)]
pub struct MessageBody {
    pub message: String,
}

#[derive(Object, Debug, Clone)]
pub struct ErrorBody {
    pub error: String,
}

macro_rules! error_response {
    ($name:ident, $body:ident, $field:ident) => {
        #[derive(ApiResponse, Debug)]
        pub enum $name {
            /// The body is not valid JSON, misses a field, or a field breaks a rule.
            #[oai(status = 400)]
            BadRequest(Json<$body>),
            /// Not signed in, wrong credentials, or an invalid or expired token.
            #[oai(status = 401)]
            Unauthorized(Json<$body>),
            /// The request came from another site's page (its Origin is not ours).
            #[oai(status = 403)]
            Forbidden(Json<$body>),
            /// The body is larger than 16 KiB.
            #[oai(status = 413)]
            PayloadTooLarge(Json<$body>),
            /// The body is not `application/json`.
            #[oai(status = 415)]
            UnsupportedMediaType(Json<$body>),
            /// Too many attempts; try again after `Retry-After` seconds.
            #[oai(status = 429)]
            TooManyRequests(Json<$body>, #[oai(header = "Retry-After")] u64),
            /// Something failed on the server's side (the database or the mail server).
            #[oai(status = 500)]
            Internal(Json<$body>),
            /// Mail could not be sent, the database does not answer, or too many passwords are being
            /// checked right now; try again later (after `Retry-After` seconds when it is given).
            #[oai(status = 503)]
            Unavailable(Json<$body>, #[oai(header = "Retry-After")] Option<u64>),
        }

        impl $name {
            fn body(text: String) -> Json<$body> {
                Json($body { $field: text })
            }
        }

        impl From<(Failure, Lang)> for $name {
            fn from((failure, lang): (Failure, Lang)) -> Self {
                match failure {
                    Failure::BadRequest(problem) => $name::BadRequest(Self::body(problem.text(lang))),
                    Failure::Unauthorized(problem) => $name::Unauthorized(Self::body(problem.text(lang))),
                    Failure::TooMany(seconds) => $name::TooManyRequests(
                        Self::body(
                            Problem::TooManyRequests
                                .text(lang)
                                .replace("{seconds}", &seconds.to_string()),
                        ),
                        seconds,
                    ),
                    Failure::Unavailable(problem) => $name::Unavailable(Self::body(problem.text(lang)), None),
                    Failure::DatabaseDown(err) => {
                        tracing::warn!("database unavailable: {err:#}");
                        crate::metrics::database_unavailable();
                        $name::Unavailable(
                            Self::body(Problem::DatabaseUnavailable.text(lang)),
                            Some(DATABASE_RETRY_SECONDS),
                        )
                    }
                    Failure::Busy => $name::Unavailable(
                        Self::body(Problem::Busy.text(lang)),
                        Some(crate::passwords::BUSY_RETRY_SECONDS),
                    ),
                    Failure::Internal(err) => {
                        tracing::error!("internal error: {err:#}");
                        $name::Internal(Self::body(Problem::Internal.text(lang)))
                    }
                }
            }
        }
    };
}

error_response!(ApiError, MessageBody, message);
error_response!(FormError, ErrorBody, error);

/// Why a request failed, before it is put into words.
#[derive(Debug)]
pub enum Failure {
    BadRequest(Problem),
    Unauthorized(Problem),
    TooMany(u64),
    Unavailable(Problem),
    /// The database cannot be reached: a 503 the client may retry, not a 500. The error keeps
    /// the step that met it (`.context`), for the log.
    DatabaseDown(anyhow::Error),
    /// No turn at argon2 came in time (`secrets::Busy`).
    Busy,
    Internal(anyhow::Error),
}

/// The `Retry-After` of a 503 while the database is unreachable: about a restart's length.
pub const DATABASE_RETRY_SECONDS: u64 = 5;

impl From<sea_orm::DbErr> for Failure {
    fn from(err: sea_orm::DbErr) -> Self {
        anyhow::Error::from(err).into()
    }
}

impl From<anyhow::Error> for Failure {
    fn from(err: anyhow::Error) -> Self {
        if err.is::<crate::passwords::Busy>() {
            Failure::Busy
        } else if err
            .downcast_ref::<sea_orm::DbErr>()
            .is_some_and(crate::db::is_unavailable)
        {
            Failure::DatabaseDown(err)
        } else {
            Failure::Internal(err)
        }
    }
}

/// For the log, and for sea-orm's `transaction`, which rolls back when its closure fails.
impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Failure::BadRequest(problem) | Failure::Unauthorized(problem) | Failure::Unavailable(problem) => {
                f.write_str(problem.key())
            }
            Failure::TooMany(seconds) => write!(f, "rate limited for {seconds} s"),
            Failure::DatabaseDown(err) | Failure::Internal(err) => write!(f, "{err:#}"),
            Failure::Busy => f.write_str("no turn at the password hasher"),
        }
    }
}

/// A transaction's own failure (begin, commit or rollback), or the failure that rolled it back.
impl From<sea_orm::TransactionError<Failure>> for Failure {
    fn from(err: sea_orm::TransactionError<Failure>) -> Self {
        match err {
            sea_orm::TransactionError::Connection(err) => anyhow::Error::from(err)
                .context("beginning or ending a transaction")
                .into(),
            sea_orm::TransactionError::Transaction(failure) => failure,
        }
    }
}

impl From<crate::passwords::Busy> for Failure {
    fn from(_: crate::passwords::Busy) -> Self {
        Failure::Busy
    }
}

impl From<crate::rate_limit::RetryAfter> for Failure {
    fn from(wait: crate::rate_limit::RetryAfter) -> Self {
        // Logins log their own refusals with the username; this covers mail and code limits.
        tracing::warn!(
            event = "request_limited",
            retry_after = wait.0,
            "request refused by a limit"
        );
        Failure::TooMany(wait.0)
    }
}

/// The JSON field of each path's error answers, as its operation's error type declares it in the
/// OpenAPI document: `FormError` (sign-up forms, whose client reads `error`) or `ApiError`
/// (`message`). The guard's own answers for a path (a foreign Origin, a body too large, too slow
/// or not JSON, a wrong method) use the same field, so the operation's type alone decides it.
pub struct ErrorFields(HashMap<String, String>);

impl ErrorFields {
    /// Reads the fields from the OpenAPI document: the one property of each operation's 400 body.
    pub fn from_openapi(doc: &str) -> ErrorFields {
        let doc: Value = serde_json::from_str(doc).unwrap_or_default();
        let schemas = &doc["components"]["schemas"];
        let field_of = |op: &Value| -> Option<String> {
            let content = op["responses"]["400"]["content"].as_object()?;
            let reference = content.values().next()?["schema"]["$ref"].as_str()?;
            let properties = schemas[reference.rsplit('/').next()?]["properties"].as_object()?;
            let mut names = properties.keys();
            match (names.next(), names.next()) {
                (Some(name), None) => Some(name.clone()),
                _ => None,
            }
        };
        let paths = doc["paths"].as_object().into_iter().flatten();
        let fields = paths.filter_map(|(path, operations)| {
            let field = operations.as_object()?.values().find_map(field_of)?;
            Some((path.clone(), field))
        });
        ErrorFields(fields.collect())
    }

    /// The field for a request path (with or without the `/api` it is mounted under); `message`
    /// where no operation says otherwise.
    fn of(&self, path: &str) -> &str {
        let path = path.strip_prefix("/api").unwrap_or(path);
        self.0.get(path).map_or("message", String::as_str)
    }
}

fn json_error(status: StatusCode, field: &str, text: String) -> Response {
    Response::builder()
        .status(status)
        .content_type("application/json; charset=utf-8")
        .body(serde_json::json!({ field: text }).to_string())
}

fn generic_problem(status: StatusCode) -> Problem {
    match status {
        StatusCode::UNSUPPORTED_MEDIA_TYPE => Problem::UnsupportedMediaType,
        StatusCode::PAYLOAD_TOO_LARGE => Problem::PayloadTooLarge,
        StatusCode::REQUEST_TIMEOUT => Problem::RequestTimeout,
        StatusCode::NOT_FOUND => Problem::NotFound,
        StatusCode::METHOD_NOT_ALLOWED => Problem::MethodNotAllowed,
        StatusCode::UNAUTHORIZED => Problem::Unauthorized,
        StatusCode::FORBIDDEN => Problem::ForbiddenOrigin,
        s if s.is_server_error() => Problem::Internal,
        _ => Problem::BadRequest,
    }
}

/// An Origin is ours when it is PUBLIC_URL's origin or `http://<Host>`.
fn origin_allowed(req: &Request, public_origin: &str) -> bool {
    let Some(origin) = req.headers().get(header::ORIGIN) else {
        // Browsers send Origin on every cross-site POST; its absence means no browser page sent it.
        return true;
    };
    let Ok(origin) = origin.to_str() else { return false };
    if origin == public_origin {
        return true;
    }
    req.headers()
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .is_some_and(|host| origin == format!("http://{host}"))
}

/// Wraps the API: Origin check and body limit on POSTs and DELETEs, JSON for every failure (in
/// the request's language of `languages`), no caching.
pub fn guard<E: Endpoint + 'static>(
    api: E,
    public_origin: String,
    fields: ErrorFields,
    languages: &'static Languages,
) -> impl Endpoint<Output = Response> {
    let shared = Arc::new((public_origin, fields));
    api.around(move |ep, mut req| {
        let shared = shared.clone();
        async move {
            let (public_origin, fields) = &*shared;
            let lang = languages.of_request(&req);
            let field = fields.of(req.uri().path());
            let fail = |status: StatusCode| json_error(status, field, generic_problem(status).text(lang));
            let mut resp = 'answer: {
                // DELETE (ending a session) is refused from other sites like POST is.
                if req.method() == Method::POST || req.method() == Method::DELETE {
                    if !origin_allowed(&req, public_origin) {
                        tracing::warn!(
                            event = "origin_refused",
                            path = req.uri().path(),
                            origin = req
                                .headers()
                                .get(header::ORIGIN)
                                .and_then(|v| v.to_str().ok())
                                .unwrap_or(""),
                            "POST refused: its Origin is not the site's"
                        );
                        break 'answer fail(StatusCode::FORBIDDEN);
                    }
                    let declared = req
                        .headers()
                        .get(header::CONTENT_LENGTH)
                        .and_then(|v| v.to_str().ok())
                        .and_then(|v| v.parse::<usize>().ok());
                    if declared.is_some_and(|len| len > BODY_LIMIT) {
                        break 'answer fail(StatusCode::PAYLOAD_TOO_LARGE);
                    }
                    let body = req.take_body().into_bytes_limit(BODY_LIMIT);
                    match tokio::time::timeout(BODY_TIMEOUT, body).await {
                        Ok(Ok(bytes)) => req.set_body(bytes),
                        Ok(Err(poem::error::ReadBodyError::PayloadTooLarge)) => {
                            break 'answer fail(StatusCode::PAYLOAD_TOO_LARGE)
                        }
                        Ok(Err(_)) => break 'answer fail(StatusCode::BAD_REQUEST),
                        Err(_) => break 'answer fail(StatusCode::REQUEST_TIMEOUT),
                    }
                }
                match ep.call(req).await {
                    Ok(resp) => resp.into_response(),
                    Err(err) if err.is_from_response() => err.into_response(),
                    Err(err) => {
                        let status = err.status();
                        if status.is_server_error() {
                            tracing::error!("internal error: {err}");
                        }
                        fail(status)
                    }
                }
            };
            resp.headers_mut()
                .insert(header::CACHE_CONTROL, header::HeaderValue::from_static("no-store"));
            Ok(resp)
        }
    })
}
