//! Turns a resolved path into a response from the precomputed representations.

use super::encoding;
use super::files::{Entry, Site, Variant};
use super::headers;
use super::routes::{self, Resolved};
use poem::http::header::{ALLOW, CACHE_CONTROL, CONTENT_TYPE, ETAG, LOCATION, VARY};
use poem::http::{HeaderMap, HeaderValue, Method, StatusCode};
use poem::{Body, Request, Response};

pub fn respond(site: &Site, req: &Request) -> Response {
    let method = req.method();
    if method != Method::GET && method != Method::HEAD {
        let mut response = plain(site, StatusCode::METHOD_NOT_ALLOWED, "Method Not Allowed\n");
        response
            .headers_mut()
            .insert(ALLOW, HeaderValue::from_static("GET, HEAD"));
        return response;
    }
    let headers = req.headers();
    match routes::resolve(site, req.uri().path(), headers) {
        Resolved::File { entry, negotiated } => {
            let variant = pick(entry, headers);
            let status = if encoding::not_modified(headers, &variant.etag) {
                StatusCode::NOT_MODIFIED
            } else {
                StatusCode::OK
            };
            build(
                status,
                variant_headers(variant, negotiated).clone(),
                variant,
                status == StatusCode::OK,
            )
        }
        Resolved::NotFoundPage { entry, negotiated } => {
            let variant = pick(entry, headers);
            let mut headers = variant_headers(variant, negotiated).clone();
            // The 404 page is not the representation of this URL; it must not be revalidated as one.
            headers.remove(ETAG);
            build(StatusCode::NOT_FOUND, headers, variant, true)
        }
        Resolved::NotFound => plain(site, StatusCode::NOT_FOUND, "Not Found\n"),
        Resolved::BadRequest => plain(site, StatusCode::BAD_REQUEST, "Bad Request\n"),
        Resolved::Moved { location, negotiated } => {
            let mut response = Response::builder()
                .status(StatusCode::MOVED_PERMANENTLY)
                .body(Body::empty());
            let headers = response.headers_mut();
            headers.insert(LOCATION, location.clone());
            // Unprefixed, the target follows the visitor's language: caches must ask again.
            if negotiated {
                headers.insert(VARY, headers::VARY_LANGUAGE);
                headers.insert(CACHE_CONTROL, HeaderValue::from_static("no-cache"));
            }
            site.security.apply(headers);
            response
        }
        Resolved::Redirect(location) => {
            let mut response = Response::builder().status(StatusCode::FOUND).body(Body::empty());
            let headers = response.headers_mut();
            headers.insert(LOCATION, location.clone());
            headers.insert(CACHE_CONTROL, HeaderValue::from_static("no-cache"));
            site.security.apply(headers);
            response
        }
    }
}

fn pick<'a>(entry: &'a Entry, headers: &HeaderMap) -> &'a Variant {
    entry.variant(encoding::choose(headers, entry.gzip.is_some(), entry.brotli.is_some()))
}

fn variant_headers(variant: &Variant, negotiated: bool) -> &HeaderMap {
    if negotiated {
        &variant.negotiated_headers
    } else {
        &variant.headers
    }
}

fn build(status: StatusCode, headers: HeaderMap, variant: &Variant, with_body: bool) -> Response {
    // HEAD keeps the body: hyper sends its length and drops the bytes.
    let body = if with_body {
        Body::from_bytes(variant.body.clone())
    } else {
        Body::empty()
    };
    let mut response = Response::builder().status(status).body(body);
    *response.headers_mut() = headers;
    response
}

fn plain(site: &Site, status: StatusCode, text: &'static str) -> Response {
    let mut response = Response::builder().status(status).body(text);
    let headers = response.headers_mut();
    headers.insert(CONTENT_TYPE, HeaderValue::from_static("text/plain; charset=utf-8"));
    headers.insert(CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    site.security.apply(headers);
    response
}
