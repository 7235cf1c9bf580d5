//! A small JSON-RPC client that drives `apcheck lsp` over stdio, as an
//! editor would; shared by `tests/lsp.rs` and `benches/lsp.rs`.

// Each includer uses its own part of the client.
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::Duration;

use serde_json::{Value, json};

/// Generous: a debug build on a loaded machine; the benchmark measures speed.
const WAIT: Duration = Duration::from_secs(30);

pub struct Client {
    child: Child,
    stdin: ChildStdin,
    incoming: Receiver<Value>,
    next_id: u64,
}

impl Client {
    pub fn start(initialization_options: Value) -> Client {
        Client::start_with(json!({}), initialization_options)
    }

    /// A client that offers these `capabilities` in `initialize`.
    pub fn start_with(capabilities: Value, initialization_options: Value) -> Client {
        let mut client = Client::spawn();
        let result = client.request(
            "initialize",
            json!({
                "processId": null,
                "rootUri": null,
                "capabilities": capabilities,
                "initializationOptions": initialization_options,
            }),
        );
        assert_eq!(result["capabilities"]["positionEncoding"], "utf-16");
        assert_eq!(result["serverInfo"]["name"], "apcheck");
        client.notify("initialized", json!({}));
        client
    }

    /// The server started, not yet initialized.
    pub fn spawn() -> Client {
        let mut child = Command::new(env!("CARGO_BIN_EXE_apcheck"))
            .args(["lsp", "--stdio"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("apcheck starts");
        let stdin = child.stdin.take().unwrap();
        let mut stdout = BufReader::new(child.stdout.take().unwrap());
        let (sender, incoming) = channel();
        std::thread::spawn(move || {
            loop {
                let mut length = None;
                loop {
                    let mut header = String::new();
                    if stdout.read_line(&mut header).unwrap_or(0) == 0 {
                        return;
                    }
                    let header = header.trim_end();
                    if header.is_empty() {
                        break;
                    }
                    if let Some(value) = header.strip_prefix("Content-Length: ") {
                        length = Some(value.parse::<usize>().unwrap());
                    }
                }
                let mut body = vec![0; length.expect("every message has a Content-Length")];
                stdout.read_exact(&mut body).unwrap();
                if sender.send(serde_json::from_slice(&body).unwrap()).is_err() {
                    return;
                }
            }
        });
        Client {
            child,
            stdin,
            incoming,
            next_id: 0,
        }
    }

    fn send(&mut self, message: Value) {
        let body = message.to_string();
        write!(self.stdin, "Content-Length: {}\r\n\r\n{body}", body.len()).unwrap();
        self.stdin.flush().unwrap();
    }

    pub fn notify(&mut self, method: &str, params: Value) {
        self.send(json!({"jsonrpc": "2.0", "method": method, "params": params}));
    }

    /// Sends a request and returns its result, skipping notifications on the way.
    pub fn request(&mut self, method: &str, params: Value) -> Value {
        let message = self.response(method, params);
        assert!(message.get("error").is_none(), "{message}");
        message["result"].clone()
    }

    /// The next diagnostics published for `uri`.
    pub fn diagnostics_for(&mut self, uri: &str) -> Vec<Value> {
        loop {
            let message = self.incoming.recv_timeout(WAIT).expect("diagnostics are published");
            if message["method"] == "textDocument/publishDiagnostics" && message["params"]["uri"] == uri {
                return message["params"]["diagnostics"].as_array().unwrap().clone();
            }
        }
    }

    /// The next request of `method` from the server, answered with `result`; returns its params.
    pub fn answer(&mut self, method: &str, result: Value) -> Value {
        loop {
            let message = self.incoming.recv_timeout(WAIT).expect("the request is sent");
            if message["method"] == method && message.get("id").is_some() {
                self.send(json!({"jsonrpc": "2.0", "id": message["id"], "result": result}));
                return message["params"].clone();
            }
        }
    }

    /// The params of the next notification of `method` from the server.
    pub fn notification(&mut self, method: &str) -> Value {
        loop {
            let message = self.incoming.recv_timeout(WAIT).expect("the notification is sent");
            if message["method"] == method && message.get("id").is_none() {
                return message["params"].clone();
            }
        }
    }

    /// The diagnostics published for each of `uris`, in whatever order they come.
    pub fn diagnostics_for_all(&mut self, uris: &[&str]) -> Vec<Vec<Value>> {
        let mut found: Vec<Option<Vec<Value>>> = vec![None; uris.len()];
        while found.iter().any(Option::is_none) {
            let message = self.incoming.recv_timeout(WAIT).expect("diagnostics are published");
            if message["method"] != "textDocument/publishDiagnostics" {
                continue;
            }
            if let Some(i) = uris.iter().position(|uri| message["params"]["uri"] == *uri) {
                found[i] = Some(message["params"]["diagnostics"].as_array().unwrap().clone());
            }
        }
        found.into_iter().map(Option::unwrap).collect()
    }

    /// Sends a request and returns the whole response (`result` or `error`).
    pub fn response(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        loop {
            let message = self.incoming.recv_timeout(WAIT).expect("a response");
            if message["id"] == id && message.get("method").is_none() {
                return message;
            }
        }
    }

    /// Sends `exit` and returns the server's exit code.
    pub fn exit(mut self) -> i32 {
        self.notify("exit", Value::Null);
        self.child.wait().unwrap().code().expect("an exit code")
    }

    pub fn shutdown(mut self) {
        assert_eq!(self.request("shutdown", Value::Null), Value::Null);
        self.notify("exit", Value::Null);
        let status = self.child.wait().unwrap();
        assert!(status.success(), "{status}");
    }
}

pub fn open(client: &mut Client, uri: &str, text: &str) {
    client.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": uri, "languageId": "json", "version": 1, "text": text}}),
    );
}

pub fn change(client: &mut Client, uri: &str, version: i32, text: &str) {
    client.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri, "version": version}, "contentChanges": [{"text": text}]}),
    );
}
