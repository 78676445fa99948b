//! Any bytes (read as `gcnasm` reads a source) assemble, in memory and with the default limits, without panicking;
//! runaway sources stop at the limits (libFuzzer's `-timeout` catches a hang).
#![no_main]

use gcn_asm::{assemble, Input, Options};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = gcn_asm::encoding::decode(data.to_vec());
    let result = assemble(
        vec![Input { name: "fuzz.s".to_string(), text }],
        Options::default(),
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
