//! `apcheck lsp`: a language server over stdio for `plugin.json`, `mcp.json`
//! and `skills/*/SKILL.md`: findings as you type, quick fixes, hover and completion. This is the protocol edge only (lsp-server's
//! connection and message types, lsp-types for the messages, with a bounded
//! framing reader of our own: `framing`, `transport`); what it knows about
//! plugins comes from the core (`apcheck::check_package`, `apcheck::assist`).
//!
//! One thread handles every message in order, and never waits on the disk:
//! packages are read on threads of their own (`packages`), and a request
//! about a package whose first read has not landed waits for it while the
//! loop goes on (`shutdown` and `exit` are answered at once). A buffer change marks its
//! package for a re-check after a short debounce, so a burst of keystrokes
//! costs one check; a request about a package with a pending re-check runs it
//! first, so answers always match the text the editor holds.
//!
//! Findings are shown with the configuration `apcheck check` would use
//! (`config`). It is loaded again when a configuration file is saved in the
//! editor or changes on disk (`workspace/didChangeWatchedFiles`, registered
//! when the client can watch files for the server), and, for a package, when
//! one of its files is saved.

mod config;
mod features;
mod framing;
mod packages;
mod position;
mod transport;

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use lsp_server::{Connection, ErrorCode, Message, Notification, Request, Response};
use lsp_types::notification::{
    DidChangeTextDocument, DidChangeWatchedFiles, DidCloseTextDocument, DidOpenTextDocument, DidSaveTextDocument,
    Notification as _, PublishDiagnostics, ShowMessage,
};
use lsp_types::request::{CodeActionRequest, Completion, HoverRequest, RegisterCapability, Request as _};
use lsp_types::{
    CodeActionKind, CodeActionOptions, CodeActionProviderCapability, CompletionOptions,
    DidChangeWatchedFilesRegistrationOptions, FileSystemWatcher, GlobPattern, HoverProviderCapability,
    InitializeParams, MessageType, PositionEncodingKind, PublishDiagnosticsParams, Registration, RegistrationParams,
    ResourceOperationKind, SaveOptions, ServerCapabilities, ServerInfo, ShowMessageParams, TextDocumentSyncCapability,
    TextDocumentSyncKind, TextDocumentSyncOptions, TextDocumentSyncSaveOptions, Uri,
};
use serde::Deserialize;

use crate::output::{EXIT_CLEAN, EXIT_FAILURE};
use crate::settings;
use packages::{Loaded, Packages};
use position::{Encoding, path_of};

#[derive(clap::Args)]
pub struct LspArgs {
    /// Talk over stdin and stdout (the only transport; accepted because editors pass it).
    #[arg(long)]
    stdio: bool,
}

/// What an editor may set in `initializationOptions`.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase", default)]
struct Options {
    /// How long after the last change a package is re-checked.
    debounce_ms: u64,
    /// Where rule docs live: each diagnostic links to `{ruleDocs}CODE`
    /// (`http://127.0.0.1:8787/#rules/` for the page `npm start` serves).
    rule_docs: String,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            debounce_ms: 50,
            rule_docs: apcheck::rule::DOCS_BASE_URL.to_string(),
        }
    }
}

pub fn run(_args: LspArgs) -> ExitCode {
    let (connection, io_threads) = transport::stdio();
    let outcome = serve(&connection);
    drop(connection);
    let joined = io_threads.join();
    match (outcome, joined) {
        // LSP 3.17 §exit: 0 when `shutdown` came first, 1 otherwise.
        (Ending::ShutDown, Ok(())) => ExitCode::from(EXIT_CLEAN),
        (Ending::WithoutShutdown, Ok(())) => ExitCode::from(EXIT_WITHOUT_SHUTDOWN),
        (_, Err(error)) => {
            crate::output::say(format!("lsp: {error}"));
            ExitCode::from(EXIT_FAILURE)
        }
    }
}

/// How a session ended.
enum Ending {
    ShutDown,
    /// `exit` (or the client hanging up) without a `shutdown` first.
    WithoutShutdown,
}

/// The exit code after an `exit` that no `shutdown` preceded (LSP 3.17 §exit).
const EXIT_WITHOUT_SHUTDOWN: u8 = 1;

