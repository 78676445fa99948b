//! Protocol tests: the server runs in-process over an in-memory duplex stream, framed and
//! encoded exactly as over stdio, and a small client drives it with JSON-RPC messages.

use std::collections::VecDeque;
use std::time::Duration;

use expect_test::expect;
use serde_json::{json, Value};
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader, WriteHalf};
use tokio::sync::mpsc;

const URI: &str = "file:///test/kernel.s";
/// Long enough for any message to go through on a loaded machine, so that a wait that
/// times out really means "nothing was sent".
const PATIENCE: Duration = Duration::from_secs(10);

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
    async fn start_with_root(debounce: Duration, capabilities: Value, root_uri: Value) -> TestClient {
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

    /// A request's whole answer (`result` or `error`).
    async fn request_raw(&mut self, method: &str, params: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        self.send(json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params }))
            .await;
        loop {
            let message = self.receive(PATIENCE).await.unwrap_or_else(|| panic!("no answer to {method}"));
            if message.get("method").is_none() && message["id"] == id {
                return message;
            }
            self.queue.push_back(message);
        }
    }

    async fn open_at(&mut self, uri: &str, text: &str) {
        let doc = json!({ "uri": uri, "languageId": "clrx", "version": 1, "text": text });
        self.notify("textDocument/didOpen", json!({ "textDocument": doc })).await;
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
    .text
second: s_endpgm
";

#[tokio::test]
async fn initialize_advertises_incremental_sync_and_utf16_by_default() {
    let client = TestClient::default().await;
    let capabilities = &client.initialize_result["capabilities"];
    assert_eq!(capabilities["positionEncoding"], "utf-16");
    assert_eq!(capabilities["textDocumentSync"]["change"], 2);
    assert_eq!(capabilities["textDocumentSync"]["openClose"], true);
    assert_eq!(capabilities["documentSymbolProvider"], true);
}

#[tokio::test]
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

#[tokio::test]
async fn valid_file_has_no_diagnostics() {
    let mut client = TestClient::default().await;
    client.open(VALID).await;
    let (version, diagnostics) = client.diagnostics().await;
    assert_eq!(version, 1);
    assert_eq!(diagnostics, Vec::<Value>::new());
}

#[tokio::test]
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

#[tokio::test]
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
          20 second 13:0-13:6
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
const UNICODE: &str = "# größe 😀\n/* ä😀 */ lbl: s_endpgm # ü\n";

#[tokio::test]
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
        2:6-2:8 1 expected an expression
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

#[tokio::test]
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

#[tokio::test]
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

#[tokio::test]
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

#[tokio::test]
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

#[tokio::test]
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

#[tokio::test]
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
        .dims x
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
    let Some(locations) = locations.as_array() else { return locations.to_string() };
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
    client.open_at(NAV_INCLUDE_URI, NAV_INCLUDE).await;
    client.open(NAV).await;
    assert_eq!(client.diagnostics().await.1, Vec::<Value>::new());
    let caps = &client.initialize_result["capabilities"];
    for cap in ["definitionProvider", "declarationProvider", "referencesProvider", "documentHighlightProvider", "workspaceSymbolProvider"] {
        assert_eq!(caps[cap], true, "{cap}");
    }
    assert_eq!(caps["renameProvider"]["prepareProvider"], true);

    // The kernel's name: its `.kernel` and its label.
    let found = client.request("textDocument/definition", at(12, 18)).await;
    assert_eq!(render_locations(&found), "kernel.s 3:8-3:13\nkernel.s 7:0-7:5");
    let found = client.request("textDocument/declaration", at(3, 9)).await;
    assert_eq!(render_locations(&found), "kernel.s 3:8-3:13\nkernel.s 7:0-7:5");
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
    let links = client.request("textDocument/documentLink", json!({ "textDocument": { "uri": URI } })).await;
    assert_eq!(links[0]["target"], NAV_INCLUDE_URI);
    assert_eq!(links[0]["range"], json!({ "start": { "line": 2, "character": 10 }, "end": { "line": 2, "character": 20 } }));

    let mut params = at(8, 19);
    params["context"] = json!({ "includeDeclaration": true });
    let found = client.request("textDocument/references", params.clone()).await;
    assert_eq!(render_locations(&found), "defs.s 1:0-1:3\nkernel.s 8:18-8:21");
    params["context"] = json!({ "includeDeclaration": false });
    let found = client.request("textDocument/references", params).await;
    assert_eq!(render_locations(&found), "kernel.s 8:18-8:21");

    let found = client.request("textDocument/documentHighlight", at(7, 1)).await;
    let kinds: Vec<String> = found.as_array().unwrap().iter().map(|h| format!("{}@{}", h["kind"], h["range"]["start"]["line"])).collect();
    assert_eq!(kinds, ["3@3", "3@7", "2@12"], "write for definitions, read for uses");

    let prepared = client.request("textDocument/prepareRename", at(9, 9)).await;
    assert_eq!(prepared["placeholder"], "bump");
    let mut params = at(9, 9);
    params["newName"] = json!("incr");
    let edit = client.request("textDocument/rename", params).await;
    let changes = edit["changes"].as_object().unwrap();
    assert_eq!(changes[URI], json!([{ "range": { "start": { "line": 9, "character": 8 }, "end": { "line": 9, "character": 12 } }, "newText": "incr" }]));
    assert_eq!(changes[NAV_INCLUDE_URI][0]["range"]["start"], json!({ "line": 2, "character": 7 }));

    // Refusals are errors that say why.
    let refused = client.request_raw("textDocument/prepareRename", at(8, 10)).await;
    assert!(refused["error"]["message"].as_str().unwrap().contains("instruction name"), "{refused}");
    let refused = client.request_raw("textDocument/prepareRename", at(1, 1)).await;
    assert!(refused["error"]["message"].as_str().unwrap().contains("pseudo-op"), "{refused}");
    let refused = client.request_raw("textDocument/prepareRename", at(10, 23)).await;
    assert!(refused["error"]["message"].as_str().unwrap().contains("is a register"), "{refused}");
    let mut params = at(7, 1);
    params["newName"] = json!("not a name");
    let refused = client.request_raw("textDocument/rename", params).await;
    assert!(refused["error"]["message"].as_str().unwrap().contains("not a valid symbol name"), "{refused}");
    let mut params = at(11, 0);
    params["newName"] = json!("two");
    let refused = client.request_raw("textDocument/rename", params).await;
    assert!(refused["error"]["message"].as_str().unwrap().contains("not a number"), "{refused}");

    let found = client.request("workspace/symbol", json!({ "query": "sca" })).await;
    let names: Vec<String> = found.as_array().unwrap().iter().map(|s| format!("{} {}", s["kind"], s["name"].as_str().unwrap())).collect();
    assert!(names.contains(&"2 scale".to_string()) && names.contains(&"20 scale".to_string()), "{names:?}");
}

#[tokio::test]
async fn workspace_symbols_search_the_folder_on_disk() {
    let dir = std::env::temp_dir().join(format!("gcn-lsp-ws-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("sub")).unwrap();
    std::fs::write(dir.join("sub/other.s"), ".kernel blur\nblur_main:\n    s_endpgm\n.macro blend a\n.endm\n").unwrap();
    let mut client = TestClient::start_with_root(Duration::from_millis(20), json!({}), json!(url_of(&dir))).await;
    let found = client.request("workspace/symbol", json!({ "query": "bl" })).await;
    let mut names: Vec<String> = found
        .as_array()
        .unwrap()
        .iter()
        .map(|s| format!("{} {} {}", s["name"].as_str().unwrap(), s["location"]["uri"].as_str().unwrap().rsplit('/').next().unwrap(), s["location"]["range"]["start"]["line"]))
        .collect();
    names.sort();
    assert_eq!(names, ["blend other.s 3", "blur other.s 0", "blur_main other.s 1"]);
    std::fs::remove_dir_all(&dir).ok();
}

fn url_of(path: &std::path::Path) -> String {
    format!("file://{}", path.display())
}
