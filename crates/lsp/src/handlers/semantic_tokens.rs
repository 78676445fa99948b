//! `textDocument/semanticTokens/full`, `/full/delta` and `/range`, with the legend of
//! `convert::semantic_tokens_legend`.
//!
//! Tokens are made on a blocking thread, off the message loop, from a snapshot of the
//! document, so other requests and publications do not wait for them. The work stops as
//! soon as the snapshot's text is replaced (a change, the closing) or the request is
//! cancelled; a request whose text was replaced is answered `ContentModified` (the
//! client asks again for the new text). The last full result sent for each document is
//! kept with its `resultId`: a delta request naming it is answered with the edit from
//! it to the new tokens (what lies between their common prefix and suffix, as
//! rust-analyzer does), one naming any other id with the full tokens.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;

use tower_lsp::jsonrpc::{Error, Result};
use tower_lsp::lsp_types::*;

use crate::convert;
use crate::document::Document;
use crate::server::State;

/// The tokens last sent for a document in a full or delta answer.
pub struct Sent {
    result_id: String,
    data: Vec<SemanticToken>,
}

pub async fn full(
    state: &Arc<State>,
    params: SemanticTokensParams,
) -> Result<Option<SemanticTokensResult>> {
    let uri = params.text_document.uri;
    let encoding = state.encoding();
    off_loop(state, &uri.clone(), move |state, document, cancelled| {
        let tokens = gcn_ide::semantic_tokens_until(&document.parse, None, cancelled)?;
        let data =
            convert::semantic_tokens(&document.rope, &document.shared_text(), &tokens, encoding);
        let result_id = keep(state, &uri, data.clone());
        Some(SemanticTokensResult::Tokens(SemanticTokens {
            result_id: Some(result_id),
            data,
        }))
    })
    .await
}

pub async fn full_delta(
    state: &Arc<State>,
    params: SemanticTokensDeltaParams,
) -> Result<Option<SemanticTokensFullDeltaResult>> {
    let uri = params.text_document.uri;
    let previous_id = params.previous_result_id;
    let encoding = state.encoding();
    off_loop(state, &uri.clone(), move |state, document, cancelled| {
        let tokens = gcn_ide::semantic_tokens_until(&document.parse, None, cancelled)?;
        let data =
            convert::semantic_tokens(&document.rope, &document.shared_text(), &tokens, encoding);
        let mut sent = state.semantic_tokens.lock().unwrap();
        let previous = sent.remove(&uri).filter(|s| s.result_id == previous_id);
        let result_id = next_result_id();
        let result = match &previous {
            Some(previous) => SemanticTokensFullDeltaResult::TokensDelta(SemanticTokensDelta {
                result_id: Some(result_id.clone()),
                edits: diff(&previous.data, &data),
            }),
            None => SemanticTokensFullDeltaResult::Tokens(SemanticTokens {
                result_id: Some(result_id.clone()),
                data: data.clone(),
            }),
        };
        sent.insert(uri.clone(), Sent { result_id, data });
        Some(result)
    })
    .await
}

pub async fn range(
    state: &Arc<State>,
    params: SemanticTokensRangeParams,
) -> Result<Option<SemanticTokensRangeResult>> {
    let encoding = state.encoding();
    off_loop(
        state,
        &params.text_document.uri,
        move |_, document, cancelled| {
            let range = convert::text_range(&document.rope, params.range, encoding);
            let tokens = gcn_ide::semantic_tokens_until(&document.parse, Some(range), cancelled)?;
            let data = convert::semantic_tokens(
                &document.rope,
                &document.shared_text(),
                &tokens,
                encoding,
            );
            Some(SemanticTokensRangeResult::Tokens(SemanticTokens {
                result_id: None,
                data,
            }))
        },
    )
    .await
}

/// Runs `work` on a blocking thread with a snapshot of `uri` and a question that says
/// whether to give up: `Ok(None)` for a document that is not open, `ContentModified`
/// when `work` gives up (`None`).
async fn off_loop<T, F>(state: &Arc<State>, uri: &Url, work: F) -> Result<Option<T>>
where
    T: Send + 'static,
    F: FnOnce(&State, &Document, &dyn Fn() -> bool) -> Option<T> + Send + 'static,
{
    let Some(document) = state.snapshot(uri) else {
        return Ok(None);
    };
    // tower-lsp drops the request's future on `$/cancelRequest` (and the guard with it).
    let guard = CancelOnDrop::default();
    let request_cancelled = guard.0.clone();
    let state = state.clone();
    let result = tokio::task::spawn_blocking(move || {
        let cancelled = || document.is_replaced() || request_cancelled.load(Ordering::Relaxed);
        if cancelled() {
            return None;
        }
        work(&state, &document, &cancelled)
    })
    .await
    .map_err(|_| Error::internal_error())?;
    drop(guard);
    result.map(Some).ok_or_else(Error::content_modified)
}

