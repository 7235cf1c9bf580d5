//! The HTTP side of both remote transports (§7.2.1): one reqwest client per
//! server that follows a redirect only within the configured origin, and one
//! way to merge headers, where the client's own (Accept, Content-Type, the
//! MCP headers) replace configured ones of the same case-insensitive name.
//! [`GuardedHttp`] is the streamable-http client rmcp's transport drives.

use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::Arc;

use futures::StreamExt;
use futures::stream::BoxStream;
use http::{HeaderMap, HeaderName, HeaderValue, StatusCode};
use rmcp::ErrorData;
use rmcp::model::{ClientJsonRpcMessage, ClientRequest, ServerJsonRpcMessage};
use rmcp::transport::streamable_http_client::{StreamableHttpClient, StreamableHttpError, StreamableHttpPostResponse};
use sse_stream::{Sse, SseStream};

use super::raw::RawPages;

/// The largest response body or SSE stream read from a server.
pub const MAX_BODY_BYTES: usize = 32 * 1024 * 1024;

/// What a refused cross-origin hop says, in the server's `reason`.
pub fn cross_origin_refusal(from: &reqwest::Url, to: &reqwest::Url, via: &str) -> String {
    format!(
        "refused to follow {via} from {} to another origin, {}: configured headers are never sent to another origin (§7.2.1)",
        origin(from),
        origin(to)
    )
}

/// `scheme://host:port`, the origin of RFC 6454.
pub fn origin(url: &reqwest::Url) -> String {
    url.origin().ascii_serialization()
}

/// A client for one server whose configured headers are `configured`:
/// redirects within the origin are followed (up to 10), any other is refused.
pub fn client(configured: &[(String, String)]) -> Result<(reqwest::Client, HeaderMap), String> {
    let mut headers = HeaderMap::new();
    for (name, value) in configured {
        let name =
            HeaderName::from_bytes(name.as_bytes()).map_err(|_| format!("header name {name:?} is not valid HTTP"))?;
        let value =
            HeaderValue::from_str(value).map_err(|_| format!("the value of header {name} is not valid HTTP"))?;
        headers.append(name, value);
    }
    let policy = reqwest::redirect::Policy::custom(|attempt| {
        let first = attempt.previous().first().cloned();
        match first {
            Some(first) if first.origin() != attempt.url().origin() => {
                let refusal = cross_origin_refusal(&first, attempt.url(), "a redirect");
                attempt.error(refusal)
            }
            _ if attempt.previous().len() > 10 => attempt.error("more than 10 redirects"),
            _ => attempt.follow(),
        }
    });
    let client = reqwest::Client::builder()
        .redirect(policy)
        // Ambient proxy settings would send the package's traffic elsewhere.
        .no_proxy()
        .tls_backend_preconfigured(tls_config())
        .build()
        .map_err(|e| format!("cannot set up HTTP: {e}"))?;
    Ok((client, headers))
}

/// rustls with the ring provider and the platform's roots.
fn tls_config() -> rustls::ClientConfig {
    use rustls_platform_verifier::BuilderVerifierExt;
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .expect("ring supports the default TLS versions")
        .with_platform_verifier()
        .expect("the platform verifier builds")
        .with_no_client_auth()
}

/// `configured`, then `generated` on top: a generated header replaces every
/// configured value of the same name (names compare case-insensitively).
pub fn merged(configured: &HeaderMap, generated: impl IntoIterator<Item = (HeaderName, HeaderValue)>) -> HeaderMap {
    let mut headers = configured.clone();
    for (name, value) in generated {
        headers.insert(name, value);
    }
    headers
}

/// Why a request failed, without the noise of reqwest's error chain, and
/// with a refused redirect's own words.
pub fn describe(error: &reqwest::Error) -> String {
    let mut source: Option<&dyn std::error::Error> = Some(error);
    let mut deepest = error.to_string();
    while let Some(current) = source {
        deepest = current.to_string();
        source = current.source();
    }
    if error.is_redirect() {
        return deepest;
    }
    if error.is_connect() {
        return format!(
            "cannot connect to {}: {deepest}",
            error.url().map_or_else(String::new, origin)
        );
    }
    format!("{error}: {deepest}")
}

/// A body no larger than [`MAX_BODY_BYTES`].
async fn bounded_body(response: reqwest::Response) -> Result<Vec<u8>, String> {
    let mut body = Vec::new();
    let mut stream = response.bytes_stream();
    while let Some(chunk) = stream.next().await {
        let chunk = chunk.map_err(|e| describe(&e))?;
        if body.len() + chunk.len() > MAX_BODY_BYTES {
            return Err(format!("the response is larger than {MAX_BODY_BYTES} bytes"));
        }
        body.extend_from_slice(&chunk);
    }
    Ok(body)
}

