//! The transport between the client's byte stream and tower-lsp, so that no client can
//! end the server by mistake.
//!
//! tower-lsp's own stdio transport stops reading at the first message it cannot decode,
//! keeps running after `exit` until its input ends, and lets a panicking handler unwind
//! through the whole server. So the server is served here instead:
//!
//! - the input is framed here ([`read_frame`]): a message that is not JSON is answered
//!   with the protocol's parse error (-32700), JSON that is not a JSON-RPC message with
//!   an invalid-request error (-32600), a frame without a usable `Content-Length` or over
//!   [`MAX_MESSAGE`] bytes with a parse error; reading then goes on with the next frame.
//!   Only well-formed messages reach tower-lsp, re-framed;
//! - `exit` ends serving at once: [`serve`] returns 0 when `shutdown` came before, 1
//!   otherwise (as the end of the input does), and the binary exits with it;
//! - a handler that panics gets an internal-error reply (-32603) for its request, and the
//!   server goes on ([`CatchPanic`]);
//! - requests after `shutdown` are refused by tower-lsp itself (invalid request).
//!
//! tower-lsp's replies and the replies made here are written by one writer, frame by
//! frame, so they never interleave.

use std::future::Future;
use std::panic::AssertUnwindSafe;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use futures::FutureExt;
use serde_json::{json, Value};
use tokio::io::{
    AsyncBufRead, AsyncBufReadExt, AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, BufReader,
};
use tokio::sync::mpsc;
use tower_lsp::jsonrpc::{self, Request, Response};

/// The longest message accepted, in bytes (a larger one is skipped and answered with an
/// error, never held).
pub const MAX_MESSAGE: usize = 256 << 20;
/// The longest header line accepted.
const MAX_HEADER_LINE: usize = 8 << 10;
/// How long in-flight requests may still take once the input has ended or `exit` came.
const GRACE: Duration = Duration::from_secs(2);

/// One frame of input.
#[derive(Debug, PartialEq, Eq)]
pub enum Frame {
    /// The body of a frame.
    Body(Vec<u8>),
    /// A frame that cannot be read as one: why (the input goes on after it).
    Malformed(String),
}

/// Reads one frame: header lines up to an empty line, then `Content-Length` bytes.
/// `None` at the end of the input (also in the middle of a frame).
pub async fn read_frame<R: AsyncBufRead + Unpin>(input: &mut R) -> std::io::Result<Option<Frame>> {
    let mut length: Option<Result<usize, String>> = None;
    let mut problem: Option<String> = None;
    let mut any_line = false;
    loop {
        let Some(line) = read_header_line(input).await? else {
            return Ok(None);
        };
        let line = match line {
            Ok(line) => line,
            Err(too_long) => {
                problem.get_or_insert(too_long);
                any_line = true;
                continue;
            }
        };
        let line = line.trim_end_matches(['\r', '\n']);
        if line.is_empty() {
            if !any_line {
                continue; // blank lines between frames
            }
            break;
        }
        any_line = true;
        match line.split_once(':') {
            Some((name, value)) if name.trim().eq_ignore_ascii_case("content-length") => {
                length = Some(
                    value
                        .trim()
                        .parse::<usize>()
                        .map_err(|_| format!("bad Content-Length `{}`", value.trim())),
                );
            }
            Some(_) => {}
            None => {
                problem.get_or_insert_with(|| format!("bad header line `{}`", shorten(line)));
            }
        }
    }
    if let Some(problem) = problem {
        return Ok(Some(Frame::Malformed(problem)));
    }
    let length = match length {
        None => return Ok(Some(Frame::Malformed("no Content-Length header".into()))),
        Some(Err(e)) => return Ok(Some(Frame::Malformed(e))),
        Some(Ok(length)) => length,
    };
    if length > MAX_MESSAGE {
        // Skipped, never held.
        let skipped = tokio::io::copy(
            &mut (&mut *input).take(length as u64),
            &mut tokio::io::sink(),
        )
        .await?;
        if skipped < length as u64 {
            return Ok(None);
        }
        return Ok(Some(Frame::Malformed(format!(
            "message of {length} bytes, over the limit of {MAX_MESSAGE}"
        ))));
    }
    let mut body = vec![0; length];
    match input.read_exact(&mut body).await {
        Ok(_) => Ok(Some(Frame::Body(body))),
        Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => Ok(None),
        Err(e) => Err(e),
    }
}

