//! `gcn-lsp`: the CLRX GCN assembly language server, speaking LSP over stdio.

#[tokio::main]
async fn main() -> std::process::ExitCode {
    if std::env::args()
        .skip(1)
        .any(|a| a == "--version" || a == "-V")
    {
        println!("gcn-lsp {}", env!("CARGO_PKG_VERSION"));
        return std::process::ExitCode::SUCCESS;
    }
    // 0 after `shutdown` then `exit`, 1 for `exit` (or the end of the input) without it.
    let status = gcn_lsp::run_stdio(gcn_lsp::Config::default()).await;
    // At once: returning would wait for the runtime's blocking read of standard input,
    // which the client may keep open.
    std::process::exit(status)
}
