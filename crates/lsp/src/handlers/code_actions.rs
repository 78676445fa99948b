//! `textDocument/codeAction`: `gcn_ide::quick_fixes` of the diagnostics the document
//! shows at the range, as quick fixes that edit the document.

use std::collections::HashMap;
use std::sync::Arc;

use tower_lsp::lsp_types::*;

use crate::convert;
use crate::handlers::diagnostics;
use crate::server::State;

pub async fn code_actions(
    state: &Arc<State>,
    params: CodeActionParams,
) -> Option<CodeActionResponse> {
    let wanted = params.context.only.as_ref().is_none_or(|kinds| {
        kinds
            .iter()
            .any(|k| k == &CodeActionKind::QUICKFIX || k == &CodeActionKind::EMPTY)
    });
    if !wanted {
        return Some(Vec::new());
    }
    let uri = &params.text_document.uri;
    let analysis = diagnostics::current(state, uri).await?;
    let document = state.snapshot(uri)?;
    let shown = diagnostics::shown(state, uri, &document, analysis);
    let encoding = state.encoding();
    let range = convert::text_range(&document.rope, params.range, encoding);
    let actions = gcn_ide::quick_fixes(shown.diagnostics(), range)
        .into_iter()
        .map(|fix| {
            let edit = TextEdit {
                range: convert::range(&document.rope, fix.range, encoding),
                new_text: fix.replacement,
            };
            CodeActionOrCommand::CodeAction(CodeAction {
                title: fix.title,
                kind: Some(CodeActionKind::QUICKFIX),
                diagnostics: Some(vec![convert::diagnostic(
                    &document.rope,
                    &fix.diagnostic,
                    encoding,
                )]),
                edit: Some(WorkspaceEdit {
                    changes: Some(HashMap::from([(uri.clone(), vec![edit])])),
                    ..Default::default()
                }),
                is_preferred: Some(fix.preferred),
                ..Default::default()
            })
        })
        .collect();
    Some(actions)
}
