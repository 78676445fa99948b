//! `gcn/registerUsage`: the registers and occupancy of each kernel of a document, for
//! its current version (`gcn_ide::reg_usage`), and the same as inlay hints at each
//! kernel's label (`textDocument/inlayHint`).

use serde_json::{json, Value};
use tower_lsp::jsonrpc::Result;
use tower_lsp::lsp_types as lsp;

use crate::convert;
use crate::handlers::diagnostics;
use crate::server::Server;

pub const METHOD: &str = "gcn/registerUsage";

/// `{"textDocument": {"uri"}}` → `{"version", "kernels": [{"name", "range", "sgprs",
/// "vgprs", "extra_sgprs", "sgprsnum", "vgprsnum", "waves", "label"}]}`.
pub async fn register_usage(server: &Server, params: Value) -> Result<Value> {
    let (analysis, document) = diagnostics::requested_document(&server.state, &params).await?;
    let encoding = server.state.encoding();
    let kernels: Vec<Value> = analysis
        .kernels
        .iter()
        .map(|k| {
            json!({
                "name": k.name,
                "range": convert::range(&document.rope, k.range, encoding),
                "sgprs": k.sgprs,
                "vgprs": k.vgprs,
                "extra_sgprs": k.extra_sgprs,
                "sgprsnum": k.sgprsnum,
                "vgprsnum": k.vgprsnum,
                "waves": k.waves,
                "label": k.label(),
            })
        })
        .collect();
    Ok(json!({ "version": document.version, "kernels": kernels }))
}

/// Inlay hints: `SGPR 16 · VGPR 24 · 10 waves` after each kernel's label in `range`.
pub async fn inlay_hints(
    server: &Server,
    params: lsp::InlayHintParams,
) -> Result<Option<Vec<lsp::InlayHint>>> {
    let uri = params.text_document.uri;
    let Some(analysis) = diagnostics::current(&server.state, &uri).await else {
        return Ok(None);
    };
    let Some(document) = server.state.snapshot(&uri) else {
        return Ok(None);
    };
    let encoding = server.state.encoding();
    let hints = analysis
        .kernels
        .iter()
        .filter(|k| !k.range.is_empty())
        .map(|k| (k, convert::range(&document.rope, k.range, encoding)))
        .filter(|(_, r)| params.range.start.line <= r.end.line && r.end.line <= params.range.end.line)
        .map(|(k, r)| lsp::InlayHint {
            position: line_end(&document, r.end.line, encoding),
            label: lsp::InlayHintLabel::String(k.label()),
            kind: None,
            text_edits: None,
            tooltip: Some(lsp::InlayHintTooltip::String(format!(
                "kernel {}: {} SGPRs used + {} for VCC/FLAT_SCRATCH/XNACK_MASK, .sgprsnum {}; {} VGPRs used, .vgprsnum {}",
                k.name, k.sgprs, k.extra_sgprs, k.sgprsnum, k.vgprs, k.vgprsnum
            ))),
            padding_left: Some(true),
            padding_right: None,
            data: None,
        })
        .collect();
    Ok(Some(hints))
}

/// The end of line `line` (before its line break).
fn line_end(
    document: &crate::document::Document,
    line: u32,
    encoding: gcn_ide::PositionEncoding,
) -> lsp::Position {
    convert::position(
        &document.rope,
        convert::offset(&document.rope, lsp::Position::new(line, u32::MAX), encoding),
        encoding,
    )
}