/// The SSE events of `response`, each `data` also handed to `pages`.
pub fn events(response: reqwest::Response, pages: RawPages) -> BoxStream<'static, Result<Sse, sse_stream::Error>> {
    let mut seen = 0usize;
    let bytes = response.bytes_stream().map(move |chunk| {
        let chunk = chunk.map_err(std::io::Error::other)?;
        seen += chunk.len();
        if seen > MAX_BODY_BYTES {
            return Err(std::io::Error::other(format!(
                "the event stream passed {MAX_BODY_BYTES} bytes"
            )));
        }
        Ok(chunk)
    });
    SseStream::from_bytes_stream(bytes)
        .map(move |event| {
            if let Ok(Sse { data: Some(data), .. }) = &event {
                pages.observe_bytes(data.as_bytes());
            }
            event
        })
        .boxed()
}

/// The last thing that went wrong on the wire, in our words: rmcp wraps a
/// transport error in its own layers, and a reason should name the cause.
/// The last, because a legacy server's refusal of `server/discover` comes
/// first and is not what failed when the `initialize` fallback fails too.
#[derive(Clone, Default)]
pub struct LastFailure(Arc<std::sync::Mutex<Option<String>>>);

impl LastFailure {
    pub fn record(&self, message: &str) {
        let mut slot = self.0.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        *slot = Some(message.to_string());
    }

    /// The recorded cause, else `fallback`.
    pub fn or(&self, fallback: String) -> String {
        let slot = self.0.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        slot.clone().unwrap_or(fallback)
    }
}

/// The streamable-http client (MCP 2025-11-25 §Transports) over [`client`]'s guarded reqwest.
#[derive(Clone)]
pub struct GuardedHttp {
    pub client: reqwest::Client,
    pub configured: HeaderMap,
    pub pages: RawPages,
    pub failure: LastFailure,
}

#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct HttpFailure(pub String);

type Failed = StreamableHttpError<HttpFailure>;

fn failed(message: impl Into<String>) -> Failed {
    StreamableHttpError::Client(HttpFailure(message.into()))
}

const SESSION_HEADER: &str = "mcp-session-id";

impl GuardedHttp {
    fn headers(
        &self,
        accept: &'static str,
        session: Option<&str>,
        mcp_headers: HashMap<HeaderName, HeaderValue>,
    ) -> Result<HeaderMap, Failed> {
        let mut generated: Vec<(HeaderName, HeaderValue)> =
            vec![(http::header::ACCEPT, HeaderValue::from_static(accept))];
        if let Some(session) = session {
            let value =
                HeaderValue::from_str(session).map_err(|_| failed("the server's session id is not a header value"))?;
            generated.push((HeaderName::from_static(SESSION_HEADER), value));
        }
        generated.extend(mcp_headers);
        Ok(merged(&self.configured, generated))
    }
}

/// A legacy server's 4xx to `server/discover` (MCP 2026-07-28 versioning: the
/// client then falls back to `initialize`), as the JSON-RPC error rmcp's
/// lifecycle classifies; authentication failures stay failures.
fn discover_refusal(
    message: &ClientJsonRpcMessage,
    session_attached: bool,
    status: StatusCode,
    body: &[u8],
) -> Option<StreamableHttpPostResponse> {
    let ClientJsonRpcMessage::Request(request) = message else {
        return None;
    };
    let refused = !session_attached
        && status.is_client_error()
        && !matches!(status, StatusCode::UNAUTHORIZED | StatusCode::FORBIDDEN)
        && matches!(request.request, ClientRequest::DiscoverRequest(_));
    if !refused {
        return None;
    }
    let error = match serde_json::from_slice::<ServerJsonRpcMessage>(body) {
        Ok(ServerJsonRpcMessage::Error(error)) => error.error,
        _ => ErrorData::invalid_request(format!("server/discover refused with HTTP {status}"), None),
    };
    Some(StreamableHttpPostResponse::Json(
        ServerJsonRpcMessage::error(error, Some(request.id.clone())),
        None,
    ))
}

fn status_failure(status: StatusCode, body: &[u8]) -> Failed {
    let text = String::from_utf8_lossy(&body[..body.len().min(200)]).trim().to_string();
    let why = match status {
        StatusCode::UNAUTHORIZED | StatusCode::FORBIDDEN => " (authentication failed or is required)",
        _ => "",
    };
    let detail = if text.is_empty() {
        String::new()
    } else {
        format!(": {text}")
    };
    StreamableHttpError::UnexpectedServerResponse(Cow::Owned(format!("HTTP {status}{why}{detail}")))
}

impl StreamableHttpClient for GuardedHttp {
    type Error = HttpFailure;

