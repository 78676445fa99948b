//! Any bytes (read as `gcnasm` reads a source) assemble, in memory, without panicking;
//! runaway sources stop at the limits (libFuzzer's `-timeout` catches a hang). The limit
//! of expanded statements is lowered from 10,000,000 to 100,000: the same check, reached
//! in a moment instead of minutes under the sanitizer. What the calls of the first
//! line expand to is recorded, as an editor's "expand macro" asks, and the loads in
//! flight, the wait states and the registers read before a write are checked, as the
//! editor's checks do.
#![no_main]

use gcn_asm::expansion::ExpandRequest;
use gcn_asm::{assemble, FileId, Input, Limits, Options};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = gcn_asm::encoding::decode(data.to_vec());
    let first_line = text.find('\n').unwrap_or(text.len()) as u32;
    let result = assemble(
        vec![Input { name: "fuzz.s".to_string(), text }],
        Options {
            limits: Limits {
                expanded_statements: 100_000,
                ..Limits::default()
            },
            expand: Some(ExpandRequest {
                file: FileId(0),
                start: 0,
                end: first_line,
                max_statements: 1000,
            }),
            check_waits: true,
            check_nops: true,
            check_uninitialized: true,
            ..Options::default()
        },
    );
    // Every diagnostic renders (its location exists in the source map).
    for d in &result.diagnostics {
        let _ = d.render(&result.sources);
    }
    // So does every wait hazard found, with its load in the source map.
    for h in result.wait_hazards.iter().chain(&result.nop_hazards) {
        let _ = h.diagnostic.render(&result.sources);
        let _ = result.sources.file(h.load.file);
    }
    for d in &result.uninitialized_reads {
        let _ = d.render(&result.sources);
    }
    for e in &result.wait_effects {
        let _ = result.sources.file(e.at.file);
    }
    if let Some(expansion) = &result.expansion {
        let _ = expansion.to_text();
    }
    if !result.has_errors() {
        let _ = result.to_json();
        let _ = result.reg_usage_json();
        let _ = result.binary();
    }
});
