//! Protocol tests: the server runs in-process over an in-memory duplex stream, framed and
//! encoded exactly as over stdio, and a small client drives it with JSON-RPC messages.
//!
//! Time is paused (`start_paused`): it moves only when every task waits, straight to
//! the next timer. So a debounce delay, or a wait that must see nothing sent, takes no
//! wall-clock time and gives the same result on a loaded machine.

use std::collections::VecDeque;
use std::time::Duration;

use expect_test::expect;
use serde_json::{json, Value};
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader, WriteHalf};
use tokio::sync::mpsc;

const URI: &str = "file:///test/kernel.s";
/// Long enough for any message to go through on a loaded machine (10 s was not, once: an
/// on-save assembly in a debug build at load 11), so that a wait that times out really
/// means "nothing was sent". Passing tests never wait it out.
const PATIENCE: Duration = Duration::from_secs(60);

/// A ranged change: `((line, col), (line, col), text)`.
type Change<'a> = ((u32, u32), (u32, u32), &'a str);

struct TestClient {
    writer: WriteHalf<tokio::io::DuplexStream>,
    incoming: mpsc::UnboundedReceiver<Value>,
    /// Notifications received while waiting for something else.
    queue: VecDeque<Value>,
    next_id: i64,
    initialize_result: Value,
}

impl TestClient {
    /// A server with `debounce`, initialized by a client with `capabilities`.
    async fn start(debounce: Duration, capabilities: Value) -> TestClient {
        TestClient::start_with_root(debounce, capabilities, Value::Null).await
    }

    /// [`TestClient::start`] with a workspace root (`rootUri`).
    async fn start_with_root(
        debounce: Duration,
        capabilities: Value,
        root_uri: Value,
    ) -> TestClient {
        let (client_io, server_io) = tokio::io::duplex(1 << 20);
        let (server_read, server_write) = tokio::io::split(server_io);
        tokio::spawn(gcn_lsp::serve(
            gcn_lsp::Config { debounce },
            server_read,
            server_write,
        ));
        let (read, writer) = tokio::io::split(client_io);
        let (tx, incoming) = mpsc::unbounded_channel();
        tokio::spawn(async move {
            let mut read = BufReader::new(read);
            loop {
                let mut length = None;
                loop {
                    let mut line = String::new();
                    if read.read_line(&mut line).await.unwrap_or(0) == 0 {
                        return;
                    }
                    let line = line.trim_end();
                    if line.is_empty() {
                        break;
                    }
                    if let Some(v) = line.strip_prefix("Content-Length: ") {
                        length = Some(v.parse::<usize>().unwrap());
                    }
                }
                let mut body = vec![0; length.expect("Content-Length header")];
                read.read_exact(&mut body).await.unwrap();
                if tx.send(serde_json::from_slice(&body).unwrap()).is_err() {
                    return;
                }
            }
        });
        let mut client = TestClient {
            writer,
            incoming,
            queue: VecDeque::new(),
            next_id: 1,
            initialize_result: Value::Null,
        };
        client.initialize_result = client
            .request(
                "initialize",
                json!({ "processId": null, "rootUri": root_uri, "capabilities": capabilities }),
            )
            .await;
        client.notify("initialized", json!({})).await;
        client
    }

    async fn default() -> TestClient {
        TestClient::start(Duration::from_millis(20), json!({})).await
    }

    async fn send(&mut self, message: Value) {
        let body = serde_json::to_string(&message).unwrap();
        let frame = format!("Content-Length: {}\r\n\r\n{}", body.len(), body);
        self.writer.write_all(frame.as_bytes()).await.unwrap();
        self.writer.flush().await.unwrap();
    }

    async fn notify(&mut self, method: &str, params: Value) {
        self.send(json!({ "jsonrpc": "2.0", "method": method, "params": params }))
            .await;
    }

    async fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        self.send(json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params }))
            .await;
        loop {
            let message = self
                .receive(PATIENCE)
                .await
                .unwrap_or_else(|| panic!("no answer to {method}"));
            if message.get("method").is_none() && message["id"] == id {
                assert!(message.get("error").is_none(), "{method} failed: {message}");
                return message["result"].clone();
            }
            self.queue.push_back(message);
        }
    }

    async fn receive(&mut self, wait: Duration) -> Option<Value> {
        tokio::time::timeout(wait, self.incoming.recv())
            .await
            .ok()
            .flatten()
    }

    /// The next `publishDiagnostics` for `URI` within `wait`: `(version, diagnostics)`.
    async fn next_diagnostics(&mut self, wait: Duration) -> Option<(Value, Vec<Value>)> {
        let is_ours = |m: &Value| {
            m["method"] == "textDocument/publishDiagnostics" && m["params"]["uri"] == URI
        };
        if let Some(i) = self.queue.iter().position(is_ours) {
            let m = self.queue.remove(i).unwrap();
            return Some((
                m["params"]["version"].clone(),
                m["params"]["diagnostics"].as_array().unwrap().clone(),
            ));
        }
        let deadline = tokio::time::Instant::now() + wait;
        loop {
            let left = deadline.saturating_duration_since(tokio::time::Instant::now());
            let m = self.receive(left).await?;
            if is_ours(&m) {
                return Some((
                    m["params"]["version"].clone(),
                    m["params"]["diagnostics"].as_array().unwrap().clone(),
                ));
            }
            self.queue.push_back(m);
        }
    }

    async fn diagnostics(&mut self) -> (Value, Vec<Value>) {
        self.next_diagnostics(PATIENCE)
            .await
            .expect("diagnostics were published")
    }

    async fn open(&mut self, text: &str) {
        let doc = json!({ "uri": URI, "languageId": "clrx", "version": 1, "text": text });
        self.notify("textDocument/didOpen", json!({ "textDocument": doc }))
            .await;
    }

    /// One `didChange` with ranged changes `((line, col), (line, col), text)`.
    async fn change(&mut self, version: i32, changes: &[Change<'_>]) {
        let changes: Vec<Value> = changes
            .iter()
            .map(|&((l0, c0), (l1, c1), text)| {
                json!({
                    "range": { "start": { "line": l0, "character": c0 }, "end": { "line": l1, "character": c1 } },
                    "text": text,
                })
            })
            .collect();
        let doc = json!({ "uri": URI, "version": version });
        self.notify(
            "textDocument/didChange",
            json!({ "textDocument": doc, "contentChanges": changes }),
        )
        .await;
    }

    async fn symbols(&mut self) -> Value {
        self.request(
            "textDocument/documentSymbol",
            json!({ "textDocument": { "uri": URI } }),
        )
        .await
    }

    /// Checks that the server's tree is the one of a fresh parse of `text`.
    async fn assert_text(&mut self, text: &str) {
        let tree = self
            .request("gcn/syntaxTree", json!({ "textDocument": { "uri": URI } }))
            .await;
        assert_eq!(
            tree.as_str().unwrap(),
            gcn_lsp::dump_syntax_tree(&gcn_syntax::parse(text))
        );
    }
}

/// `line:col-line:col message` for each diagnostic.
fn render_diagnostics(diagnostics: &[Value]) -> String {
    diagnostics
        .iter()
        .map(|d| {
            let r = &d["range"];
            format!(
                "{}:{}-{}:{} {} {}\n",
                r["start"]["line"],
                r["start"]["character"],
                r["end"]["line"],
                r["end"]["character"],
                d["severity"],
                d["message"].as_str().unwrap()
            )
        })
        .collect()
}

/// The outline as an indented tree: kind, name, selection range.
fn render_symbols(symbols: &Value) -> String {
    fn go(symbols: &Value, depth: usize, out: &mut String) {
        for s in symbols.as_array().unwrap() {
            let r = &s["selectionRange"];
            out.push_str(&format!(
                "{}{} {} {}:{}-{}:{}\n",
                "  ".repeat(depth),
                s["kind"],
                s["name"].as_str().unwrap(),
                r["start"]["line"],
                r["start"]["character"],
                r["end"]["line"],
                r["end"]["character"]
            ));
            if let Some(children) = s.get("children") {
                go(children, depth + 1, out);
            }
        }
    }
    let mut out = String::new();
    go(symbols, 0, &mut out);
    out
}

const VALID: &str = "\
.amd
.gpu Bonaire
.kernel first
    .config
        .dims x
    .text
first:
    s_mov_b32 s0, 1+2*3 # comment
loop: s_sub_u32 s0, s0, 1
    s_cbranch_scc0 loop
    s_endpgm
.kernel second
    .config
    .text
second: s_endpgm
";

#[tokio::test(start_paused = true)]
async fn initialize_advertises_incremental_sync_and_utf16_by_default() {
    let client = TestClient::default().await;
    let capabilities = &client.initialize_result["capabilities"];
    assert_eq!(capabilities["positionEncoding"], "utf-16");
    assert_eq!(capabilities["textDocumentSync"]["change"], 2);
    assert_eq!(capabilities["textDocumentSync"]["openClose"], true);
    assert_eq!(capabilities["documentSymbolProvider"], true);
}

