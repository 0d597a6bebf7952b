//! The API under `/api`: one module per flow.

pub mod docs;
pub mod errors;
pub mod feed;
pub mod google;
pub mod health;
pub mod login;
pub mod register;
pub mod reset;
pub mod sessions;

use crate::state::AppState;
use poem::{Endpoint, EndpointExt, Response, Route};
use poem_openapi::OpenApiService;
use std::sync::Arc;

/// The API's routes, with its OpenAPI document at `/openapi.json` and docs at `/docs`.
pub fn api(state: Arc<AppState>) -> impl Endpoint<Output = Response> {
    let service = OpenApiService::new(
        (
            login::LoginApi(state.clone()),
            sessions::SessionsApi(state.clone()),
            register::RegisterApi(state.clone()),
            reset::ResetApi(state.clone()),
            google::GoogleApi(state.clone()),
            feed::FeedApi(state.clone()),
            health::HealthApi(state.clone()),
        ),
        "Membership API",
        env!("CARGO_PKG_VERSION"),
    )
    .description(
        "Invitation-only sign-up, login, the member's sessions, password reset, Google sign-in, the blog feed and health checks.",
    )
    .server("/api");
    let fields = errors::ErrorFields::from_openapi(&service.spec());
    let spec = service.spec_endpoint();
    let docs = docs::docs_endpoint(service.swagger_ui_html());
    let public_origin = state.settings.public_url.origin().ascii_serialization();
    let routes = Route::new()
        .at("/openapi.json", spec)
        .at("/docs", docs)
        .nest("/", service.with(poem::middleware::CookieJarManager::new()));
    errors::guard(routes.map_to_response(), public_origin, fields, state.languages)
}
