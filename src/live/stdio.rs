//! stdio servers (§7.2.1, §9.1): the resolved program with its arguments and
//! environment, in its working directory, in a process group of its own so
//! that whatever it starts dies with it. rmcp frames the messages
//! (newline-delimited JSON); a tee beside it records the raw `tools/list` pages.

use std::path::{Path, PathBuf};
use std::pin::Pin;
use std::process::Stdio;
use std::task::{Context, Poll};

use process_wrap::tokio::{ChildWrapper, CommandWrap, KillOnDrop, ProcessGroup};
use rmcp::transport::async_rw::AsyncRwTransport;
use tokio::io::{AsyncRead, AsyncReadExt, ReadBuf};
use tokio::task::JoinHandle;

use super::plan::{Places, Program, StdioLaunch};
use super::raw::RawPages;

/// How much of a server's stderr is kept: its last bytes, where the error is.
const STDERR_TAIL_BYTES: usize = 8 * 1024;

/// A longer stdout line is not recorded (rmcp's own framing still reads it).
const MAX_RECORDED_LINE_BYTES: usize = 64 * 1024 * 1024;

/// A running server. Dropping it kills the whole process group.
pub struct Child {
    process: Box<dyn ChildWrapper>,
    stderr: Option<JoinHandle<Vec<u8>>>,
}

/// How long stderr may stay open once the server is reaped.
const STDERR_AFTER_EXIT: std::time::Duration = std::time::Duration::from_millis(500);

impl Child {
    /// Kills the process group and waits for the child, so none is left behind
    /// and none becomes a zombie; then returns the tail of its stderr.
    pub async fn kill_and_reap(mut self) -> String {
        // Already gone is fine: the point is that nothing is left running.
        let _ = self.process.start_kill();
        let _ = self.process.wait().await;
        // A process that left the server's group (its own session) may still
        // hold stderr open: what came by now is the tail, and the run goes on.
        let bytes = match self.stderr.take() {
            Some(mut reader) => match tokio::time::timeout(STDERR_AFTER_EXIT, &mut reader).await {
                Ok(read) => read.unwrap_or_default(),
                Err(_) => {
                    reader.abort();
                    b"(stderr is still held open by a process outside the server's process group)".to_vec()
                }
            },
            None => Vec::new(),
        };
        String::from_utf8_lossy(&bytes).into_owned()
    }
}

pub type Transport = AsyncRwTransport<rmcp::RoleClient, Tee<tokio::process::ChildStdout>, tokio::process::ChildStdin>;

/// Starts the server of `launch`. The error says why it could not start.
pub fn spawn(launch: &StdioLaunch, places: &Places, pages: RawPages) -> Result<(Transport, Child), String> {
    let program = resolve_program(&launch.program)?;
    let cwd = resolve_cwd(&launch.cwd.path, launch.cwd.boundary, places)?;
    let mut command = tokio::process::Command::new(&program);
    command
        .args(&launch.args)
        .env_clear()
        .envs(launch.env.iter().map(|(k, v)| (k, v)))
        .current_dir(&cwd)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut wrapped = CommandWrap::from(command);
    wrapped.wrap(KillOnDrop);
    #[cfg(unix)]
    wrapped.wrap(ProcessGroup::leader());
    let mut process = wrapped
        .spawn()
        .map_err(|e| format!("cannot start {}: {e}", program.display()))?;
    let (Some(stdout), Some(stdin), stderr) =
        (process.stdout().take(), process.stdin().take(), process.stderr().take())
    else {
        return Err("the child has no standard streams".into());
    };
    let stderr = stderr.map(|stream| tokio::spawn(read_tail(stream)));
    let transport = AsyncRwTransport::new_client(Tee::new(stdout, pages), stdin);
    Ok((transport, Child { process, stderr }))
}

/// §7.2.1: a bare name through the executable search path (apcheck's own
/// `PATH`; a configured one does not take part, which the spec leaves to the
/// client), a `./` path as it is under the plugin root.
fn resolve_program(program: &Program) -> Result<PathBuf, String> {
    match program {
        Program::Bare(name) => {
            which::which(name).map_err(|_| format!("command `{name}` was not found on the executable search path"))
        }
        Program::InPackage(path) if path.is_file() => Ok(path.clone()),
        Program::InPackage(path) => Err(format!("command {} does not exist in the package", path.display())),
    }
}

/// The filesystem-resolved working directory, inside its boundary (§7.2.1).
fn resolve_cwd(path: &Path, boundary: super::plan::Boundary, places: &Places) -> Result<PathBuf, String> {
    let resolved = path
        .canonicalize()
        .map_err(|e| format!("working directory {} cannot be used: {e}", path.display()))?;
    let inside = match boundary {
        super::plan::Boundary::PluginRoot => &places.root,
        super::plan::Boundary::PluginData => &places.data,
    };
    if !resolved.starts_with(inside) {
        return Err(format!(
            "working directory {} resolves to {}, outside {}",
            path.display(),
            resolved.display(),
            boundary.describe()
        ));
    }
    Ok(resolved)
}

