//! `gcn-lsp`: the CLRX GCN assembly language server, speaking LSP over stdio.

#[tokio::main]
async fn main() {
    if std::env::args()
        .skip(1)
        .any(|a| a == "--version" || a == "-V")
    {
        println!("gcn-lsp {}", env!("CARGO_PKG_VERSION"));
        return;
    }
    gcn_lsp::run_stdio(gcn_lsp::Config::default()).await;
}