/// Waits for an `initialize` request whose params parse, answering every
/// other request with `ServerNotInitialized` and a malformed `initialize`
/// with `InvalidParams` (the client may send it again). `None` when the
/// client exits or hangs up first.
fn await_initialize(connection: &Connection) -> Option<(lsp_server::RequestId, InitializeParams)> {
    for message in &connection.receiver {
        match message {
            Message::Request(request) if request.method == "initialize" => {
                match serde_json::from_value::<InitializeParams>(request.params) {
                    Ok(params) => return Some((request.id, params)),
                    Err(error) => {
                        let message = format!("initialize: {error}");
                        send(
                            connection,
                            Response::new_err(request.id, ErrorCode::InvalidParams as i32, message),
                        );
                    }
                }
            }
            Message::Request(request) => {
                let message = "the server is not initialized yet: send `initialize` first".to_string();
                send(
                    connection,
                    Response::new_err(request.id, ErrorCode::ServerNotInitialized as i32, message),
                );
            }
            Message::Notification(notification) if notification.method == "exit" => return None,
            Message::Notification(_) | Message::Response(_) => {}
        }
    }
    None
}

fn send(connection: &Connection, message: impl Into<Message>) {
    // The client hung up: the receive loop sees it next and ends.
    let _ = connection.sender.send(message.into());
}

fn serve(connection: &Connection) -> Ending {
    let Some((id, params)) = await_initialize(connection) else {
        return Ending::WithoutShutdown;
    };
    let utf8 = params
        .capabilities
        .general
        .as_ref()
        .and_then(|general| general.position_encodings.as_ref())
        .is_some_and(|offered| offered.contains(&PositionEncodingKind::UTF8));
    let encoding = if utf8 { Encoding::Utf8 } else { Encoding::Utf16 };
    // Options that do not parse are left at their defaults, and the editor is
    // told why: a typo in a setting should not leave the server silent.
    let (options, options_problem) = match params.initialization_options.clone().map(serde_json::from_value) {
        None => (Options::default(), None),
        Some(Ok(options)) => (options, None),
        Some(Err(error)) => (
            Options::default(),
            Some(format!(
                "apcheck: initializationOptions ignored, defaults used: {error}"
            )),
        ),
    };
    let result = serde_json::json!({
        "capabilities": capabilities(encoding),
        "serverInfo": ServerInfo { name: "apcheck".into(), version: Some(env!("CARGO_PKG_VERSION").into()) },
    });
    // `initialized` is not waited for: it is a notification like any other,
    // and an `exit` that comes before it ends the session as it should.
    send(connection, Response::new_ok(id, result));
    if let Some(problem) = options_problem {
        let params = ShowMessageParams {
            typ: MessageType::WARNING,
            message: apcheck::render::escape::visible(&problem).into_owned(),
        };
        send(connection, Notification::new(ShowMessage::METHOD.into(), params));
    }
    let can_watch = params
        .capabilities
        .workspace
        .as_ref()
        .and_then(|workspace| workspace.did_change_watched_files.as_ref())
        .and_then(|watched| watched.dynamic_registration)
        .unwrap_or(false);
    if can_watch {
        watch_config_files(connection);
    }
    let can_create_files = params
        .capabilities
        .workspace
        .as_ref()
        .and_then(|workspace| workspace.workspace_edit.as_ref())
        .and_then(|edit| edit.resource_operations.as_ref())
        .is_some_and(|operations| operations.contains(&ResourceOperationKind::Create));

    let mut server = Server {
        connection,
        encoding,
        can_create_files,
        debounce: Duration::from_millis(options.debounce_ms),
        rule_docs: options.rule_docs,
        packages: Packages::new(encoding),
        config_published: BTreeMap::new(),
        config_problems_shown: BTreeSet::new(),
        shut_down: false,
        opened_uris: BTreeMap::new(),
        waiting: Vec::new(),
    };
    server.run()
}