/// Reads `stream` to its end, keeping only the last [`STDERR_TAIL_BYTES`].
async fn read_tail(mut stream: impl AsyncRead + Unpin) -> Vec<u8> {
    let mut tail = Vec::new();
    let mut chunk = [0u8; 4096];
    while let Ok(n @ 1..) = stream.read(&mut chunk).await {
        tail.extend_from_slice(&chunk[..n]);
        if tail.len() > STDERR_TAIL_BYTES {
            tail.drain(..tail.len() - STDERR_TAIL_BYTES);
        }
    }
    tail
}

/// Passes a server's stdout through unchanged and hands each complete line
/// to [`RawPages`].
pub struct Tee<R> {
    inner: R,
    line: Vec<u8>,
    overlong: bool,
    pages: RawPages,
}

impl<R> Tee<R> {
    fn new(inner: R, pages: RawPages) -> Self {
        Tee {
            inner,
            line: Vec::new(),
            overlong: false,
            pages,
        }
    }

    fn record(&mut self, bytes: &[u8]) {
        let mut rest = bytes;
        while let Some(end) = rest.iter().position(|&b| b == b'\n') {
            self.push(&rest[..end]);
            if !self.overlong {
                self.pages.observe_bytes(&self.line);
            }
            self.line.clear();
            self.overlong = false;
            rest = &rest[end + 1..];
        }
        self.push(rest);
    }

    fn push(&mut self, bytes: &[u8]) {
        if self.line.len() + bytes.len() > MAX_RECORDED_LINE_BYTES {
            self.overlong = true;
            self.line.clear();
        } else if !self.overlong {
            self.line.extend_from_slice(bytes);
        }
    }
}

impl<R: AsyncRead + Unpin> AsyncRead for Tee<R> {
    fn poll_read(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<std::io::Result<()>> {
        let before = buf.filled().len();
        let polled = Pin::new(&mut self.inner).poll_read(cx, buf);
        if let Poll::Ready(Ok(())) = polled {
            let fresh = buf.filled()[before..].to_vec();
            self.record(&fresh);
        }
        polled
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn tee_passes_bytes_through_and_records_split_lines() {
        let pages = RawPages::default();
        let input: &[u8] = b"{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"tools\":[{\"name\":\"a\",\"inputSchema\":{},\"x-k\":true}]}}\n";
        let mut tee = Tee::new(input, pages.clone());
        let mut out = Vec::new();
        let mut small = [0u8; 7];
        loop {
            let n = tee.read(&mut small).await.unwrap();
            if n == 0 {
                break;
            }
            out.extend_from_slice(&small[..n]);
        }
        assert_eq!(out, input);
        let accepted =
            serde_json::from_value(serde_json::json!({"tools": [{"name": "a", "inputSchema": {}}]})).unwrap();
        let page = pages.take(&rmcp::model::RequestId::Number(1), &accepted).unwrap();
        assert_eq!(page["tools"][0]["x-k"], true);
    }

    #[tokio::test]
    async fn stderr_keeps_its_tail() {
        let long = vec![b'x'; STDERR_TAIL_BYTES * 3];
        let mut input = long.clone();
        input.extend_from_slice(b"the end");
        let tail = read_tail(input.as_slice()).await;
        assert_eq!(tail.len(), STDERR_TAIL_BYTES);
        assert!(tail.ends_with(b"the end"));
    }

    #[test]
    fn cwd_outside_its_boundary_is_refused() {
        let root = tempfile::tempdir().unwrap();
        let data = tempfile::tempdir().unwrap();
        let places = Places {
            root: root.path().canonicalize().unwrap(),
            data: data.path().canonicalize().unwrap(),
        };
        std::fs::create_dir(root.path().join("inside")).unwrap();
        #[cfg(unix)]
        std::os::unix::fs::symlink(data.path(), root.path().join("link")).unwrap();
        let boundary = super::super::plan::Boundary::PluginRoot;
        assert!(resolve_cwd(&places.root.join("inside"), boundary, &places).is_ok());
        #[cfg(unix)]
        {
            let escape = resolve_cwd(&places.root.join("link"), boundary, &places).unwrap_err();
            assert!(escape.contains("outside the plugin root"), "{escape}");
        }
        assert!(
            resolve_cwd(&places.root.join("missing"), boundary, &places)
                .unwrap_err()
                .contains("cannot be used")
        );
    }
}