#[tokio::test(start_paused = true)]
async fn initialize_picks_utf8_when_offered() {
    let capabilities = json!({ "general": { "positionEncodings": ["utf-16", "utf-8"] } });
    let client = TestClient::start(Duration::from_millis(20), capabilities).await;
    assert_eq!(
        client.initialize_result["capabilities"]["positionEncoding"],
        "utf-8"
    );
    let capabilities = json!({ "general": { "positionEncodings": ["utf-32", "utf-16"] } });
    let client = TestClient::start(Duration::from_millis(20), capabilities).await;
    assert_eq!(
        client.initialize_result["capabilities"]["positionEncoding"],
        "utf-16"
    );
}

#[tokio::test(start_paused = true)]
async fn valid_file_has_no_diagnostics() {
    let mut client = TestClient::default().await;
    client.open(VALID).await;
    let (version, diagnostics) = client.diagnostics().await;
    assert_eq!(version, 1);
    assert_eq!(diagnostics, Vec::<Value>::new());
}

#[tokio::test(start_paused = true)]
async fn inserted_error_is_reported_on_its_line_and_cleared_when_deleted() {
    let mut client = TestClient::default().await;
    client.open(VALID).await;
    assert_eq!(client.diagnostics().await.1.len(), 0);

    // A new line 8 in the first kernel.
    client
        .change(2, &[((8, 0), (8, 0), "    .int (1+2*\n")])
        .await;
    let (version, diagnostics) = client.diagnostics().await;
    assert_eq!(version, 2);
    assert!(!diagnostics.is_empty());
    for d in &diagnostics {
        assert_eq!(d["range"]["start"]["line"], 8, "{d}");
        assert_eq!(d["severity"], 1, "an error: {d}");
    }
    expect![[r#"
        8:14-8:14 1 expected an expression
    "#]]
    .assert_eq(&render_diagnostics(&diagnostics));
    let edited = VALID.replacen("loop:", "    .int (1+2*\nloop:", 1);
    client.assert_text(&edited).await;

    client.change(3, &[((8, 0), (9, 0), "")]).await;
    let (version, diagnostics) = client.diagnostics().await;
    assert_eq!(version, 3);
    assert_eq!(diagnostics, Vec::<Value>::new());
    client.assert_text(VALID).await;
}

#[tokio::test(start_paused = true)]
async fn document_symbols_list_kernels_and_labels() {
    let mut client = TestClient::default().await;
    client.open(VALID).await;
    let symbols = client.symbols().await;
    // Kind 2 is Module (a kernel), 20 is Key (a label).
    expect![[r#"
        2 first 2:8-2:13
          20 first 6:0-6:5
          20 loop 8:0-8:4
        2 second 11:8-11:14
          20 second 14:0-14:6
    "#]]
    .assert_eq(&render_symbols(&symbols));
    // Full ranges: a kernel from its `.kernel` to its last statement.
    assert_eq!(
        symbols[0]["range"],
        json!({ "start": { "line": 2, "character": 0 }, "end": { "line": 10, "character": 12 } })
    );

    // Symbols follow edits.
    client.change(2, &[((8, 0), (8, 4), "again")]).await;
    let symbols = client.symbols().await;
    assert_eq!(symbols[0]["children"][1]["name"], "again");
}

/// A line with characters outside ASCII before the edit: `ä` is 2 bytes and 1 UTF-16
/// unit, `😀` 4 bytes and 2 units.
const UNICODE: &str = ".rawcode # größe 😀\n/* ä😀 */ lbl: s_endpgm # ü\n";

#[tokio::test(start_paused = true)]
async fn utf16_columns_after_non_ascii_characters() {
    let mut client = TestClient::default().await;
    client.open(UNICODE).await;
    assert_eq!(client.diagnostics().await.1.len(), 0);
    // `lbl` starts at UTF-16 column 10 (byte 13) of line 1.
    client.change(2, &[((1, 10), (1, 10), "new_")]).await;
    let symbols = client.symbols().await;
    expect![[r#"
        20 new_lbl 1:10-1:17
    "#]]
    .assert_eq(&render_symbols(&symbols));
    client.assert_text(&UNICODE.replace("lbl", "new_lbl")).await;

    // An error after the non-ASCII characters: its columns are UTF-16 too.
    client.change(3, &[((1, 31), (1, 31), "\n.int (😀")]).await;
    let (version, diagnostics) = client.diagnostics().await;
    assert_eq!(version, 3);
    expect![[r#"
        2:6-2:8 1 unexpected character
    "#]]
    .assert_eq(&render_diagnostics(&diagnostics));
    client
        .assert_text(
            &UNICODE
                .replace("lbl", "new_lbl")
                .replace("ü\n", "ü\n.int (😀\n"),
        )
        .await;
}

#[tokio::test(start_paused = true)]
async fn utf8_columns_when_negotiated() {
    let capabilities = json!({ "general": { "positionEncodings": ["utf-8"] } });
    let mut client = TestClient::start(Duration::from_millis(20), capabilities).await;
    client.open(UNICODE).await;
    // `lbl` starts at byte 13 of line 1.
    client.change(2, &[((1, 13), (1, 13), "new_")]).await;
    expect![[r#"
        20 new_lbl 1:13-1:20
    "#]]
    .assert_eq(&render_symbols(&client.symbols().await));
    client.assert_text(&UNICODE.replace("lbl", "new_lbl")).await;
}

#[tokio::test(start_paused = true)]
async fn crlf_line_endings() {
    let text = VALID.replace('\n', "\r\n");
    let mut client = TestClient::default().await;
    client.open(&text).await;
    assert_eq!(client.diagnostics().await.1.len(), 0);
    // Past the end of line 8: clamps to before its `\r\n`.
    client.change(2, &[((8, 99), (8, 99), " +")]).await;
    let (_, diagnostics) = client.diagnostics().await;
    expect![[r#"
        8:27-8:27 1 expected an expression
    "#]]
    .assert_eq(&render_diagnostics(&diagnostics));
    client
        .assert_text(&text.replace("s0, s0, 1\r\n", "s0, s0, 1 +\r\n"))
        .await;
}

#[tokio::test(start_paused = true)]
async fn several_changes_in_one_notification_and_full_replacement() {
    let mut client = TestClient::default().await;
    client.open("a: s_nop 0\n").await;
    client.diagnostics().await;
    // Applied in order: each range refers to the text after the previous change.
    client
        .change(
            2,
            &[
                ((0, 0), (0, 1), "bb"),
                ((0, 2), (0, 2), "_x"),
                ((1, 0), (1, 0), "c:\n"),
            ],
        )
        .await;
    client.assert_text("bb_x: s_nop 0\nc:\n").await;
    let doc = json!({ "uri": URI, "version": 3 });
    let change = json!([{ "text": ".int (\n" }]);
    client
        .notify(
            "textDocument/didChange",
            json!({ "textDocument": doc, "contentChanges": change }),
        )
        .await;
    let (version, diagnostics) = client.diagnostics().await;
    assert_eq!(version, 3);
    assert!(!diagnostics.is_empty());
    client.assert_text(".int (\n").await;
}

#[tokio::test(start_paused = true)]
async fn quick_changes_publish_only_for_the_last_version() {
    let mut client = TestClient::start(Duration::from_millis(250), json!({})).await;
    client.open(VALID).await;
    assert_eq!(client.diagnostics().await.0, 1);
    // Each keystroke of `.int (1+2*` on a new line, well within the debounce delay.
    client.change(2, &[((8, 0), (8, 0), "\n")]).await;
    let typed = ".int (1+2*";
    for (i, c) in typed.char_indices() {
        client
            .change(
                3 + i as i32,
                &[((8, i as u32), (8, i as u32), &c.to_string())],
            )
            .await;
    }
    let last = 2 + typed.len() as i64;
    let (version, diagnostics) = client.diagnostics().await;
    assert_eq!(version, last, "only the last version is published");
    assert!(!diagnostics.is_empty());
    // And nothing else follows.
    assert_eq!(
        client.next_diagnostics(Duration::from_millis(400)).await,
        None
    );
}

#[tokio::test(start_paused = true)]
async fn no_publication_for_a_version_that_is_already_stale() {
    let mut client = TestClient::start(Duration::from_millis(300), json!({})).await;
    client.open(VALID).await;
    client.diagnostics().await;
    client.change(2, &[((0, 0), (0, 0), ".int (\n")]).await;
    // Before version 2 is published, version 3 fixes it.
    client.change(3, &[((0, 0), (1, 0), "")]).await;
    let (version, diagnostics) = client.diagnostics().await;
    assert_eq!(version, 3);
    assert_eq!(diagnostics, Vec::<Value>::new());
    assert_eq!(
        client.next_diagnostics(Duration::from_millis(500)).await,
        None
    );
}

#[tokio::test(start_paused = true)]
async fn close_clears_diagnostics_and_cancels_pending_ones() {
    let mut client = TestClient::start(Duration::from_millis(200), json!({})).await;
    client.open(".int (\n").await;
    let (version, diagnostics) = client.diagnostics().await;
    assert_eq!(version, 1);
    assert!(!diagnostics.is_empty());
    // A change whose publication is still pending when the document closes.
    client.change(2, &[((0, 0), (0, 0), "x")]).await;
    client
        .notify(
            "textDocument/didClose",
            json!({ "textDocument": { "uri": URI } }),
        )
        .await;
    let (version, diagnostics) = client.diagnostics().await;
    assert_eq!(version, Value::Null);
    assert_eq!(diagnostics, Vec::<Value>::new());
    assert_eq!(
        client.next_diagnostics(Duration::from_millis(400)).await,
        None
    );
    // The document is gone.
    assert_eq!(client.symbols().await, Value::Null);
}

// ---- the assembler's analysis of a project on disk ----------------------------------

/// A scratch project folder, removed when dropped.
struct Project {
    dir: std::path::PathBuf,
}

impl Project {
    fn new(name: &str, files: &[(&str, &str)]) -> Project {
        // Tests run side by side in one process: each project gets a folder of its own,
        // or one test's clean-up would remove another's files.
        static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let serial = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let dir =
            std::env::temp_dir().join(format!("gcn-lsp-{}-{serial}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        for (path, text) in files {
            let path = dir.join(path);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        }
        Project { dir }
    }

    fn path(&self, name: &str) -> std::path::PathBuf {
        self.dir.join(name)
    }

    fn uri(&self, name: &str) -> String {
        format!("file://{}", self.path(name).display())
    }
}

impl Drop for Project {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

impl TestClient {
    /// A request's whole answer (`result` or `error`).
    async fn request_raw(&mut self, method: &str, params: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        self.send(json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params }))
            .await;
        loop {
            let message = self
                .receive(PATIENCE)
                .await
                .unwrap_or_else(|| panic!("no answer to {method}"));
            if message.get("method").is_none() && message["id"] == id {
                return message;
            }
            self.queue.push_back(message);
        }
    }

    /// A request's answer: `Ok(result)` or `Err(error)`.
    async fn request_outcome(&mut self, method: &str, params: Value) -> Result<Value, Value> {
        let message = self.request_raw(method, params).await;
        match message.get("error") {
            Some(error) => Err(error.clone()),
            None => Ok(message["result"].clone()),
        }
    }

    async fn open_file(&mut self, uri: &str, text: &str) {
        let doc = json!({ "uri": uri, "languageId": "clrx", "version": 1, "text": text });
        self.notify("textDocument/didOpen", json!({ "textDocument": doc }))
            .await;
    }

    async fn change_file(&mut self, uri: &str, version: i32, change: Change<'_>) {
        let ((l0, c0), (l1, c1), text) = change;
        let range = json!({ "start": { "line": l0, "character": c0 }, "end": { "line": l1, "character": c1 } });
        let doc = json!({ "uri": uri, "version": version });
        self.notify(
            "textDocument/didChange",
            json!({ "textDocument": doc, "contentChanges": [{ "range": range, "text": text }] }),
        )
        .await;
    }

    /// The next notification `method` that `matches`, within [`PATIENCE`].
    async fn notification(&mut self, method: &str, matches: impl Fn(&Value) -> bool) -> Value {
        let is_it = |m: &Value| m["method"] == method && matches(&m["params"]);
        if let Some(i) = self.queue.iter().position(is_it) {
            return self.queue.remove(i).unwrap()["params"].clone();
        }
        loop {
            let m = self
                .receive(PATIENCE)
                .await
                .unwrap_or_else(|| panic!("no {method}"));
            if is_it(&m) {
                return m["params"].clone();
            }
            self.queue.push_back(m);
        }
    }

    /// The first non-empty diagnostics published for `uri` at version 1 (after the
    /// change of another file that it includes).
    async fn first_diagnostics_of(&mut self, uri: &str) -> Vec<Value> {
        loop {
            let d = self.diagnostics_of(uri, Some(1)).await;
            if !d.is_empty() {
                return d;
            }
        }
    }

    /// The diagnostics published for `uri` (at `version`, if given).
    async fn diagnostics_of(&mut self, uri: &str, version: Option<i32>) -> Vec<Value> {
        let params = self
            .notification("textDocument/publishDiagnostics", |p| {
                p["uri"] == uri && version.is_none_or(|v| p["version"] == v)
            })
            .await;
        params["diagnostics"].as_array().unwrap().clone()
    }
}

const PROJECT_TOML: &str = "args = [\"-g\", \"Tonga\", \"--llvmVersion=30900\"]\n[on-save]\noutput = \"build/{stem}.bin\"\n";

const HELPERS: &str = ".macro bump reg\n        v_add_u32 \\reg, vcc, 1, \\reg\n.endm\n";

const PROJECT_KERNEL: &str = "\
.gallium
.include \"inc/helpers.s\"
.kernel scale
    .config
        .dims x
.text
scale:
        v_mov_b32 v5, s0
        bump v5
        s_endpgm
";

fn project() -> Project {
    Project::new(
        "project",
        &[
            ("gcn.toml", PROJECT_TOML),
            ("inc/helpers.s", HELPERS),
            ("kernel.s", PROJECT_KERNEL),
        ],
    )
}

#[tokio::test]
async fn project_sources_get_the_assemblers_diagnostics_and_counts() {
    let project = project();
    let uri = project.uri("kernel.s");
    let mut client = TestClient::default().await;
    client.open_file(&uri, PROJECT_KERNEL).await;
    assert_eq!(
        client.diagnostics_of(&uri, Some(1)).await,
        Vec::<Value>::new()
    );
    // An instruction the GPU lacks, and a branch to nowhere.
    client
        .change_file(
            &uri,
            2,
            (
                (9, 0),
                (9, 0),
                "        v_pk_add_f16 v1, v2, v3\n        s_branch nowhere\n",
            ),
        )
        .await;
    expect![[r#"
        9:8-9:20 1 unknown instruction: `v_pk_add_f16` is not available on GCN1.2 (only on GCN1.4, GCN1.4.1, GCN1.5, GCN1.5.1)
        10:17-10:24 1 Unresolved symbol 'nowhere'
    "#]]
    .assert_eq(&render_diagnostics(&client.diagnostics_of(&uri, Some(2)).await));
    client.change_file(&uri, 3, ((9, 0), (11, 0), "")).await;
    assert_eq!(
        client.diagnostics_of(&uri, Some(3)).await,
        Vec::<Value>::new()
    );

    let usage = client
        .request(
            "gcn/registerUsage",
            json!({ "textDocument": { "uri": uri } }),
        )
        .await;
    expect![[r#"{"kernels":[{"extra_sgprs":2,"label":"SGPR 7 · VGPR 6 · 10 waves","name":"scale","range":{"end":{"character":5,"line":6},"start":{"character":0,"line":6}},"sgprs":0,"sgprsnum":7,"vgprs":6,"vgprsnum":6,"waves":10}],"version":3}"#]]
    .assert_eq(&usage.to_string());
    let range =
        json!({ "start": { "line": 0, "character": 0 }, "end": { "line": 20, "character": 0 } });
    let hints = client
        .request(
            "textDocument/inlayHint",
            json!({ "textDocument": { "uri": uri }, "range": range }),
        )
        .await;
    assert_eq!(hints[0]["label"], usage["kernels"][0]["label"]);
    assert_eq!(hints[0]["position"], json!({ "line": 6, "character": 6 }));
}

#[tokio::test]
async fn expand_macro_shows_what_a_call_ran() {
    let project = project();
    let uri = project.uri("kernel.s");
    let mut client = TestClient::default().await;
    client.open_file(&uri, PROJECT_KERNEL).await;
    let expand = |line: u32| json!({ "textDocument": { "uri": uri }, "position": { "line": line, "character": 9 } });
    // `bump v5`, a macro of the included file.
    let expansion = client.request("gcn/expandMacro", expand(8)).await;
    expect![[r#"{"parts":["macro `bump`"],"range":{"end":{"character":15,"line":8},"start":{"character":8,"line":8}},"text":"        v_add_u32 v5, vcc, 1, v5\n"}"#]]
    .assert_eq(&expansion.to_string());
    // No call there.
    let none = client.request("gcn/expandMacro", expand(7)).await;
    assert_eq!(none, Value::Null);
}

#[tokio::test]
async fn listing_shows_each_instruction_with_its_words() {
    let project = project();
    let uri = project.uri("kernel.s");
    let mut client = TestClient::default().await;
    client.open_file(&uri, PROJECT_KERNEL).await;
    let params = json!({ "textDocument": { "uri": uri } });
    let listing = client.request("gcn/listing", params.clone()).await;
    assert_eq!(listing["version"], 1);
    assert_eq!(listing["errors"], false);
    let text = listing["text"].as_str().unwrap();
    // The macro's line, named from the source's folder, and the source's own lines.
    assert!(text.contains("  inc/helpers.s:"), "{text}");
    assert!(text.contains("kernel.s:"), "{text}");
    let last = text.lines().last().unwrap();
    assert!(last.ends_with("s_endpgm"), "{text}");
    // Not open: an error, not an empty listing.
    let closed = json!({ "textDocument": { "uri": project.uri("closed.s") } });
    let error = client
        .request_outcome("gcn/listing", closed)
        .await
        .unwrap_err();
    assert!(
        error["message"].as_str().unwrap().contains("is not open"),
        "{error}"
    );
}

#[tokio::test]
async fn saving_writes_the_binary_and_keeps_it_when_the_source_has_errors() {
    let project = project();
    let uri = project.uri("kernel.s");
    let output = project.path("build/kernel.bin");
    let mut client = TestClient::default().await;
    client.open_file(&uri, PROJECT_KERNEL).await;
    client.diagnostics_of(&uri, Some(1)).await;
    client
        .notify(
            "textDocument/didSave",
            json!({ "textDocument": { "uri": uri } }),
        )
        .await;
    let message = client.notification("window/showMessage", |_| true).await;
    assert_eq!(message["type"], 3, "{message}");
    let written = std::fs::read(&output).unwrap();
    let expected = {
        let input = gcn_asm::Input {
            name: project.path("kernel.s").display().to_string(),
            text: PROJECT_KERNEL.into(),
        };
        let mut options = gcn_driver::options(
            &gcn_driver::Cli::try_parse_args(&["-g", "Tonga", "--llvmVersion=30900"]).unwrap(),
        );
        options.work_dir = Some(project.dir.clone());
        gcn_driver::output_bytes(&gcn_asm::assemble(vec![input], options), None).unwrap()
    };
    assert_eq!(written, expected);

    client
        .change_file(&uri, 2, ((9, 0), (9, 0), "        s_frobnicate\n"))
        .await;
    client
        .notify(
            "textDocument/didSave",
            json!({ "textDocument": { "uri": uri } }),
        )
        .await;
    let message = client.notification("window/showMessage", |_| true).await;
    assert_eq!(message["type"], 1, "{message}");
    assert!(
        message["message"].as_str().unwrap().contains("1 error"),
        "{message}"
    );
    assert_eq!(std::fs::read(&output).unwrap(), written);

    client.change_file(&uri, 3, ((9, 0), (10, 0), "")).await;
    std::fs::remove_file(&output).unwrap();
    let answer = client
        .request(
            "workspace/executeCommand",
            json!({ "command": "gcn.assemble", "arguments": [uri] }),
        )
        .await;
    assert_eq!(answer["output"], output.display().to_string());
    assert_eq!(std::fs::read(&output).unwrap(), written);
}

#[tokio::test]
async fn saving_a_file_that_is_not_utf8_writes_the_binary_gcnasm_writes_from_its_bytes() {
    // Saved in Latin-1: the editor shows `é` (U+00E9), the file holds the byte E9, and
    // gcnasm, which reads bytes, puts E9 in the string.
    let project = Project::new(
        "latin1",
        &[(
            "gcn.toml",
            "args = [\"-b\", \"rawcode\"]\n[on-save]\noutput = \"out.bin\"\n",
        )],
    );
    std::fs::write(project.path("k.s"), b".ascii \"caf\xe9\"\n").unwrap();
    let uri = project.uri("k.s");
    let mut client = TestClient::default().await;
    client.open_file(&uri, ".ascii \"caf\u{e9}\"\n").await;
    client.diagnostics_of(&uri, Some(1)).await;
    client
        .notify(
            "textDocument/didSave",
            json!({ "textDocument": { "uri": uri } }),
        )
        .await;
    let message = client.notification("window/showMessage", |_| true).await;
    assert_eq!(message["type"], 3, "{message}");
    assert_eq!(std::fs::read(project.path("out.bin")).unwrap(), b"caf\xe9");
}

#[tokio::test]
async fn an_output_over_a_source_is_refused() {
    let project = Project::new(
        "over",
        &[
            ("gcn.toml", "[on-save]\noutput = \"inc/helpers.s\"\n"),
            ("inc/helpers.s", HELPERS),
            ("kernel.s", PROJECT_KERNEL),
        ],
    );
    let uri = project.uri("kernel.s");
    let mut client = TestClient::default().await;
    client.open_file(&uri, PROJECT_KERNEL).await;
    client.diagnostics_of(&uri, Some(1)).await;
    let refused = client
        .request_outcome(
            "workspace/executeCommand",
            json!({ "command": "gcn.assemble", "arguments": [uri] }),
        )
        .await;
    let message = refused.unwrap_err()["message"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(message.contains("it is a source file"), "{message}");
    assert_eq!(
        std::fs::read_to_string(project.path("inc/helpers.s")).unwrap(),
        HELPERS
    );
}

#[tokio::test]
async fn a_bad_project_file_is_reported_on_it_and_left_out() {
    let project = Project::new(
        "badtoml",
        &[
            ("gcn.toml", "args = [\"-g\", \"Nonsense\"]\n"),
            ("kernel.s", ".rawcode\ns_endpgm\n"),
        ],
    );
    let uri = project.uri("kernel.s");
    let mut client = TestClient::default().await;
    client.open_file(&uri, ".rawcode\ns_endpgm\n").await;
    let on_source = client.diagnostics_of(&uri, Some(1)).await;
    assert_eq!(on_source.len(), 1, "{on_source:?}");
    assert_eq!(on_source[0]["severity"], 2);
    let on_toml = client.diagnostics_of(&project.uri("gcn.toml"), None).await;
    assert!(
        on_toml[0]["message"].as_str().unwrap().contains("Nonsense"),
        "{on_toml:?}"
    );
}

#[tokio::test]
async fn settings_changes_apply_to_open_sources() {
    let project = Project::new(
        "settings",
        &[("kernel.s", ".rawcode\ns_cmp_eq_u64 s[0:1], s[2:3]\n")],
    );
    let uri = project.uri("kernel.s");
    let options = json!({ "args": ["-g", "Pitcairn"], "diagnosticsDelay": 0 });
    let mut client = TestClient::start(Duration::from_millis(20), json!({})).await;
    client
        .notify(
            "workspace/didChangeConfiguration",
            json!({ "settings": { "gcn": options } }),
        )
        .await;
    client
        .open_file(&uri, ".rawcode\ns_cmp_eq_u64 s[0:1], s[2:3]\n")
        .await;
    assert_eq!(client.diagnostics_of(&uri, Some(1)).await.len(), 1);
    let options = json!({ "args": ["-g", "Tonga"] });
    client
        .notify(
            "workspace/didChangeConfiguration",
            json!({ "settings": options }),
        )
        .await;
    assert_eq!(
        client.diagnostics_of(&uri, Some(1)).await,
        Vec::<Value>::new()
    );
}

#[tokio::test]
async fn an_edit_of_an_open_included_file_reaches_its_includer() {
    let project = project();
    let (kernel, helpers) = (project.uri("kernel.s"), project.uri("inc/helpers.s"));
    let mut client = TestClient::default().await;
    client.open_file(&kernel, PROJECT_KERNEL).await;
    assert_eq!(
        client.diagnostics_of(&kernel, Some(1)).await,
        Vec::<Value>::new()
    );
    client.open_file(&helpers, HELPERS).await;
    client.diagnostics_of(&helpers, Some(1)).await;
    // The macro's body, in the open buffer only (not on disk), gets a mistake.
    client
        .change_file(&helpers, 2, ((1, 8), (1, 17), "v_frob"))
        .await;
    let diagnostics = client.first_diagnostics_of(&kernel).await;
    expect![[r#"
        8:8-8:12 1 unknown instruction `v_frob`
    "#]]
    .assert_eq(&render_diagnostics(&diagnostics));
    assert_eq!(
        diagnostics[0]["relatedInformation"][0]["location"]["uri"],
        helpers
    );
}

#[tokio::test]
async fn an_included_file_changed_on_disk_reaches_its_includer() {
    let project = Project::new(
        "watched",
        &[
            ("gcn.toml", PROJECT_TOML),
            ("inc/helpers.s", HELPERS),
            ("kernel.s", PROJECT_KERNEL),
        ],
    );
    let kernel = project.uri("kernel.s");
    let mut client = TestClient::default().await;
    client.open_file(&kernel, PROJECT_KERNEL).await;
    assert_eq!(
        client.diagnostics_of(&kernel, Some(1)).await,
        Vec::<Value>::new()
    );
    // Another program (a checkout, say) changes the included file, which is not open.
    std::fs::write(
        project.path("inc/helpers.s"),
        HELPERS.replace("v_add_u32", "v_frob"),
    )
    .unwrap();
    let changes = json!({ "changes": [{ "uri": project.uri("inc/helpers.s"), "type": 2 }] });
    client
        .notify("workspace/didChangeWatchedFiles", changes)
        .await;
    let diagnostics = client.first_diagnostics_of(&kernel).await;
    expect![[r#"
        8:8-8:12 1 unknown instruction `v_frob`
    "#]]
    .assert_eq(&render_diagnostics(&diagnostics));
}

#[tokio::test]
async fn an_open_included_file_shows_what_its_open_includer_finds_there() {
    // `COUNT` is defined by the source before its `.include`: alone, the fragment cannot
    // know it; with the source open, only its real mistake is left.
    let project = Project::new(
        "fragment",
        &[
            (
                "gcn.toml",
                "args = [\"-b\", \"rawcode\", \"-g\", \"Tonga\"]\n",
            ),
            ("main.s", "COUNT = 4\n.include \"body.s\"\ns_endpgm\n"),
            ("body.s", "s_mov_b32 s0, COUNT\ns_bogus\n"),
        ],
    );
    let (main, body) = (project.uri("main.s"), project.uri("body.s"));
    let mut client = TestClient::default().await;
    client
        .open_file(&body, "s_mov_b32 s0, COUNT\ns_bogus\n")
        .await;
    expect![[r#"
        0:14-0:19 1 Unresolved symbol 'COUNT'
        1:0-1:7 1 unknown instruction `s_bogus`
    "#]]
    .assert_eq(&render_diagnostics(
        &client.diagnostics_of(&body, Some(1)).await,
    ));
    client
        .open_file(&main, "COUNT = 4\n.include \"body.s\"\ns_endpgm\n")
        .await;
    let in_context = loop {
        let d = client.diagnostics_of(&body, Some(1)).await;
        if d.len() == 1 {
            break d;
        }
    };
    expect![[r#"
        1:0-1:7 1 unknown instruction `s_bogus`
    "#]]
    .assert_eq(&render_diagnostics(&in_context));
    // Its names are the program's: `COUNT` is defined in the source.
    let at = json!({ "textDocument": { "uri": body }, "position": { "line": 0, "character": 16 } });
    let definition = client.request("textDocument/definition", at).await;
    assert_eq!(definition[0]["uri"], main, "{definition}");
    assert_eq!(
        definition[0]["range"]["start"],
        json!({ "line": 0, "character": 0 }),
        "{definition}"
    );
    let at = json!({ "textDocument": { "uri": body }, "position": { "line": 0, "character": 16 } });
    let hover = client.request("textDocument/hover", at).await.to_string();
    assert!(
        hover.contains("value: 4 (0x4)") && hover.contains("defined at `main.s:1`"),
        "{hover}"
    );
    // Closing the source gives the fragment its own diagnostics back.
    client
        .notify(
            "textDocument/didClose",
            json!({ "textDocument": { "uri": main } }),
        )
        .await;
    let alone = loop {
        let d = client.diagnostics_of(&body, Some(1)).await;
        if d.len() == 2 {
            break d;
        }
    };
    assert_eq!(alone[0]["message"], "Unresolved symbol 'COUNT'");
}

#[tokio::test]
async fn the_server_asks_to_watch_files_when_the_client_can() {
    let capabilities =
        json!({ "workspace": { "didChangeWatchedFiles": { "dynamicRegistration": true } } });
    let mut client = TestClient::start(Duration::ZERO, capabilities).await;
    let params = client
        .notification("client/registerCapability", |_| true)
        .await;
    let registration = &params["registrations"][0];
    assert_eq!(registration["method"], "workspace/didChangeWatchedFiles");
    assert_eq!(
        registration["registerOptions"]["watchers"][0]["globPattern"],
        "**/*"
    );
}

#[tokio::test]
async fn an_inlay_hint_refresh_answered_after_the_next_edit_keeps_the_server_alive() {
    let capabilities = json!({ "workspace": { "inlayHint": { "refreshSupport": true } } });
    let mut client = TestClient::start(Duration::ZERO, capabilities).await;
    client.open(".rawcode\ns_nop 0\n").await;
    for version in 2..5 {
        // The server asks for a refresh after publishing; the client answers only after
        // its next edit, when the analysis that asked is long replaced.
        let request = loop {
            let m = client.receive(PATIENCE).await.expect("a refresh request");
            if m["method"] == "workspace/inlayHint/refresh" {
                break m;
            }
        };
        client
            .change(
                version,
                &[((1, 6), (1, 7), if version % 2 == 0 { "1" } else { "0" })],
            )
            .await;
        tokio::time::sleep(Duration::from_millis(50)).await;
        client
            .send(json!({ "jsonrpc": "2.0", "id": request["id"], "result": null }))
            .await;
    }
    assert!(client.symbols().await.is_array());
}

/// A malformed message gets the protocol's parse error (-32700, id null) and the server
/// goes on serving; so do JSON that is no JSON-RPC message (-32600) and a frame without
/// `Content-Length`.
#[tokio::test(start_paused = true)]
async fn malformed_messages_are_answered_and_the_server_goes_on() {
    let mut client = TestClient::default().await;
    client.open(VALID).await;
    client
        .writer
        .write_all(b"Content-Length: 10\r\n\r\n{bad json}")
        .await
        .unwrap();
    client
        .writer
        .write_all(b"Content-Length: 2\r\n\r\n[]")
        .await
        .unwrap();
    client
        .writer
        .write_all(b"X-Nothing: 1\r\n\r\n")
        .await
        .unwrap();
    let mut codes = Vec::new();
    while codes.len() < 3 {
        let message = client.receive(PATIENCE).await.expect("an error reply");
        if message.get("method").is_none() {
            assert_eq!(message["id"], Value::Null, "{message}");
            codes.push(message["error"]["code"].as_i64().unwrap());
        }
    }
    assert_eq!(codes, [-32700, -32600, -32700]);
    let symbols = client.symbols().await;
    assert!(render_symbols(&symbols).contains("first"), "still serving");
}

/// A Gallium kernel for Tonga, for the language features.
const FEATURES: &str = ".gallium
.gpu Tonga
.macro bump reg, n=1
        v_add_u32 \\reg, vcc, \\n, \\reg
.endm
.kernel k
    .config
        .dims x
        .tgsize
.text
k:      s_load_dwordx2 s[4:5], s[0:1], 0x8
        v_mul_lo_u32 v3, v2, 3
        bump v3, 2
.if 1
        .int 1
.endif
        s_endpgm
";

fn position(line: u32, character: u32) -> Value {
    json!({ "textDocument": { "uri": URI }, "position": { "line": line, "character": character } })
}

#[tokio::test]
async fn initialize_advertises_the_language_features() {
    let client = TestClient::default().await;
    let caps = &client.initialize_result["capabilities"];
    for cap in [
        "hoverProvider",
        "completionProvider",
        "signatureHelpProvider",
        "foldingRangeProvider",
        "selectionRangeProvider",
    ] {
        assert!(!caps[cap].is_null(), "{cap} missing: {caps}");
    }
    assert_eq!(
        caps["semanticTokensProvider"]["legend"]["tokenTypes"],
        json!([
            "instruction",
            "pseudoOp",
            "register",
            "label",
            "symbol",
            "macro",
            "number",
            "string",
            "comment",
            "modifier",
            "parameter"
        ])
    );
    assert_eq!(
        caps["completionProvider"]["triggerCharacters"],
        json!([".", "\\"])
    );
    assert_eq!(caps["semanticTokensProvider"]["range"], json!(true));
    assert_eq!(
        caps["semanticTokensProvider"]["full"],
        json!({ "delta": true })
    );
}

#[tokio::test]
async fn hover_on_instruction_pseudo_op_register_and_number() {
    let mut client = TestClient::default().await;
    client.open(FEATURES).await;
    let hover = |v: &Value| {
        v["contents"]["value"]
            .as_str()
            .unwrap_or_default()
            .to_string()
    };
    let h = client.request("textDocument/hover", position(11, 12)).await;
    assert!(
        hover(&h).contains("v_mul_lo_u32") && hover(&h).contains("opcode on GCN1.2"),
        "{h}"
    );
    assert_eq!(h["contents"]["kind"], "markdown");
    assert_eq!(
        h["range"],
        json!({ "start": { "line": 11, "character": 8 }, "end": { "line": 11, "character": 20 } })
    );
    let h = client.request("textDocument/hover", position(8, 10)).await;
    assert!(
        hover(&h).contains(".tgsize") && hover(&h).contains("kernel configuration"),
        "{h}"
    );
    let h = client.request("textDocument/hover", position(10, 24)).await;
    assert!(hover(&h).contains("s4–s5"), "{h}");
    let h = client.request("textDocument/hover", position(10, 41)).await;
    assert!(hover(&h).contains("decimal: 8"), "{h}");
    // Nothing to say on blanks.
    let h = client.request("textDocument/hover", position(11, 2)).await;
    assert!(h.is_null(), "{h}");
}

#[tokio::test]
async fn completion_offers_the_generations_mnemonics_and_the_places_pseudo_ops() {
    let mut client = TestClient::default().await;
    let text = FEATURES
        .replace("        .tgsize\n", "        .tg\n")
        .replace("        s_endpgm\n", "        v_add_u\n");
    client.open(&text).await;
    let labels = |v: &Value| -> Vec<String> {
        v["items"]
            .as_array()
            .unwrap()
            .iter()
            .map(|i| i["label"].as_str().unwrap().to_string())
            .collect()
    };
    // GCN 1.2 (Tonga) has v_add_u16 and v_add_u32.
    let c = client
        .request("textDocument/completion", position(16, 15))
        .await;
    assert_eq!(labels(&c), ["v_add_u16", "v_add_u32"]);
    assert_eq!(
        c["items"][0]["textEdit"]["range"],
        json!({ "start": { "line": 16, "character": 8 }, "end": { "line": 16, "character": 15 } })
    );
    assert!(c["items"][0]["detail"]
        .as_str()
        .unwrap()
        .starts_with("v_add_u16 VDST"));
    // Inside `.config`: the configuration pseudo-op.
    let c = client
        .request("textDocument/completion", position(8, 11))
        .await;
    assert_eq!(labels(&c), [".tgsize"]);
    // Macros come as snippets.
    let c = client
        .request("textDocument/completion", position(12, 8))
        .await;
    let bump = c["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["label"] == "bump")
        .expect("bump offered");
    assert_eq!(bump["insertTextFormat"], 2);
    assert_eq!(bump["insertText"], "bump ${1:reg}, ${2:n}");
    // A pseudo-op resolves to its own documentation (told from an instruction by its dot).
    let int = c["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["label"] == ".int")
        .expect(".int offered")
        .clone();
    let resolved = client.request("completionItem/resolve", int).await;
    assert!(
        resolved["documentation"]["value"]
            .as_str()
            .unwrap()
            .contains("4-byte"),
        "{resolved}"
    );
}

#[tokio::test]
async fn completion_after_the_operands_offers_the_instructions_modifiers() {
    let mut client = TestClient::default().await;
    client
        .open(".gpu Tonga\nbuffer_load_dword v1, v2, s[0:3], 0 of\n")
        .await;
    let c = client
        .request("textDocument/completion", position(1, 38))
        .await;
    let items = c["items"].as_array().unwrap();
    let labels: Vec<&str> = items.iter().map(|i| i["label"].as_str().unwrap()).collect();
    assert_eq!(labels, ["offen", "offset"]);
    // A property, inserted with its colon when it takes a value.
    assert_eq!(items[1]["kind"], 10);
    assert_eq!(items[1]["textEdit"]["newText"], "offset:");
    assert!(items[1]["documentation"]["value"]
        .as_str()
        .unwrap()
        .contains("byte offset"));
}

#[tokio::test]
async fn signature_help_for_instructions_and_macros() {
    let mut client = TestClient::default().await;
    client.open(FEATURES).await;
    let s = client
        .request("textDocument/signatureHelp", position(11, 26))
        .await;
    assert_eq!(s["signatures"][0]["label"], "v_mul_lo_u32 VDST, SRC0, SRC1");
    assert_eq!(s["activeParameter"], 1);
    assert_eq!(
        s["signatures"][0]["parameters"][1]["label"],
        json!([19, 23])
    );
    let s = client
        .request("textDocument/signatureHelp", position(12, 18))
        .await;
    assert_eq!(s["signatures"][0]["label"], "bump reg, n=1");
    assert_eq!(s["activeParameter"], 1);
}

#[tokio::test]
async fn semantic_tokens_full_and_range() {
    let mut client = TestClient::default().await;
    client.open(FEATURES).await;
    let full = client
        .request(
            "textDocument/semanticTokens/full",
            json!({ "textDocument": { "uri": URI } }),
        )
        .await;
    let data: Vec<u64> = full["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap())
        .collect();
    assert_eq!(data.len() % 5, 0);
    // The first token: `.gallium`, a pseudo-op (type 1), on line 0.
    assert_eq!(&data[..5], &[0, 0, 8, 1, 0]);
    // Line 10 starts with the label `k` (type 3) then the instruction (type 0).
    let mut line = 0;
    let mut on_line_10 = Vec::new();
    for t in data.chunks(5) {
        line += t[0];
        if line == 10 {
            on_line_10.push(t[3]);
        }
    }
    assert_eq!(&on_line_10[..2], &[3, 0]);
    let range = json!({ "textDocument": { "uri": URI }, "range": { "start": { "line": 10, "character": 0 }, "end": { "line": 11, "character": 0 } } });
    let part = client
        .request("textDocument/semanticTokens/range", range)
        .await;
    let part: Vec<u64> = part["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap())
        .collect();
    assert_eq!(part.len() / 5, on_line_10.len());
    assert_eq!(&part[..5], &[10, 0, 1, 3, 0]);
}

fn ints(v: &Value) -> Vec<u64> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap())
        .collect()
}

/// `edits` of a `semanticTokens/full/delta` answer applied to `data`, as a client does
/// (each edit's `start` is in the array before any edit is applied).
fn apply_edits(data: &[u64], edits: &Value) -> Vec<u64> {
    let mut out = data.to_vec();
    let mut edits = edits.as_array().unwrap().clone();
    edits.sort_by_key(|e| std::cmp::Reverse(e["start"].as_u64().unwrap()));
    for edit in edits {
        let start = edit["start"].as_u64().unwrap() as usize;
        let delete = edit["deleteCount"].as_u64().unwrap() as usize;
        let inserted = if edit["data"].is_null() {
            Vec::new()
        } else {
            ints(&edit["data"])
        };
        out.splice(start..start + delete, inserted);
    }
    out
}

impl TestClient {
    /// `semanticTokens/full`: `(resultId, data)`.
    async fn tokens_full(&mut self) -> (Value, Vec<u64>) {
        let full = self
            .request(
                "textDocument/semanticTokens/full",
                json!({ "textDocument": { "uri": URI } }),
            )
            .await;
        (full["resultId"].clone(), ints(&full["data"]))
    }

    /// `semanticTokens/full/delta` against `previous`: the answer.
    async fn tokens_delta(&mut self, previous: &Value) -> Value {
        self.request(
            "textDocument/semanticTokens/full/delta",
            json!({ "textDocument": { "uri": URI }, "previousResultId": previous }),
        )
        .await
    }
}

/// After edits, a delta against the last result, applied to that result, gives exactly
/// the tokens a full request gives; an unknown `resultId` gets the full tokens.
#[tokio::test(start_paused = true)]
async fn semantic_tokens_delta_applied_gives_the_full_tokens() {
    let mut client = TestClient::default().await;
    client.open(FEATURES).await;
    let (mut id, mut data) = client.tokens_full().await;
    assert!(id.is_string(), "a resultId: {id}");
    let edits: &[Change<'_>] = &[
        ((11, 8), (11, 8), "s_nop 0\n        "),    // a line inserted
        ((11, 8), (12, 8), ""),                     // and deleted again
        ((0, 0), (0, 0), "# top\n"),                // before every token
        ((17, 8), (17, 16), "s_endpgm\nx = 1 + 2"), // at the end
        ((13, 8), (13, 17), ""),                    // a macro call removed
        ((5, 0), (9, 0), ""),                       // several lines, tokens of several kinds
    ];
    for (n, &change) in edits.iter().enumerate() {
        client.change(n as i32 + 2, &[change]).await;
        let delta = client.tokens_delta(&id).await;
        let edits = &delta["edits"];
        assert!(edits.is_array(), "a delta after edit {n}: {delta}");
        assert!(edits.as_array().unwrap().len() <= 1, "{delta}");
        let applied = apply_edits(&data, edits);
        let delta_id = delta["resultId"].clone();
        assert!(
            delta_id.is_string() && delta_id != id,
            "a new resultId: {delta}"
        );
        // The delta's own result is kept: an unchanged text then needs no edit.
        let again = client.tokens_delta(&delta_id).await;
        assert_eq!(again["edits"], json!([]), "{again}");
        (id, data) = client.tokens_full().await;
        assert_eq!(applied, data, "edit {n}");
    }
    // An id the server does not know (or no longer keeps): the whole tokens.
    let answer = client.tokens_delta(&json!("no such id")).await;
    assert_eq!(ints(&answer["data"]), data);
    assert!(answer["resultId"].is_string());
}

/// Random edits of random pieces: each delta applied to the tokens before it gives the
/// tokens after it (a small deterministic generator, so a failure is reproduced).
#[tokio::test(start_paused = true)]
async fn semantic_tokens_delta_over_random_edits() {
    const PIECES: &[&str] = &[
        "\n",
        " ",
        "s_nop 0\n",
        "v_add_f32 v1, v2, v3\n",
        "x = 1 + 2\n",
        "lbl:",
        "# c\n",
        "/* a\nb */",
        ".int 1, 2\n",
        "s[4:5]",
        ".macro m\n",
        ".endm\n",
        "\"s\"",
        "v",
        "1",
        ",",
        "é",
    ];
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut random = move |n: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % n as u64) as usize
    };
    let mut text = FEATURES.to_string();
    let mut client = TestClient::default().await;
    client.open(&text).await;
    let (mut id, mut data) = client.tokens_full().await;
    for version in 2..40 {
        // A range of whole characters of the current text, replaced by a piece or nothing.
        let chars: Vec<(usize, char)> = text.char_indices().collect();
        let a = random(chars.len() + 1);
        let b = (a + random(12)).min(chars.len());
        let byte = |i: usize| chars.get(i).map_or(text.len(), |c| c.0);
        let insert = if random(4) == 0 {
            ""
        } else {
            PIECES[random(PIECES.len())]
        };
        let pos = |offset: usize| {
            let before = &text[..offset];
            let line = before.matches('\n').count() as u32;
            let column = before.rsplit('\n').next().unwrap().encode_utf16().count() as u32;
            (line, column)
        };
        let (start, end) = (pos(byte(a)), pos(byte(b)));
        client.change(version, &[(start, end, insert)]).await;
        text.replace_range(byte(a)..byte(b), insert);
        let delta = client.tokens_delta(&id).await;
        let applied = apply_edits(&data, &delta["edits"]);
        let (full_id, full) = client.tokens_full().await;
        assert_eq!(applied, full, "version {version}, text {text:?}");
        (id, data) = (full_id, full);
    }
    client.assert_text(&text).await;
}

/// Semantic tokens are made off the message loop: a request on another document is
/// answered while the tokens of a long one are still being made, and an edit makes
/// the stale request give up (`ContentModified`) or answer, never block.
#[tokio::test]
async fn semantic_tokens_do_not_hold_back_other_requests() {
    let mut client = TestClient::default().await;
    let long = "        v_add_f32 v1, s[2:3], 1.5 # a comment\n".repeat(40_000);
    client.open(&long).await;
    client
        .open_file("file:///test/small.s", "s_nop 0\n.macro m\n.endm\n")
        .await;
    let tokens_id = client.next_id;
    client.next_id += 1;
    client
        .send(json!({ "jsonrpc": "2.0", "id": tokens_id, "method": "textDocument/semanticTokens/full", "params": { "textDocument": { "uri": URI } } }))
        .await;
    let folds = client
        .request_raw(
            "textDocument/foldingRange",
            json!({ "textDocument": { "uri": "file:///test/small.s" } }),
        )
        .await;
    assert!(folds["result"].is_array(), "{folds}");
    let tokens_answered_first = client.queue.iter().any(|m| m["id"] == tokens_id);
    assert!(
        !tokens_answered_first,
        "the folding ranges waited for the tokens"
    );
    // An edit while they are made: they give up, or come for the old text.
    client.change(2, &[((0, 0), (0, 0), "y = 2\n")]).await;
    let tokens = loop {
        if let Some(i) = client
            .queue
            .iter()
            .position(|m| m["id"] == tokens_id && m.get("method").is_none())
        {
            break client.queue.remove(i).unwrap();
        }
        let m = client
            .receive(PATIENCE)
            .await
            .expect("an answer to the tokens");
        client.queue.push_back(m);
    };
    match tokens.get("error") {
        Some(error) => assert_eq!(error["code"], -32801, "{tokens}"),
        None => assert!(!ints(&tokens["result"]["data"]).is_empty(), "{tokens}"),
    }
}

#[tokio::test]
async fn folding_and_selection_ranges() {
    let mut client = TestClient::default().await;
    client.open(FEATURES).await;
    let folds = client
        .request(
            "textDocument/foldingRange",
            json!({ "textDocument": { "uri": URI } }),
        )
        .await;
    let lines: Vec<(u64, u64)> = folds
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                f["startLine"].as_u64().unwrap(),
                f["endLine"].as_u64().unwrap(),
            )
        })
        .collect();
    // The macro, the configuration, the conditional.
    assert_eq!(lines, [(2, 4), (6, 8), (13, 15)]);
    let params =
        json!({ "textDocument": { "uri": URI }, "positions": [{ "line": 10, "character": 25 }] });
    let sel = client.request("textDocument/selectionRange", params).await;
    let mut ranges = Vec::new();
    let mut cur = &sel[0];
    while !cur.is_null() {
        let r = &cur["range"];
        ranges.push(format!(
            "{}:{}-{}:{}",
            r["start"]["line"], r["start"]["character"], r["end"]["line"], r["end"]["character"]
        ));
        cur = &cur["parent"];
    }
    expect![[
        r#"["10:25-10:26", "10:24-10:29", "10:23-10:29", "10:23-10:42", "10:8-10:42", "0:0-17:0"]"#
    ]]
    .assert_eq(&format!("{ranges:?}"));
}

#[tokio::test]
async fn completion_items_resolve_to_their_documentation() {
    let mut client = TestClient::default().await;
    client
        .open(&FEATURES.replace("        s_endpgm\n", "        s_endp\n"))
        .await;
    let c = client
        .request("textDocument/completion", position(16, 14))
        .await;
    let item = c["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["label"] == "s_endpgm")
        .expect("s_endpgm")
        .clone();
    assert!(item["documentation"].is_null());
    let resolved = client.request("completionItem/resolve", item).await;
    assert_eq!(
        resolved["documentation"]["value"],
        "Ends the wave's program."
    );
    // With nothing typed, items insert without a range.
    let c = client
        .request("textDocument/completion", position(12, 8))
        .await;
    let bump = c["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["label"] == "bump")
        .expect("bump offered");
    assert_eq!(bump["insertText"], "bump ${1:reg}, ${2:n}");
    // A pseudo-op resolves to its own documentation (told from an instruction by its dot).
    let int = c["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["label"] == ".int")
        .expect(".int offered")
        .clone();
    let resolved = client.request("completionItem/resolve", int).await;
    assert!(
        resolved["documentation"]["value"]
            .as_str()
            .unwrap()
            .contains("4-byte"),
        "{resolved}"
    );
}

const NAV_INCLUDE_URI: &str = "file:///test/inc/defs.s";
const NAV_INCLUDE: &str = "\
count = 4
acc = %v3
.macro bump reg
        v_add_u32 \\reg, vcc, 1, \\reg
.endm
";
const NAV: &str = "\
.gallium
.gpu Tonga
.include \"inc/defs.s\"
.kernel scale
    .config
        .dims xyz
.text
scale:
        v_mov_b32 acc, count
        bump acc
        v_mov_b32 v1, v2
1:      s_cbranch_scc0 1b
        s_branch scale
        s_endpgm
";

/// `NAME line:col-line:col` per location (`NAME`: the file's name).
fn render_locations(locations: &Value) -> String {
    let Some(locations) = locations.as_array() else {
        return locations.to_string();
    };
    let mut out: Vec<String> = locations
        .iter()
        .map(|l| {
            let r = &l["range"];
            let uri = l["uri"].as_str().unwrap();
            format!(
                "{} {}:{}-{}:{}",
                uri.rsplit('/').next().unwrap(),
                r["start"]["line"],
                r["start"]["character"],
                r["end"]["line"],
                r["end"]["character"]
            )
        })
        .collect();
    out.sort();
    out.join("\n")
}

fn at(line: u32, character: u32) -> Value {
    json!({ "textDocument": { "uri": URI }, "position": { "line": line, "character": character } })
}

#[tokio::test]
async fn navigation_across_an_included_open_document() {
    let mut client = TestClient::default().await;
    client.open_file(NAV_INCLUDE_URI, NAV_INCLUDE).await;
    client.open(NAV).await;
    assert_eq!(client.diagnostics().await.1, Vec::<Value>::new());
    let caps = &client.initialize_result["capabilities"];
    for cap in [
        "definitionProvider",
        "declarationProvider",
        "referencesProvider",
        "documentHighlightProvider",
        "workspaceSymbolProvider",
    ] {
        assert_eq!(caps[cap], true, "{cap}");
    }
    assert_eq!(caps["renameProvider"]["prepareProvider"], true);

    // The kernel's name: its `.kernel` and its label.
    let found = client.request("textDocument/definition", at(12, 18)).await;
    assert_eq!(
        render_locations(&found),
        "kernel.s 3:8-3:13\nkernel.s 7:0-7:5"
    );
    let found = client.request("textDocument/declaration", at(3, 9)).await;
    assert_eq!(
        render_locations(&found),
        "kernel.s 3:8-3:13\nkernel.s 7:0-7:5"
    );
    // A register symbol in an operand, a symbol and a macro of the included file.
    let found = client.request("textDocument/definition", at(8, 19)).await;
    assert_eq!(render_locations(&found), "defs.s 1:0-1:3");
    let found = client.request("textDocument/definition", at(8, 24)).await;
    assert_eq!(render_locations(&found), "defs.s 0:0-0:5");
    let found = client.request("textDocument/definition", at(9, 9)).await;
    assert_eq!(render_locations(&found), "defs.s 2:7-2:11");
    // `1b` to its `1:`.
    let found = client.request("textDocument/definition", at(11, 23)).await;
    assert_eq!(render_locations(&found), "kernel.s 11:0-11:1");
    // The include's path opens the file.
    let found = client.request("textDocument/definition", at(2, 12)).await;
    assert_eq!(render_locations(&found), "defs.s 0:0-0:0");
    let links = client
        .request(
            "textDocument/documentLink",
            json!({ "textDocument": { "uri": URI } }),
        )
        .await;
    assert_eq!(links[0]["target"], NAV_INCLUDE_URI);
    assert_eq!(
        links[0]["range"],
        json!({ "start": { "line": 2, "character": 10 }, "end": { "line": 2, "character": 20 } })
    );

    let mut params = at(8, 19);
    params["context"] = json!({ "includeDeclaration": true });
    let found = client
        .request("textDocument/references", params.clone())
        .await;
    assert_eq!(
        render_locations(&found),
        "defs.s 1:0-1:3\nkernel.s 8:18-8:21\nkernel.s 9:13-9:16"
    );
    // Without the definition; `bump acc` passes it to the macro: found where it is written.
    params["context"] = json!({ "includeDeclaration": false });
    let found = client.request("textDocument/references", params).await;
    assert_eq!(
        render_locations(&found),
        "kernel.s 8:18-8:21\nkernel.s 9:13-9:16"
    );

    let found = client
        .request("textDocument/documentHighlight", at(7, 1))
        .await;
    let kinds: Vec<String> = found
        .as_array()
        .unwrap()
        .iter()
        .map(|h| format!("{}@{}", h["kind"], h["range"]["start"]["line"]))
        .collect();
    assert_eq!(
        kinds,
        ["3@3", "3@7", "2@12"],
        "write for definitions, read for uses"
    );
    // On a register operand: the kernel's operands that name it (`v1` is written).
    let found = client
        .request("textDocument/documentHighlight", at(10, 19))
        .await;
    assert_eq!(
        found,
        json!([{ "range": { "start": { "line": 10, "character": 18 }, "end": { "line": 10, "character": 20 } }, "kind": 3 }])
    );

    let prepared = client.request("textDocument/prepareRename", at(9, 9)).await;
    assert_eq!(prepared["placeholder"], "bump");
    let mut params = at(9, 9);
    params["newName"] = json!("incr");
    let edit = client.request("textDocument/rename", params).await;
    let changes = edit["changes"].as_object().unwrap();
    assert_eq!(
        changes[URI],
        json!([{ "range": { "start": { "line": 9, "character": 8 }, "end": { "line": 9, "character": 12 } }, "newText": "incr" }])
    );
    assert_eq!(
        changes[NAV_INCLUDE_URI][0]["range"]["start"],
        json!({ "line": 2, "character": 7 })
    );

    // Refusals are errors that say why.
    let refused = client
        .request_raw("textDocument/prepareRename", at(8, 10))
        .await;
    assert!(
        refused["error"]["message"]
            .as_str()
            .unwrap()
            .contains("instruction name"),
        "{refused}"
    );
    let refused = client
        .request_raw("textDocument/prepareRename", at(1, 1))
        .await;
    assert!(
        refused["error"]["message"]
            .as_str()
            .unwrap()
            .contains("pseudo-op"),
        "{refused}"
    );
    let refused = client
        .request_raw("textDocument/prepareRename", at(10, 23))
        .await;
    assert!(
        refused["error"]["message"]
            .as_str()
            .unwrap()
            .contains("is a register"),
        "{refused}"
    );
    let mut params = at(7, 1);
    params["newName"] = json!("not a name");
    let refused = client.request_raw("textDocument/rename", params).await;
    assert!(
        refused["error"]["message"]
            .as_str()
            .unwrap()
            .contains("not a valid symbol name"),
        "{refused}"
    );
    let mut params = at(11, 0);
    params["newName"] = json!("two");
    let refused = client.request_raw("textDocument/rename", params).await;
    assert!(
        refused["error"]["message"]
            .as_str()
            .unwrap()
            .contains("not a number"),
        "{refused}"
    );

    // Hover knows what the assembler resolved: a register symbol of the include.
    let h = client.request("textDocument/hover", at(8, 19)).await;
    let text = h["contents"]["value"].as_str().unwrap();
    assert!(
        text.contains("register symbol") && text.contains("defs.s:2"),
        "{text}"
    );
    // A register operand: the counts of its kernel.
    let h = client.request("textDocument/hover", at(10, 23)).await;
    let text = h["contents"]["value"].as_str().unwrap();
    assert!(text.contains("Kernel `scale`: SGPR"), "{text}");

    let found = client
        .request("workspace/symbol", json!({ "query": "sca" }))
        .await;
    let names: Vec<String> = found
        .as_array()
        .unwrap()
        .iter()
        .map(|s| format!("{} {}", s["kind"], s["name"].as_str().unwrap()))
        .collect();
    assert!(
        names.contains(&"2 scale".to_string()) && names.contains(&"20 scale".to_string()),
        "{names:?}"
    );
}

#[tokio::test]
async fn workspace_symbols_search_the_folder_on_disk() {
    let dir = std::env::temp_dir().join(format!("gcn-lsp-ws-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("sub")).unwrap();
    std::fs::write(
        dir.join("sub/other.s"),
        ".kernel blur\nblur_main:\n    s_endpgm\n.macro blend a\n.endm\n",
    )
    .unwrap();
    let mut client =
        TestClient::start_with_root(Duration::from_millis(20), json!({}), json!(url_of(&dir)))
            .await;
    let found = client
        .request("workspace/symbol", json!({ "query": "bl" }))
        .await;
    let mut names: Vec<String> = found
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            format!(
                "{} {} {}",
                s["name"].as_str().unwrap(),
                s["location"]["uri"]
                    .as_str()
                    .unwrap()
                    .rsplit('/')
                    .next()
                    .unwrap(),
                s["location"]["range"]["start"]["line"]
            )
        })
        .collect();
    names.sort();
    assert_eq!(
        names,
        ["blend other.s 3", "blur other.s 0", "blur_main other.s 1"]
    );
    std::fs::remove_dir_all(&dir).ok();
}

fn url_of(path: &std::path::Path) -> String {
    format!("file://{}", path.display())
}

#[tokio::test]
async fn a_misspelled_mnemonic_gets_a_quick_fix_that_edits_it() {
    let mut client = TestClient::default().await;
    assert_eq!(
        client.initialize_result["capabilities"]["codeActionProvider"]["codeActionKinds"],
        json!(["quickfix"])
    );
    client
        .open(&FEATURES.replace("v_mul_lo_u32", "v_mul_lo_u23"))
        .await;
    let (_, published) = client.diagnostics().await;
    let at = |line: u32, character: u32, only: Option<&str>| {
        let mut context = json!({ "diagnostics": published });
        if let Some(kind) = only {
            context["only"] = json!([kind]);
        }
        json!({
            "textDocument": { "uri": URI },
            "range": { "start": { "line": line, "character": character }, "end": { "line": line, "character": character } },
            "context": context,
        })
    };
    let actions = client
        .request("textDocument/codeAction", at(11, 12, None))
        .await;
    let fix = &actions[0];
    assert_eq!(fix["title"], "Change to `v_mul_lo_u32`", "{actions}");
    assert_eq!(fix["kind"], "quickfix");
    assert_eq!(fix["isPreferred"], true);
    assert!(fix["diagnostics"][0]["message"]
        .as_str()
        .unwrap()
        .contains("did you mean `v_mul_lo_u32`?"));
    let range =
        json!({ "start": { "line": 11, "character": 8 }, "end": { "line": 11, "character": 20 } });
    assert_eq!(
        fix["edit"]["changes"][URI],
        json!([{ "range": range, "newText": "v_mul_lo_u32" }])
    );
    // Elsewhere, or when only refactorings are asked for, there is none.
    let none = client
        .request("textDocument/codeAction", at(12, 10, None))
        .await;
    assert_eq!(none, json!([]));
    let none = client
        .request("textDocument/codeAction", at(11, 12, Some("refactor")))
        .await;
    assert_eq!(none, json!([]));
}

#[tokio::test]
async fn a_needless_wait_is_a_hint_tagged_unnecessary_with_a_fix_that_removes_it() {
    let mut client = TestClient::default().await;
    client
        .open(".rawcode\n.gpu Tonga\n    s_waitcnt lgkmcnt(0)\n    s_endpgm\n")
        .await;
    let (_, published) = client.diagnostics().await;
    assert_eq!(published.len(), 1, "{published:?}");
    let hint = &published[0];
    assert_eq!(hint["code"], "needless-waitcnt");
    assert_eq!(hint["severity"], 4);
    assert_eq!(hint["tags"], json!([1]));
    let actions = client
        .request(
            "textDocument/codeAction",
            json!({
                "textDocument": { "uri": URI },
                "range": { "start": { "line": 2, "character": 6 }, "end": { "line": 2, "character": 6 } },
                "context": { "diagnostics": published },
            }),
        )
        .await;
    let range =
        json!({ "start": { "line": 2, "character": 0 }, "end": { "line": 3, "character": 0 } });
    assert_eq!(actions[0]["title"], "Remove this wait", "{actions}");
    assert_eq!(
        actions[0]["edit"]["changes"][URI],
        json!([{ "range": range, "newText": "" }])
    );
}

#[tokio::test]
async fn a_branch_not_assembled_is_a_hint_tagged_unnecessary() {
    let mut client = TestClient::default().await;
    client
        .open(".rawcode\n.gpu Tonga\n.ifarch GCN1.4\n    v_nop\n.else\n    s_nop 0\n.endif\n")
        .await;
    let (_, published) = client.diagnostics().await;
    assert_eq!(published.len(), 1, "{published:?}");
    let hint = &published[0];
    assert_eq!(hint["code"], "inactive-branch");
    assert_eq!(hint["severity"], 4);
    assert_eq!(hint["tags"], json!([1]));
    assert_eq!(
        hint["range"],
        json!({ "start": { "line": 3, "character": 0 }, "end": { "line": 4, "character": 0 } })
    );
    assert_eq!(
        hint["message"],
        "not assembled: the condition of `.ifarch GCN1.4` is false"
    );
}