/// Asks the client to report changes to configuration files anywhere in the
/// workspace, including ones created or deleted, since either changes which
/// configuration applies. Its answer needs no handling.
fn watch_config_files(connection: &Connection) {
    let watchers = apcheck::config::FILE_NAMES
        .iter()
        .map(|name| FileSystemWatcher {
            glob_pattern: GlobPattern::String(format!("**/{name}")),
            kind: None,
        })
        .collect();
    let registration = Registration {
        id: "apcheck-config-files".into(),
        method: DidChangeWatchedFiles::METHOD.into(),
        register_options: serde_json::to_value(DidChangeWatchedFilesRegistrationOptions { watchers }).ok(),
    };
    let request = Request::new(
        "apcheck/watch-config-files".to_string().into(),
        RegisterCapability::METHOD.into(),
        RegistrationParams {
            registrations: vec![registration],
        },
    );
    // The client hung up: the receive loop sees it next and ends.
    let _ = connection.sender.send(request.into());
}

fn capabilities(encoding: Encoding) -> ServerCapabilities {
    ServerCapabilities {
        position_encoding: Some(match encoding {
            Encoding::Utf8 => PositionEncodingKind::UTF8,
            Encoding::Utf16 => PositionEncodingKind::UTF16,
        }),
        text_document_sync: Some(TextDocumentSyncCapability::Options(TextDocumentSyncOptions {
            open_close: Some(true),
            change: Some(TextDocumentSyncKind::FULL),
            save: Some(TextDocumentSyncSaveOptions::SaveOptions(SaveOptions {
                include_text: Some(false),
            })),
            ..TextDocumentSyncOptions::default()
        })),
        hover_provider: Some(HoverProviderCapability::Simple(true)),
        completion_provider: Some(CompletionOptions {
            trigger_characters: Some(vec!["\"".into()]),
            ..CompletionOptions::default()
        }),
        code_action_provider: Some(CodeActionProviderCapability::Options(CodeActionOptions {
            code_action_kinds: Some(vec![CodeActionKind::QUICKFIX]),
            ..CodeActionOptions::default()
        })),
        ..ServerCapabilities::default()
    }
}

struct Server<'c> {
    connection: &'c Connection,
    encoding: Encoding,
    /// Whether the client applies workspace edits that create files.
    can_create_files: bool,
    debounce: Duration,
    rule_docs: String,
    packages: Packages,
    /// The diagnostics published on configuration files, by file.
    config_published: BTreeMap<PathBuf, Vec<lsp_types::Diagnostic>>,
    /// The configuration problems shown in a message, so each is shown once until it is fixed.
    config_problems_shown: BTreeSet<String>,
    /// `shutdown` was answered: requests are refused until `exit`.
    shut_down: bool,
    /// The URI each open file was opened with, by its path.
    opened_uris: BTreeMap<PathBuf, Uri>,
    /// Requests about a package whose first read has not landed, with its root.
    waiting: Vec<(PathBuf, Request)>,
}

/// A file of a package: its plugin root and its package-relative path.
struct PackageFile {
    root: PathBuf,
    relative: String,
}

