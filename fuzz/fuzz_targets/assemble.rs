//! Any bytes (read as `gcnasm` reads a source) assemble, in memory, without panicking;
//! runaway sources stop at the limits (libFuzzer's `-timeout` catches a hang). The limit
//! of expanded statements is lowered from 10,000,000 to 100,000: the same check, reached
//! in a moment instead of minutes under the sanitizer.
#![no_main]

use gcn_asm::{assemble, Input, Limits, Options};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = gcn_asm::encoding::decode(data.to_vec());
    let result = assemble(
        vec![Input { name: "fuzz.s".to_string(), text }],
        Options {
            limits: Limits {
                expanded_statements: 100_000,
                ..Limits::default()
            },
            ..Options::default()
        },
    );
    // Every diagnostic renders (its location exists in the source map).
    for d in &result.diagnostics {
        let _ = d.render(&result.sources);
    }
    if !result.has_errors() {
        let _ = result.to_json();
        let _ = result.reg_usage_json();
        let _ = result.binary();
    }
});