/// A header line with its line break; `Err` for a line over [`MAX_HEADER_LINE`] (read to
/// its end and dropped); `None` at the end of the input.
async fn read_header_line<R: AsyncBufRead + Unpin>(
    input: &mut R,
) -> std::io::Result<Option<Result<String, String>>> {
    let mut line = Vec::new();
    let mut too_long = false;
    loop {
        let available = input.fill_buf().await?;
        if available.is_empty() {
            return Ok(None);
        }
        let (take, done) = match available.iter().position(|&b| b == b'\n') {
            Some(i) => (i + 1, true),
            None => (available.len(), false),
        };
        if !too_long {
            line.extend_from_slice(&available[..take]);
            if line.len() > MAX_HEADER_LINE {
                too_long = true;
                line.clear();
            }
        }
        input.consume(take);
        if done {
            return Ok(Some(if too_long {
                Err(format!("header line over {MAX_HEADER_LINE} bytes"))
            } else {
                Ok(String::from_utf8_lossy(&line).into_owned())
            }));
        }
    }
}

fn shorten(text: &str) -> String {
    text.chars().take(40).collect()
}

/// What to do with a frame's body.
enum Verdict {
    /// A request, notification or response for tower-lsp.
    Forward { method: Option<String> },
    /// Answered here with this error.
    Refuse { id: Value, error: jsonrpc::Error },
}

fn judge(body: &[u8]) -> Verdict {
    // The usual case first, in one pass over the body (a `didOpen` may be megabytes).
    if let Ok(request) = serde_json::from_slice::<Request>(body) {
        return Verdict::Forward {
            method: Some(request.method().to_string()),
        };
    }
    if serde_json::from_slice::<Response>(body).is_ok() {
        return Verdict::Forward { method: None };
    }
    let value: Value = match serde_json::from_slice(body) {
        Ok(value) => value,
        Err(e) => {
            let mut error = jsonrpc::Error::parse_error();
            error.data = Some(Value::String(e.to_string()));
            return Verdict::Refuse {
                id: Value::Null,
                error,
            };
        }
    };
    let id = match value.get("id") {
        Some(id @ (Value::Number(_) | Value::String(_))) => id.clone(),
        _ => Value::Null,
    };
    let mut error = jsonrpc::Error::invalid_request();
    error.data = Some(Value::String(
        "not a JSON-RPC 2.0 request, notification or response".into(),
    ));
    Verdict::Refuse { id, error }
}

fn frame(body: &[u8]) -> Vec<u8> {
    let mut out = format!("Content-Length: {}\r\n\r\n", body.len()).into_bytes();
    out.extend_from_slice(body);
    out
}

fn error_frame(id: Value, error: jsonrpc::Error) -> Vec<u8> {
    let body = json!({ "jsonrpc": "2.0", "id": id, "error": error });
    frame(body.to_string().as_bytes())
}

/// How reading the client's input ended.
struct Ending {
    shutdown: bool,
}

/// Reads the client's frames: well-formed ones go to tower-lsp (`to_server`), the others
/// are answered through `replies`. Stops at `exit` or at the end of the input.
async fn pump_input<I: AsyncRead + Unpin>(
    input: I,
    mut to_server: tokio::io::DuplexStream,
    replies: mpsc::UnboundedSender<Vec<u8>>,
) -> Ending {
    let mut input = BufReader::new(input);
    let mut shutdown = false;
    loop {
        let body = match read_frame(&mut input).await {
            Ok(Some(Frame::Body(body))) => body,
            Ok(Some(Frame::Malformed(why))) => {
                let mut error = jsonrpc::Error::parse_error();
                error.data = Some(Value::String(why));
                let _ = replies.send(error_frame(Value::Null, error));
                continue;
            }
            Ok(None) | Err(_) => break,
        };
        match judge(&body) {
            Verdict::Refuse { id, error } => {
                let _ = replies.send(error_frame(id, error));
            }
            Verdict::Forward { method } => {
                match method.as_deref() {
                    Some("exit") => break,
                    Some("shutdown") => shutdown = true,
                    _ => {}
                }
                if to_server.write_all(&frame(&body)).await.is_err() {
                    break; // tower-lsp has stopped
                }
            }
        }
    }
    Ending { shutdown }
}

