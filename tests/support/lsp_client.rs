//! A small JSON-RPC client that drives `apcheck lsp` over stdio, as an
//! editor would; shared by `tests/lsp.rs` and `benches/lsp.rs`.

// Each includer uses its own part of the client.
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

/// Generous: a debug build on a loaded machine; the benchmark measures speed.
const WAIT: Duration = Duration::from_secs(30);

pub struct Client {
    child: Child,
    stdin: Option<ChildStdin>,
    incoming: Receiver<Value>,
    next_id: u64,
    /// What the server wrote to stderr so far (also passed on to the test's own).
    stderr: Arc<Mutex<String>>,
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
            .stderr(Stdio::piped())
            .spawn()
            .expect("apcheck starts");
        let stdin = child.stdin.take();
        let stderr = Arc::new(Mutex::new(String::new()));
        let mut server_stderr = BufReader::new(child.stderr.take().unwrap());
        let collected = Arc::clone(&stderr);
        std::thread::spawn(move || {
            let mut line = String::new();
            while server_stderr.read_line(&mut line).unwrap_or(0) > 0 {
                eprint!("{line}");
                collected.lock().unwrap().push_str(&line);
                line.clear();
            }
        });
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
            stderr,
        }
    }

    fn send(&mut self, message: Value) {
        self.send_body(message.to_string().as_bytes());
    }

    /// Sends `body` as one message, whatever it holds.
    pub fn send_body(&mut self, body: &[u8]) {
        self.send_bytes(format!("Content-Length: {}\r\n\r\n", body.len()).as_bytes());
        self.send_bytes(body);
    }

    /// Writes `bytes` to the server's stdin as they are.
    pub fn send_bytes(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin is open");
        stdin.write_all(bytes).unwrap();
        stdin.flush().unwrap();
    }

    /// The server's process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// What the server has written to stderr, once `done` holds of it (or
    /// after [`WAIT`]): stderr is read on a thread of its own, so a line may
    /// come after a response the server sent later.
    pub fn stderr_when(&self, done: impl Fn(&str) -> bool) -> String {
        let deadline = Instant::now() + WAIT;
        loop {
            let stderr = self.stderr.lock().unwrap().clone();
            if done(&stderr) || Instant::now() > deadline {
                return stderr;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    /// Sends a request and returns its id, without waiting for the response.
    pub fn send_request(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = json!(self.next_id);
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        id
    }

    /// The responses to the requests with `ids`, in that order, whatever order they come in.
    pub fn responses_to(&mut self, ids: &[&Value]) -> Vec<Value> {
        let mut found: Vec<Option<Value>> = vec![None; ids.len()];
        while found.iter().any(Option::is_none) {
            let message = self.incoming.recv_timeout(WAIT).expect("a response");
            if message.get("method").is_some() {
                continue;
            }
            if let Some(i) = ids.iter().position(|id| message["id"] == **id) {
                found[i] = Some(message);
            }
        }
        found.into_iter().map(Option::unwrap).collect()
    }

    /// The response to the request with `id`, skipping other messages on the way.
    pub fn response_to(&mut self, id: &Value) -> Value {
        loop {
            let message = self.incoming.recv_timeout(WAIT).expect("a response");
            if message["id"] == *id && message.get("method").is_none() {
                return message;
            }
        }
    }

    /// Closes the server's stdin, as a client that goes away, and returns its exit code.
    pub fn hang_up(mut self) -> i32 {
        self.stdin = None;
        self.wait()
    }

    /// The server's exit code, once it exits; a server that has not exited
    /// within [`WAIT`] is killed and the test fails.
    fn wait(&mut self) -> i32 {
        let deadline = Instant::now() + WAIT;
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status.code().expect("an exit code");
            }
            if Instant::now() > deadline {
                let _ = self.child.kill();
                panic!("the server has not exited within {WAIT:?}");
            }
            std::thread::sleep(Duration::from_millis(10));
        }
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
        let id = self.send_request(method, params);
        self.response_to(&id)
    }

    /// Sends `exit` and returns the server's exit code.
    pub fn exit(mut self) -> i32 {
        self.notify("exit", Value::Null);
        self.wait()
    }

    pub fn shutdown(mut self) {
        assert_eq!(self.request("shutdown", Value::Null), Value::Null);
        self.notify("exit", Value::Null);
        assert_eq!(self.wait(), 0);
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