    async fn get_stream(
        &self,
        _uri: Arc<str>,
        _session_id: Option<Arc<str>>,
        _last_event_id: Option<String>,
        _auth_token: Option<String>,
        _custom_headers: HashMap<HeaderName, HeaderValue>,
    ) -> Result<BoxStream<'static, Result<Sse, sse_stream::Error>>, Failed> {
        // The optional server-initiated stream carries nothing a tool listing needs.
        Err(StreamableHttpError::ServerDoesNotSupportSse)
    }

    async fn delete_session(
        &self,
        uri: Arc<str>,
        session: Arc<str>,
        _auth_token: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
    ) -> Result<(), Failed> {
        let headers = self.headers("application/json, text/event-stream", Some(&session), custom_headers)?;
        // Ending the session is a courtesy; a server that refuses it changes nothing.
        let _ = self.client.delete(uri.as_ref()).headers(headers).send().await;
        Ok(())
    }

    async fn post_message(
        &self,
        uri: Arc<str>,
        message: ClientJsonRpcMessage,
        session_id: Option<Arc<str>>,
        _auth_token: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
    ) -> Result<StreamableHttpPostResponse, Failed> {
        let posted = self.post(uri, message, session_id, custom_headers).await;
        if let Err(error) = &posted {
            match error {
                StreamableHttpError::Client(HttpFailure(message)) => self.failure.record(message),
                // The transport retries these itself.
                StreamableHttpError::SessionExpired => {}
                other => self.failure.record(&other.to_string()),
            }
        }
        posted
    }
}

impl GuardedHttp {
    async fn post(
        &self,
        uri: Arc<str>,
        message: ClientJsonRpcMessage,
        session_id: Option<Arc<str>>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
    ) -> Result<StreamableHttpPostResponse, Failed> {
        let mut headers = self.headers(
            "application/json, text/event-stream",
            session_id.as_deref(),
            custom_headers,
        )?;
        headers.insert(http::header::CONTENT_TYPE, HeaderValue::from_static("application/json"));
        let body = serde_json::to_vec(&message)?;
        let response = self
            .client
            .post(uri.as_ref())
            .headers(headers)
            .body(body)
            .send()
            .await
            .map_err(|e| failed(describe(&e)))?;
        let status = response.status();
        if matches!(status, StatusCode::ACCEPTED | StatusCode::NO_CONTENT) {
            return Ok(StreamableHttpPostResponse::Accepted);
        }
        if status == StatusCode::NOT_FOUND && session_id.is_some() {
            return Err(StreamableHttpError::SessionExpired);
        }
        let session = response
            .headers()
            .get(SESSION_HEADER)
            .and_then(|v| v.to_str().ok())
            .map(str::to_string);
        let content_type = response
            .headers()
            .get(http::header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .map(|v| v.split(';').next().unwrap_or("").trim().to_ascii_lowercase());
        if !status.is_success() {
            let body = bounded_body(response).await.unwrap_or_default();
            if let Some(refusal) = discover_refusal(&message, session_id.is_some(), status, &body) {
                return Ok(refusal);
            }
            return Err(status_failure(status, &body));
        }
        match content_type.as_deref() {
            Some("text/event-stream") => Ok(StreamableHttpPostResponse::Sse(
                events(response, self.pages.clone()),
                session,
            )),
            Some("application/json") => {
                let body = bounded_body(response).await.map_err(failed)?;
                self.pages.observe_bytes(&body);
                let message: ServerJsonRpcMessage = serde_json::from_slice(&body)?;
                Ok(StreamableHttpPostResponse::Json(message, session))
            }
            other => Err(StreamableHttpError::UnexpectedContentType(other.map(str::to_string))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generated_headers_replace_configured_ones_of_any_case() {
        // §7.2.1: client-generated headers take precedence, names compared case-insensitively.
        let (_, configured) = client(&[
            ("AcCePt".into(), "text/plain".into()),
            ("x-apc-fixture".into(), "${PLUGIN_ROOT}|v a l".into()),
        ])
        .unwrap();
        let headers = merged(
            &configured,
            [(http::header::ACCEPT, HeaderValue::from_static("text/event-stream"))],
        );
        assert_eq!(
            headers.get_all("accept").iter().collect::<Vec<_>>(),
            ["text/event-stream"]
        );
        assert_eq!(headers["x-apc-fixture"], "${PLUGIN_ROOT}|v a l");
    }

    #[test]
    fn invalid_configured_headers_fail_before_any_request() {
        assert!(
            client(&[("bad name".into(), "v".into())])
                .unwrap_err()
                .contains("not valid HTTP")
        );
        assert!(
            client(&[("x".into(), "line\nbreak".into())])
                .unwrap_err()
                .contains("not valid HTTP")
        );
    }
}