impl Server<'_> {
    fn run(&mut self) -> Ending {
        // Clones (the same channels), so the arms below may borrow `self`.
        let incoming = self.connection.receiver.clone();
        let loaded = self.packages.loaded.clone();
        loop {
            let timer = match self.packages.next_due() {
                Some(due) => crossbeam_channel::at(due),
                None => crossbeam_channel::never(),
            };
            crossbeam_channel::select! {
                recv(incoming) -> message => match message {
                    Ok(message) => {
                        if let Some(ending) = self.message(message) {
                            return ending;
                        }
                    }
                    // The client hung up, or the transport ended.
                    Err(_) => return self.ending(),
                },
                recv(loaded) -> loaded => {
                    if let Ok(loaded) = loaded
                        && !self.shut_down
                    {
                        self.land(loaded);
                    }
                }
                recv(timer) -> _ => {}
            }
            if !self.shut_down {
                self.check_due(Instant::now());
            }
        }
    }

    /// Handles one message; the session's end after `exit`.
    fn message(&mut self, message: Message) -> Option<Ending> {
        match message {
            // LSP 3.17 §shutdown: after it, requests are refused and only `exit` counts.
            Message::Request(request) if self.shut_down => {
                self.refuse(request.id, "the server is shutting down: only `exit` is expected");
            }
            Message::Request(request) if request.method == "shutdown" => {
                self.shut_down = true;
                self.send(Response::new_ok(request.id, ()).into());
                // Requests still waiting for a package's read are not answered after it.
                for (_, request) in std::mem::take(&mut self.waiting) {
                    self.refuse(request.id, "the server shut down before the package was read");
                }
            }
            Message::Request(request) => self.request(request),
            Message::Notification(notification) if notification.method == "exit" => return Some(self.ending()),
            Message::Notification(_) if self.shut_down => {}
            Message::Notification(notification) => self.notification(notification),
            Message::Response(_) => {}
        }
        None
    }

    fn refuse(&self, id: lsp_server::RequestId, message: &str) {
        self.send(Response::new_err(id, ErrorCode::InvalidRequest as i32, message.to_string()).into());
    }

    /// A package's read landed: it is checked, its configuration's problems
    /// are shown, and the requests that waited for it are answered.
    fn land(&mut self, loaded: Loaded) {
        let root = loaded.root().to_path_buf();
        if !self.packages.land(loaded) {
            return;
        }
        self.report_config_problems();
        self.check_now(&root);
        self.answer_waiting(&root);
    }

    /// Answers the requests that waited for the package at `root` (read, or closed).
    fn answer_waiting(&mut self, root: &PathBuf) {
        let (ready, waiting) = std::mem::take(&mut self.waiting)
            .into_iter()
            .partition(|(waited_for, _)| waited_for == root);
        self.waiting = waiting;
        for (_, request) in ready {
            self.request(request);
        }
    }

    fn ending(&self) -> Ending {
        if self.shut_down {
            Ending::ShutDown
        } else {
            Ending::WithoutShutdown
        }
    }

    fn request(&mut self, request: Request) {
        if let Some(root) = self.unread_package(&request) {
            self.waiting.push((root, request));
            return;
        }
        let response = match request.method.as_str() {
            HoverRequest::METHOD => self.answer(request, |server, params: lsp_types::HoverParams| {
                let position = params.text_document_position_params;
                let file = server.package_file(&position.text_document.uri)?;
                server.check_now(&file.root);
                features::hover(server.context(&file)?, position.position)
            }),
            Completion::METHOD => self.answer(request, |server, params: lsp_types::CompletionParams| {
                let position = params.text_document_position;
                let file = server.package_file(&position.text_document.uri)?;
                features::complete(server.context(&file)?, position.position)
            }),
            CodeActionRequest::METHOD => self.answer(request, |server, params: lsp_types::CodeActionParams| {
                let file = server.package_file(&params.text_document.uri)?;
                server.check_now(&file.root);
                features::code_actions(server.context(&file)?, params.range)
            }),
            _ => Response::new_err(
                request.id,
                ErrorCode::MethodNotFound as i32,
                format!("apcheck lsp does not handle {}", request.method),
            ),
        };
        self.send(response.into());
    }

    /// The root of the package `request` is about (by its
    /// `textDocument.uri`, which every request handled here has) when it is
    /// open and its first read has not landed.
    fn unread_package(&self, request: &Request) -> Option<PathBuf> {
        let uri = request.params.get("textDocument")?.get("uri")?.as_str()?;
        let file = self.package_file(&uri.parse::<Uri>().ok()?)?;
        let package = self.packages.by_root.get(&file.root)?;
        (!package.ready).then_some(file.root)
    }

    /// Answers `request` with `handler`'s result, or `null` when it has none
    /// (a file outside any package); malformed params are an error response.
    fn answer<P, R>(&mut self, request: Request, handler: impl FnOnce(&mut Self, P) -> Option<R>) -> Response
    where
        P: serde::de::DeserializeOwned,
        R: serde::Serialize,
    {
        match serde_json::from_value::<P>(request.params) {
            Ok(params) => Response::new_ok(request.id, handler(self, params)),
            Err(error) => Response::new_err(request.id, ErrorCode::InvalidParams as i32, error.to_string()),
        }
    }

    fn notification(&mut self, notification: Notification) {
        let now = Instant::now();
        match notification.method.as_str() {
            DidOpenTextDocument::METHOD => {
                let Ok(params) = serde_json::from_value::<lsp_types::DidOpenTextDocumentParams>(notification.params)
                else {
                    return;
                };
                if let Some(file) = self.package_file(&params.text_document.uri) {
                    let opened_as = params.text_document.uri.clone();
                    self.opened_uris.insert(file.root.join(&file.relative), opened_as);
                    let package = self.packages.open(&file.root);
                    package.overlay.insert(file.relative, params.text_document.text);
                    // A file just opened gets its findings at once (once its package is read).
                    package.due = Some(now);
                }
            }
            DidChangeTextDocument::METHOD => {
                let Ok(params) = serde_json::from_value::<lsp_types::DidChangeTextDocumentParams>(notification.params)
                else {
                    return;
                };
                // Full sync: the last change holds the whole text.
                let Some(change) = params.content_changes.into_iter().last() else {
                    return;
                };
                if let Some(file) = self.package_file(&params.text_document.uri) {
                    let package = self.packages.open(&file.root);
                    package.overlay.insert(file.relative, change.text);
                    package.due = Some(now + self.debounce);
                }
            }
            DidSaveTextDocument::METHOD => {
                let Ok(params) = serde_json::from_value::<lsp_types::DidSaveTextDocumentParams>(notification.params)
                else {
                    return;
                };
                if path_of(&params.text_document.uri).is_some_and(|path| config::is_config_file(&path)) {
                    self.reconfigure();
                } else if let Some(file) = self.package_file(&params.text_document.uri) {
                    // Its files, and, for clients that cannot watch files, a
                    // configuration changed meanwhile; checked when the read lands.
                    if self.packages.by_root.contains_key(&file.root) {
                        self.packages.reread(&file.root);
                    } else {
                        self.packages.open(&file.root);
                    }
                }
            }
            DidChangeWatchedFiles::METHOD => {
                let Ok(params) = serde_json::from_value::<lsp_types::DidChangeWatchedFilesParams>(notification.params)
                else {
                    return;
                };
                let is_config = |event: &lsp_types::FileEvent| {
                    path_of(&event.uri).is_some_and(|path| config::is_config_file(&path))
                };
                if params.changes.iter().any(is_config) {
                    self.reconfigure();
                }
            }
            DidCloseTextDocument::METHOD => {
                let Ok(params) = serde_json::from_value::<lsp_types::DidCloseTextDocumentParams>(notification.params)
                else {
                    return;
                };
                if let Some(file) = self.package_file(&params.text_document.uri) {
                    let path = file.root.join(&file.relative);
                    self.close(file);
                    self.opened_uris.remove(&path);
                }
            }
            _ => {}
        }
    }

    /// Reads every open package's configuration (and files) again, and
    /// re-checks it when the read lands: a configuration file changed,
    /// appeared or went away.
    fn reconfigure(&mut self) {
        let roots: Vec<PathBuf> = self.packages.by_root.keys().cloned().collect();
        for root in roots {
            self.packages.reread(&root);
        }
    }

    /// Shows each new configuration problem once, and publishes the
    /// diagnostics of the configuration files that changed (an empty list
    /// where a problem was fixed).
    fn report_config_problems(&mut self) {
        let problems: Vec<&settings::LoadError> = self
            .packages
            .by_root
            .values()
            .filter_map(|package| package.config_problem.as_ref())
            .collect();
        let messages: BTreeSet<String> = problems.iter().map(|problem| problem.to_string()).collect();
        for message in messages.difference(&self.config_problems_shown) {
            let params = ShowMessageParams {
                typ: MessageType::ERROR,
                message: apcheck::render::escape::visible(&format!(
                    "apcheck: {message}; checking with the default settings until it is fixed"
                ))
                .into_owned(),
            };
            self.send(Notification::new(ShowMessage::METHOD.to_string(), params).into());
        }
        self.config_problems_shown = messages;
        let by_file = config::diagnostics_by_file(
            self.packages
                .by_root
                .values()
                .filter_map(|package| package.config_placed.as_ref()),
        );
        let previous = std::mem::take(&mut self.config_published);
        for file in previous.keys().filter(|file| !by_file.contains_key(*file)) {
            self.publish(file, Vec::new());
        }
        for (file, diagnostics) in &by_file {
            if previous.get(file) != Some(diagnostics) {
                self.publish(file, diagnostics.clone());
            }
        }
        self.config_published = by_file;
    }

    /// A closed buffer falls back to the disk file; the last closed file of a
    /// package clears its findings and forgets it.
    fn close(&mut self, file: PackageFile) {
        let Some(package) = self.packages.by_root.get_mut(&file.root) else {
            return;
        };
        package.overlay.remove(&file.relative);
        if !package.overlay.is_empty() {
            self.packages.reread(&file.root);
            return;
        }
        let published = std::mem::take(&mut package.published);
        self.packages.by_root.remove(&file.root);
        for relative in published {
            self.publish(&file.root.join(relative), Vec::new());
        }
        // Its configuration's problem is no longer the editor's concern.
        self.report_config_problems();
        // Requests that waited for its read get what a file outside any package gets.
        self.answer_waiting(&file.root);
    }

    fn check_due(&mut self, now: Instant) {
        let due: Vec<PathBuf> = self
            .packages
            .by_root
            .iter()
            .filter(|(_, package)| package.ready && package.due.is_some_and(|due| due <= now))
            .map(|(root, _)| root.clone())
            .collect();
        for root in due {
            self.check_now(&root);
        }
    }

    /// Runs a pending re-check of the package at `root`, and publishes its findings.
    fn check_now(&mut self, root: &PathBuf) {
        let Some(package) = self.packages.by_root.get_mut(root).filter(|package| package.ready) else {
            return;
        };
        if package.due.take().is_none() && package.checked.is_some() {
            return;
        }
        let tree = package.effective_tree();
        let inputs = package.configuration.fix_inputs();
        let mut report = apcheck::check_package_with(&root.display().to_string(), &tree, &inputs);
        package.configuration.apply(&mut report);
        package.checked = Some((tree, report));
        let by_file = features::diagnostics_by_file(package, self.encoding, &self.rule_docs);
        // Open files and files that had findings get a (possibly empty) list too.
        let cleared: Vec<String> = package
            .published
            .iter()
            .chain(package.overlay.keys())
            .filter(|file| !by_file.contains_key(*file))
            .cloned()
            .collect::<std::collections::BTreeSet<_>>()
            .into_iter()
            .collect();
        package.published = by_file.keys().cloned().collect();
        for relative in cleared {
            self.publish(&root.join(relative), Vec::new());
        }
        for (relative, diagnostics) in by_file {
            self.publish(&root.join(relative), diagnostics);
        }
    }

    fn publish(&self, path: &std::path::Path, diagnostics: Vec<lsp_types::Diagnostic>) {
        let params = PublishDiagnosticsParams {
            // Under the URI the client opened the file with, in its spelling
            // (`%2B` or `+`, a doubled `/`): a client may compare them as text.
            uri: self
                .opened_uris
                .get(path)
                .cloned()
                .unwrap_or_else(|| position::uri_of(path)),
            diagnostics,
            version: None,
        };
        self.send(Notification::new(PublishDiagnostics::METHOD.to_string(), params).into());
    }

    fn send(&self, message: Message) {
        // The client hung up: the receive loop sees it next and ends.
        let _ = self.connection.sender.send(message);
    }

    /// The package file `uri` names, when it is one of the checked locations.
    fn package_file(&self, uri: &Uri) -> Option<PackageFile> {
        let path = path_of(uri)?;
        let text = path.to_str()?;
        let (root, relative, _) = apcheck::assist::locate_in_package(text)?;
        Some(PackageFile {
            root: PathBuf::from(root),
            relative: relative.to_string(),
        })
    }

    fn context<'s>(&'s self, file: &'s PackageFile) -> Option<features::Context<'s>> {
        let package = self.packages.by_root.get(&file.root)?;
        Some(features::Context {
            package,
            relative: &file.relative,
            root: &file.root,
            encoding: self.encoding,
            rule_docs: &self.rule_docs,
            can_create_files: self.can_create_files,
        })
    }
}