/// Sets its flag when dropped.
#[derive(Default)]
struct CancelOnDrop(Arc<AtomicBool>);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// Keeps `data` as the tokens last sent for `uri`; their new `resultId`.
fn keep(state: &State, uri: &Url, data: Vec<SemanticToken>) -> String {
    let result_id = next_result_id();
    state.semantic_tokens.lock().unwrap().insert(
        uri.clone(),
        Sent {
            result_id: result_id.clone(),
            data,
        },
    );
    result_id
}

/// A `resultId` never given before by this server.
fn next_result_id() -> String {
    static NEXT: AtomicU64 = AtomicU64::new(1);
    NEXT.fetch_add(1, Ordering::Relaxed).to_string()
}

/// The edits that turn `old` into `new`: none when they are equal, else one replacing
/// what lies between their common prefix and suffix. Offsets and counts are in the
/// integers of the encoded array, five per token.
pub(crate) fn diff(old: &[SemanticToken], new: &[SemanticToken]) -> Vec<SemanticTokensEdit> {
    let prefix = old.iter().zip(new).take_while(|(a, b)| a == b).count();
    let (old, new) = (&old[prefix..], &new[prefix..]);
    let suffix = old
        .iter()
        .rev()
        .zip(new.iter().rev())
        .take_while(|(a, b)| a == b)
        .count();
    let (deleted, inserted) = (&old[..old.len() - suffix], &new[..new.len() - suffix]);
    if deleted.is_empty() && inserted.is_empty() {
        return Vec::new();
    }
    vec![SemanticTokensEdit {
        start: 5 * prefix as u32,
        delete_count: 5 * deleted.len() as u32,
        data: Some(inserted.to_vec()),
    }]
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    fn token(n: u32) -> SemanticToken {
        SemanticToken {
            delta_line: n / 3,
            delta_start: n % 3,
            length: 1 + n % 2,
            token_type: n % 10,
            token_modifiers_bitset: 0,
        }
    }

    /// `edits` applied to the integers of `old`, as a client applies them.
    fn apply(old: &[SemanticToken], edits: &[SemanticTokensEdit]) -> Vec<u32> {
        let mut ints: Vec<u32> = old
            .iter()
            .flat_map(|t| {
                [
                    t.delta_line,
                    t.delta_start,
                    t.length,
                    t.token_type,
                    t.token_modifiers_bitset,
                ]
            })
            .collect();
        // From the last edit back, so that the earlier offsets stay right.
        for edit in edits.iter().rev() {
            let data = edit.data.iter().flatten().flat_map(|t| {
                [
                    t.delta_line,
                    t.delta_start,
                    t.length,
                    t.token_type,
                    t.token_modifiers_bitset,
                ]
            });
            let start = edit.start as usize;
            ints.splice(start..start + edit.delete_count as usize, data);
        }
        ints
    }

    fn ints(tokens: &[SemanticToken]) -> Vec<u32> {
        apply(tokens, &[])
    }

    #[test]
    fn equal_arrays_need_no_edit() {
        let a: Vec<_> = (0..10).map(token).collect();
        assert!(diff(&a, &a).is_empty());
        assert!(diff(&[], &[]).is_empty());
    }

    #[test]
    fn one_edit_between_prefix_and_suffix() {
        let old: Vec<_> = [1, 2, 3, 4, 5].map(token).to_vec();
        let new: Vec<_> = [1, 2, 7, 8, 4, 5].map(token).to_vec();
        assert_eq!(
            diff(&old, &new),
            vec![SemanticTokensEdit {
                start: 10,
                delete_count: 5,
                data: Some(vec![token(7), token(8)])
            }]
        );
        // Prefix and suffix never overlap: [1 1] to [1 1 1] inserts one token.
        let (old, new) = ([1, 1].map(token), [1, 1, 1].map(token));
        assert_eq!(
            diff(&old, &new),
            vec![SemanticTokensEdit {
                start: 10,
                delete_count: 0,
                data: Some(vec![token(1)])
            }]
        );
        assert_eq!(apply(&new, &diff(&new, &old)), ints(&old));
    }

    proptest! {
        #[test]
        fn applying_the_edits_gives_the_new_array(
            old in prop::collection::vec(0u32..6, 0..40),
            new in prop::collection::vec(0u32..6, 0..40),
        ) {
            let old: Vec<_> = old.into_iter().map(token).collect();
            let new: Vec<_> = new.into_iter().map(token).collect();
            prop_assert_eq!(apply(&old, &diff(&old, &new)), ints(&new));
        }
    }
}
