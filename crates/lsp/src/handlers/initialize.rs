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
    if let Some(options) = &params.initialization_options {
        match super::configuration::parse(options) {
            Ok(Some(settings)) => *state.settings.lock().unwrap() = settings,
            Ok(None) => {}
            // No message can go to the client before `initialized`: the log has it.
            Err(message) => eprintln!("{message}"),
        }
    }
    let refresh = params
        .capabilities
        .workspace
        .as_ref()
        .and_then(|w| w.inlay_hint.as_ref())
        .and_then(|h| h.refresh_support)
        .unwrap_or(false);
    state
        .inlay_refresh
        .store(refresh, std::sync::atomic::Ordering::Relaxed);
    let watch = super::watched_files::client_can_register(&params.capabilities);
    state
        .watch_files
        .store(watch, std::sync::atomic::Ordering::Relaxed);
    #[allow(deprecated)] // `root_uri` is what older clients send instead of folders.
    let folders: Vec<std::path::PathBuf> = match &params.workspace_folders {
        Some(folders) => folders
            .iter()
            .filter_map(|f| f.uri.to_file_path().ok())
            .collect(),
        None => params
            .root_uri
            .iter()
            .filter_map(|u| u.to_file_path().ok())
            .collect(),
    };
    *state.workspace_folders.lock().unwrap() = folders;
    InitializeResult {
        capabilities: ServerCapabilities {
            position_encoding: Some(convert::encoding_kind(encoding)),
            text_document_sync: Some(TextDocumentSyncCapability::Options(
                TextDocumentSyncOptions {
                    open_close: Some(true),
                    change: Some(TextDocumentSyncKind::INCREMENTAL),
                    save: Some(TextDocumentSyncSaveOptions::SaveOptions(SaveOptions {
                        include_text: Some(false),
                    })),
                    ..Default::default()
                },
            )),
            document_symbol_provider: Some(OneOf::Left(true)),
            hover_provider: Some(HoverProviderCapability::Simple(true)),
            completion_provider: Some(CompletionOptions {
                // `.` starts a pseudo-op, `\` a parameter in a macro body.
                trigger_characters: Some(vec![".".to_string(), "\\".to_string()]),
                resolve_provider: Some(true),
                ..Default::default()
            }),
            signature_help_provider: Some(SignatureHelpOptions {
                trigger_characters: Some(vec![" ".to_string(), ",".to_string()]),
                retrigger_characters: None,
                work_done_progress_options: Default::default(),
            }),
            semantic_tokens_provider: Some(
                SemanticTokensServerCapabilities::SemanticTokensOptions(SemanticTokensOptions {
                    legend: convert::semantic_tokens_legend(),
                    full: Some(SemanticTokensFullOptions::Delta { delta: Some(true) }),
                    range: Some(true),
                    ..Default::default()
                }),
            ),
            folding_range_provider: Some(FoldingRangeProviderCapability::Simple(true)),
            selection_range_provider: Some(SelectionRangeProviderCapability::Simple(true)),
            document_link_provider: Some(DocumentLinkOptions {
                resolve_provider: Some(false),
                work_done_progress_options: Default::default(),
            }),
            inlay_hint_provider: Some(OneOf::Left(true)),
            code_action_provider: Some(CodeActionProviderCapability::Options(CodeActionOptions {
                code_action_kinds: Some(vec![CodeActionKind::QUICKFIX]),
                ..Default::default()
            })),
            definition_provider: Some(OneOf::Left(true)),
            declaration_provider: Some(DeclarationCapability::Simple(true)),
            references_provider: Some(OneOf::Left(true)),
            document_highlight_provider: Some(OneOf::Left(true)),
            rename_provider: Some(OneOf::Right(RenameOptions {
                prepare_provider: Some(true),
                work_done_progress_options: Default::default(),
            })),
            workspace_symbol_provider: Some(OneOf::Left(true)),
            execute_command_provider: Some(ExecuteCommandOptions {
                commands: vec![super::on_save::ASSEMBLE.to_string()],
                ..Default::default()
            }),
            ..Default::default()
        },
        server_info: Some(ServerInfo {
            name: "gcn-lsp".to_string(),
            version: Some(env!("CARGO_PKG_VERSION").to_string()),
        }),
    }
}
