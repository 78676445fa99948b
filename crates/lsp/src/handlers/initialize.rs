//! `initialize`: position encoding negotiation and the server's capabilities.

use gcn_ide::PositionEncoding;
use tower_lsp::lsp_types::*;

use crate::convert;
use crate::server::State;

/// UTF-8 if the client offers it (columns are then plain byte counts), else the
/// protocol's mandatory UTF-16.
pub fn negotiate_encoding(capabilities: &ClientCapabilities) -> PositionEncoding {
    let offered = capabilities
        .general
        .as_ref()
        .and_then(|g| g.position_encodings.as_ref());
    if offered.is_some_and(|kinds| kinds.contains(&PositionEncodingKind::UTF8)) {
        PositionEncoding::Utf8
    } else {
        PositionEncoding::Utf16
    }
}

pub fn initialize(state: &State, params: InitializeParams) -> InitializeResult {
    let encoding = negotiate_encoding(&params.capabilities);
    state.set_encoding(encoding);
    InitializeResult {
        capabilities: ServerCapabilities {
            position_encoding: Some(convert::encoding_kind(encoding)),
            text_document_sync: Some(TextDocumentSyncCapability::Options(
                TextDocumentSyncOptions {
                    open_close: Some(true),
                    change: Some(TextDocumentSyncKind::INCREMENTAL),
                    ..Default::default()
                },
            )),
            document_symbol_provider: Some(OneOf::Left(true)),
            ..Default::default()
        },
        server_info: Some(ServerInfo {
            name: "gcn-lsp".to_string(),
            version: Some(env!("CARGO_PKG_VERSION").to_string()),
        }),
    }
}
