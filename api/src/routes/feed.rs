//! `/api/feed`: the owner's blog feed as JSON (the cache and the fetching are in `crate::feed`).

use crate::feed::FeedBody;
use crate::state::AppState;
use poem_openapi::payload::Json;
use poem_openapi::{ApiResponse, OpenApi};
use std::sync::Arc;

pub struct FeedApi(pub Arc<AppState>);

#[derive(ApiResponse)]
pub enum FeedResponse {
    #[oai(status = 200)]
    Ok(Json<FeedBody>),
}

#[OpenApi]
impl FeedApi {
    /// The owner's blog posts, newest first as the feed lists them.
    #[oai(path = "/feed", method = "get")]
    async fn feed(&self) -> FeedResponse {
        let state = &self.0;
        FeedResponse::Ok(Json(state.feed.current(&state.settings, &state.http).await))
    }
}