/// Cuts tower-lsp's output into frames, for the one writer.
async fn pump_server_output(
    from_server: tokio::io::DuplexStream,
    replies: mpsc::UnboundedSender<Vec<u8>>,
) {
    let mut from_server = BufReader::new(from_server);
    while let Ok(Some(Frame::Body(body))) = read_frame(&mut from_server).await {
        if replies.send(frame(&body)).is_err() {
            return;
        }
    }
}

/// Writes whole frames to the client until every sender is gone.
async fn write_output<O: AsyncWrite + Unpin>(
    mut output: O,
    mut frames: mpsc::UnboundedReceiver<Vec<u8>>,
) {
    while let Some(frame) = frames.recv().await {
        if output.write_all(&frame).await.is_err() || output.flush().await.is_err() {
            // The client is gone: keep draining so that senders never block.
            while frames.recv().await.is_some() {}
            return;
        }
    }
}

/// Serves `service` over `input` and `output` until `exit` or the end of the input;
/// returns the process's exit status: 0 when `shutdown` came first, else 1.
pub async fn serve<S, I, O>(service: S, socket: tower_lsp::ClientSocket, input: I, output: O) -> i32
where
    S: tower::Service<Request, Response = Option<Response>> + Send + 'static,
    S::Error: Into<Box<dyn std::error::Error + Send + Sync>> + Send + 'static,
    S::Future: Send,
    I: AsyncRead + Unpin,
    O: AsyncWrite + Unpin,
{
    let (to_server, server_input) = tokio::io::duplex(1 << 16);
    let (server_output, from_server) = tokio::io::duplex(1 << 16);
    let (replies, frames) = mpsc::unbounded_channel();
    let server =
        tower_lsp::Server::new(server_input, server_output, socket).serve(CatchPanic(service));
    let input_done = {
        let replies = replies.clone();
        async move {
            let ending = pump_input(input, to_server, replies).await;
            // `to_server` is dropped here: tower-lsp sees the end of its input.
            ending
        }
    };
    let output_done = pump_server_output(from_server, replies);
    let writer = write_output(output, frames);
    // Serve until the input ends, then give in-flight requests a little time; tower-lsp's
    // output closes when it is dropped, and then the output ends.
    let serving = async move {
        let mut server = Box::pin(server);
        let mut input_done = Box::pin(input_done);
        let ending = tokio::select! {
            ending = &mut input_done => Some(ending),
            () = &mut server => None,
        };
        match ending {
            Some(ending) => {
                let _ = tokio::time::timeout(GRACE, &mut server).await;
                ending
            }
            None => input_done.await,
        }
    };
    let mut serving = Box::pin(serving);
    let mut output = Box::pin(futures::future::join(output_done, writer));
    let ending = tokio::select! {
        ending = &mut serving => {
            // The last replies are written, unless the client does not read them.
            let _ = tokio::time::timeout(GRACE, &mut output).await;
            ending
        }
        _ = &mut output => serving.await,
    };
    if ending.shutdown {
        0
    } else {
        1
    }
}

/// A service whose panics become error replies: a handler that panics answers its
/// request with an internal error (-32603); a notification's panic is dropped.
pub struct CatchPanic<S>(pub S);

