//! The legacy HTTP+SSE transport of MCP 2024-11-05, which `type: "sse"`
//! selects (§7.2.1): GET the event stream, wait for the `endpoint` event,
//! POST every message to that endpoint, read the answers from `message`
//! events. An endpoint on another origin is refused, because configured
//! headers would go with the POSTs (§7.2.1).

use futures::StreamExt;
use futures::stream::BoxStream;
use http::{HeaderMap, HeaderValue, StatusCode};
use rmcp::RoleClient;
use rmcp::model::ServerJsonRpcMessage;
use rmcp::service::{RxJsonRpcMessage, TxJsonRpcMessage};
use sse_stream::Sse;
use tokio::sync::mpsc;
use tokio::task::JoinHandle;

use super::raw::RawPages;
use super::remote::{self as guarded, HttpFailure, LastFailure};

pub struct LegacySse {
    client: reqwest::Client,
    headers: HeaderMap,
    endpoint: reqwest::Url,
    messages: mpsc::Receiver<ServerJsonRpcMessage>,
    reader: JoinHandle<()>,
    failure: LastFailure,
}

impl Drop for LegacySse {
    fn drop(&mut self) {
        self.reader.abort();
    }
}

/// Opens the stream at `url` and waits for its `endpoint` event.
pub async fn connect(
    url: &str,
    configured: &[(String, String)],
    pages: RawPages,
    failure: LastFailure,
) -> Result<LegacySse, String> {
    let (client, configured) = guarded::client(configured)?;
    let url = reqwest::Url::parse(url).map_err(|e| format!("url {url:?}: {e}"))?;
    let headers = guarded::merged(
        &configured,
        [(http::header::ACCEPT, HeaderValue::from_static("text/event-stream"))],
    );
    let response = client
        .get(url.clone())
        .headers(headers)
        .send()
        .await
        .map_err(|e| guarded::describe(&e))?;
    let status = response.status();
    if !status.is_success() {
        let why = match status {
            StatusCode::UNAUTHORIZED | StatusCode::FORBIDDEN => " (authentication failed or is required)",
            _ => "",
        };
        return Err(format!("the SSE stream answered HTTP {status}{why}"));
    }
    // The stream's URL after same-origin redirects: the base of a relative endpoint.
    let base = response.url().clone();
    let mut events = guarded::events(response, pages.clone());
    let endpoint = loop {
        match events.next().await {
            Some(Ok(Sse {
                event: Some(kind),
                data,
                ..
            })) if kind == "endpoint" => {
                let data = data.unwrap_or_default();
                let endpoint = base
                    .join(data.trim())
                    .map_err(|e| format!("the endpoint event names {data:?}, which is not a URL: {e}"))?;
                if endpoint.origin() != url.origin() {
                    return Err(guarded::cross_origin_refusal(&url, &endpoint, "the SSE endpoint event"));
                }
                break endpoint;
            }
            Some(Ok(_)) => continue,
            Some(Err(e)) => return Err(format!("the SSE stream broke before its endpoint event: {e}")),
            None => return Err("the SSE stream ended before its endpoint event".into()),
        }
    };
    let (sender, messages) = mpsc::channel(64);
    let reader = tokio::spawn(forward_messages(events, sender));
    Ok(LegacySse {
        client,
        headers: configured,
        endpoint,
        messages,
        reader,
        failure,
    })
}

/// Decodes each `message` event (the raw form already went to [`RawPages`]).
async fn forward_messages(
    mut events: BoxStream<'static, Result<Sse, sse_stream::Error>>,
    sender: mpsc::Sender<ServerJsonRpcMessage>,
) {
    while let Some(Ok(event)) = events.next().await {
        let is_message = event.event.as_deref().is_none_or(|kind| kind == "message");
        let Some(data) = event.data.filter(|_| is_message) else {
            continue;
        };
        // A message rmcp cannot type is dropped; its request then times out with a reason.
        if let Ok(message) = serde_json::from_str(&data)
            && sender.send(message).await.is_err()
        {
            return;
        }
    }
}

impl rmcp::transport::Transport<RoleClient> for LegacySse {
    type Error = HttpFailure;

    fn send(
        &mut self,
        item: TxJsonRpcMessage<RoleClient>,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        let request = self.client.post(self.endpoint.clone()).headers(guarded::merged(
            &self.headers,
            [
                (http::header::CONTENT_TYPE, HeaderValue::from_static("application/json")),
                (
                    http::header::ACCEPT,
                    HeaderValue::from_static("application/json, text/event-stream"),
                ),
            ],
        ));
        let failure = self.failure.clone();
        async move {
            let sent = async {
                let body = serde_json::to_vec(&item).map_err(|e| e.to_string())?;
                let response = request.body(body).send().await.map_err(|e| guarded::describe(&e))?;
                if response.status().is_success() {
                    Ok(())
                } else {
                    Err(format!("the SSE endpoint answered HTTP {}", response.status()))
                }
            };
            sent.await.map_err(|message| {
                failure.record(&message);
                HttpFailure(message)
            })
        }
    }

    fn receive(&mut self) -> impl Future<Output = Option<RxJsonRpcMessage<RoleClient>>> {
        self.messages.recv()
    }

    async fn close(&mut self) -> Result<(), Self::Error> {
        self.reader.abort();
        Ok(())
    }
}
