//! `/api/denglu/sessions`: the signed-in member's sessions (when each started, was last used and
//! from what kind of device), and ending one of them. A session is named by an opaque id
//! (`sessions::public_id`), never by its cookie value or the hash the database keys it by.

use super::errors::{ApiError, Failure, MessageBody};
use crate::db::entities::member;
use crate::state::AppState;
use crate::texts::Problem;
use crate::{sessions, user_agents};
use anyhow::Context;
use poem::Request;
use poem_openapi::param::Path;
use poem_openapi::payload::Json;
use poem_openapi::{ApiResponse, Object, OpenApi};
use std::sync::Arc;

pub struct SessionsApi(pub Arc<AppState>);

/// One session of the member.
#[derive(Object, Debug, Clone, PartialEq)]
#[oai(rename_all = "camelCase")]
pub struct SessionInfo {
    /// Names the session for `DELETE /denglu/sessions/{id}`; not its cookie value.
    pub id: String,
    /// When it started (the login), in Unix seconds.
    pub started_at: i64,
    /// When it was last used, in Unix seconds, to the hour.
    pub last_used_at: i64,
    /// The browser family of the login's `User-Agent` ("Firefox"), when it names a known one.
    #[oai(skip_serializing_if_is_none)]
    pub browser: Option<String>,
    /// The system family of the login's `User-Agent` ("Windows"), when it names a known one.
    #[oai(skip_serializing_if_is_none)]
    pub os: Option<String>,
    /// Whether this is the session the request came with.
    pub current: bool,
}

#[derive(Object, Debug, Clone, PartialEq)]
pub struct SessionList {
    /// Most recently used first.
    pub sessions: Vec<SessionInfo>,
}

#[derive(ApiResponse)]
pub enum ListResponse {
    /// The signed-in member's sessions still in force.
    #[oai(status = 200)]
    Ok(Json<SessionList>),
}

#[derive(ApiResponse)]
pub enum EndResponse {
    /// The session has ended; when it was this request's own, its cookie is cleared too.
    #[oai(status = 204)]
    Ended(#[oai(header = "Set-Cookie")] Option<String>),
    /// The member has no session by this id (it ended already, or it is someone else's).
    #[oai(status = 404)]
    NotFound(Json<MessageBody>),
}

#[OpenApi]
impl SessionsApi {
    /// The signed-in member's sessions (401 without one).
    #[oai(path = "/denglu/sessions", method = "get")]
    async fn list(&self, req: &Request) -> Result<ListResponse, ApiError> {
        let lang = self.0.languages.of_request(req);
        self.list_inner(req).await.map_err(|f| (f, lang).into())
    }

    /// Ends one of the signed-in member's sessions, named by its `id` from the list (401 without
    /// a session, 404 for an id that is not one of the member's).
    #[oai(path = "/denglu/sessions/:id", method = "delete")]
    async fn end(&self, req: &Request, id: Path<String>) -> Result<EndResponse, ApiError> {
        let lang = self.0.languages.of_request(req);
        match self.end_inner(req, &id.0).await {
            Ok(Some(cookie)) => Ok(EndResponse::Ended(cookie)),
            Ok(None) => Ok(EndResponse::NotFound(Json(MessageBody {
                message: Problem::SessionNotFound.text(lang),
            }))),
            Err(failure) => Err((failure, lang).into()),
        }
    }
}

impl SessionsApi {
    /// The member the request is signed in as, with its session's hash; 401 without one.
    async fn signed_in(&self, req: &Request) -> Result<(String, member::Model), Failure> {
        let state = &self.0;
        sessions::current(&state.db, state.settings.clock.as_ref(), req, state.secure_cookies())
            .await
            .context("reading the session")?
            .ok_or(Failure::Unauthorized(Problem::Unauthorized))
    }

    async fn list_inner(&self, req: &Request) -> Result<ListResponse, Failure> {
        let (own, member) = self.signed_in(req).await?;
        let state = &self.0;
        let found = sessions::of_member(&state.db, state.settings.clock.as_ref(), member.id)
            .await
            .context("listing the member's sessions")?;
        let sessions = found
            .into_iter()
            .map(|s| {
                let (browser, os) = s.user_agent.as_deref().map(user_agents::describe).unwrap_or_default();
                SessionInfo {
                    id: sessions::public_id(&s.token_hash),
                    started_at: s.created_at,
                    last_used_at: s.last_seen_at.unwrap_or(s.created_at),
                    browser: browser.map(str::to_string),
                    os: os.map(str::to_string),
                    current: s.token_hash == own,
                }
            })
            .collect();
        Ok(ListResponse::Ok(Json(SessionList { sessions })))
    }

    /// Some(the cookie to clear, if the session was this one) when a session ended, None when
    /// the member has none by that id.
    async fn end_inner(&self, req: &Request, id: &str) -> Result<Option<Option<String>>, Failure> {
        let (own, member) = self.signed_in(req).await?;
        let state = &self.0;
        if !sessions::end_by_public_id(&state.db, member.id, id)
            .await
            .context("ending one of the member's sessions")?
        {
            return Ok(None);
        }
        let was_own = sessions::public_id(&own) == id;
        tracing::info!(
            event = "session_ended",
            member_id = member.id,
            current = was_own,
            "the member ended one of their sessions"
        );
        Ok(Some(was_own.then(|| sessions::clear_cookie(state.secure_cookies()))))
    }
}