impl<S> tower::Service<Request> for CatchPanic<S>
where
    S: tower::Service<Request, Response = Option<Response>>,
    S::Future: Send + 'static,
    S::Error: Send + 'static,
{
    type Response = Option<Response>;
    type Error = S::Error;
    type Future = Pin<Box<dyn Future<Output = Result<Option<Response>, S::Error>> + Send>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        self.0.poll_ready(cx)
    }

    fn call(&mut self, request: Request) -> Self::Future {
        let id = request.id().cloned();
        let method = request.method().to_string();
        let call = std::panic::catch_unwind(AssertUnwindSafe(|| self.0.call(request)));
        let internal_error = move || {
            let mut error = jsonrpc::Error::internal_error();
            error.message = format!("the server failed while handling `{method}`").into();
            Ok(id.map(|id| Response::from_error(id, error)))
        };
        match call {
            Ok(future) => {
                Box::pin(
                    AssertUnwindSafe(future)
                        .catch_unwind()
                        .map(move |result| match result {
                            Ok(result) => result,
                            Err(_) => internal_error(),
                        }),
                )
            }
            Err(_) => Box::pin(futures::future::ready(internal_error())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tower_lsp::lsp_types::{InitializeParams, InitializeResult};
    use tower_lsp::{LanguageServer, LspService};

    async fn frames_of(input: &[u8]) -> Vec<Frame> {
        let mut input = input;
        let mut frames = Vec::new();
        while let Some(frame) = read_frame(&mut input).await.unwrap() {
            frames.push(frame);
        }
        frames
    }

    #[tokio::test]
    async fn frames_are_read_and_bad_ones_skipped() {
        let input = b"Content-Length: 2\r\n\r\n{}\
            content-length:3\r\nContent-Type: x\r\n\r\n[1]\
            \r\nno colon here\r\n\r\n\
            X-Other: 1\r\n\r\n\
            Content-Length: nope\r\n\r\n\
            Content-Length: 1\r\n\r\n7\
            Content-Length: 10\r\n\r\n{\"cut";
        assert_eq!(
            frames_of(input).await,
            [
                Frame::Body(b"{}".to_vec()),
                Frame::Body(b"[1]".to_vec()),
                Frame::Malformed("bad header line `no colon here`".into()),
                Frame::Malformed("no Content-Length header".into()),
                Frame::Malformed("bad Content-Length `nope`".into()),
                Frame::Body(b"7".to_vec()),
            ]
        );
    }

    #[tokio::test]
    async fn long_header_lines_and_huge_messages_are_never_held() {
        let mut input = vec![b'x'; MAX_HEADER_LINE * 3];
        input.extend_from_slice(b"\r\n\r\nContent-Length: 1\r\n\r\n1");
        let frames = frames_of(&input).await;
        assert!(
            matches!(&frames[0], Frame::Malformed(m) if m.contains("header line over")),
            "{frames:?}"
        );
        assert_eq!(frames[1], Frame::Body(b"1".to_vec()));
        let huge = format!("Content-Length: {}\r\n\r\n", MAX_MESSAGE + 1);
        assert_eq!(
            frames_of(huge.as_bytes()).await,
            [],
            "cut short: the end of the input"
        );
    }

    #[test]
    fn bodies_are_judged() {
        let refused = |body: &str| match judge(body.as_bytes()) {
            Verdict::Refuse { id, error } => Some((id, error.code.code())),
            Verdict::Forward { .. } => None,
        };
        assert_eq!(refused("{bad json}"), Some((Value::Null, -32700)));
        assert_eq!(refused("[]"), Some((Value::Null, -32600)));
        assert_eq!(
            refused(r#"{"id": 4, "params": 1}"#),
            Some((json!(4), -32600))
        );
        assert_eq!(
            refused(r#"{"jsonrpc": "2.0", "id": 1, "method": "x"}"#),
            None
        );
        assert_eq!(refused(r#"{"jsonrpc": "2.0", "method": "x"}"#), None);
        assert_eq!(
            refused(r#"{"jsonrpc": "2.0", "id": 1, "result": null}"#),
            None
        );
    }

    /// A server with a request that panics.
    struct Panicky;

    #[tower_lsp::async_trait]
    impl LanguageServer for Panicky {
        async fn initialize(&self, _: InitializeParams) -> jsonrpc::Result<InitializeResult> {
            Ok(InitializeResult::default())
        }
        async fn shutdown(&self) -> jsonrpc::Result<()> {
            Ok(())
        }
    }

    impl Panicky {
        async fn panic(&self, _: Value) -> jsonrpc::Result<Value> {
            panic!("a handler failed")
        }
    }

    /// Initializes a `Panicky` server, waits for its reply, then sends `input`; the exit
    /// status and everything the server wrote after the initialize reply.
    async fn exchange(input: &str) -> (i32, String) {
        let (service, socket) = LspService::build(|_| Panicky)
            .custom_method("test/panic", Panicky::panic)
            .finish();
        let (client, server) = tokio::io::duplex(1 << 16);
        let (server_read, server_write) = tokio::io::split(server);
        let server = tokio::spawn(serve(service, socket, server_read, server_write));
        let (client_read, mut client_write) = tokio::io::split(client);
        let mut client_read = BufReader::new(client_read);
        let initialize = message(
            r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}"#,
        );
        client_write.write_all(initialize.as_bytes()).await.unwrap();
        let reply = read_frame(&mut client_read).await.unwrap();
        assert!(matches!(reply, Some(Frame::Body(_))), "{reply:?}");
        client_write.write_all(input.as_bytes()).await.unwrap();
        let status = server.await.unwrap();
        let mut output = String::new();
        client_read.read_to_string(&mut output).await.unwrap();
        (status, output)
    }

    fn message(body: &str) -> String {
        format!("Content-Length: {}\r\n\r\n{body}", body.len())
    }

    #[tokio::test]
    async fn a_panicking_handler_answers_an_error_and_the_server_goes_on() {
        let input = [
            message(r#"{"jsonrpc":"2.0","id":2,"method":"test/panic","params":null}"#),
            message(r#"{"jsonrpc":"2.0","method":"test/panic","params":null}"#),
            message(r#"{"jsonrpc":"2.0","id":3,"method":"shutdown"}"#),
            message(r#"{"jsonrpc":"2.0","id":4,"method":"test/panic","params":null}"#),
            message(r#"{"jsonrpc":"2.0","method":"exit"}"#),
        ]
        .concat();
        let (status, output) = exchange(&input).await;
        assert_eq!(status, 0, "exit after shutdown");
        // tower-lsp refuses requests after `shutdown`.
        assert!(
            output.contains(
                r#"{"jsonrpc":"2.0","error":{"code":-32600,"message":"Invalid request"},"id":4}"#
            ),
            "{output}"
        );
        assert!(output.contains(r#""error":{"code":-32603,"message":"the server failed while handling `test/panic`"},"id":2"#), "{output}");
        assert!(
            output.contains(r#"{"jsonrpc":"2.0","result":null,"id":3}"#),
            "{output}"
        );
    }

    #[tokio::test]
    async fn malformed_messages_are_answered_and_exit_without_shutdown_is_1() {
        let input = [
            message("{bad json}"),
            "Content-Type: nothing else\r\n\r\n".to_string(),
            message(r#"{"id":7}"#),
            message(r#"{"jsonrpc":"2.0","id":2,"method":"test/panic","params":null}"#),
            message(r#"{"jsonrpc":"2.0","method":"exit"}"#),
            message(r#"{"jsonrpc":"2.0","id":3,"method":"shutdown"}"#),
        ]
        .concat();
        let (status, output) = exchange(&input).await;
        assert_eq!(status, 1, "exit without shutdown");
        assert_eq!(output.matches(r#""code":-32700"#).count(), 2, "{output}");
        assert!(
            output.contains(r#""code":-32600"#) && output.contains(r#""id":7"#),
            "{output}"
        );
        assert!(
            output.contains(r#""id":2"#),
            "still serving after them: {output}"
        );
        assert!(
            !output.contains(r#""id":3"#),
            "nothing is read after exit: {output}"
        );
    }
}
