//! `--emit json`: the assembled module as the conformance runner reads it, and
//! `--emit reg-usage`: the registers each kernel uses.

use serde_json::{json, Value as Json};

use crate::Assembly;

pub(crate) fn json(asm: &Assembly) -> String {
    let sections: Vec<Json> = asm
        .sections
        .iter()
        .map(|s| {
            let content: String = s.content.iter().map(|b| format!("{b:02x}")).collect();
            json!({
                "name": s.name,
                "kernel": s.kernel.map(|k| asm.kernels[k].clone()),
                "type": s.kind as u8,
                "content": content,
            })
        })
        .collect();
    let symbols: Vec<Json> = asm
        .symbols
        .iter()
        .map(|s| json!({ "name": s.name, "value": s.value.unwrap_or(0) as u64, "defined": s.value.is_some() }))
        .collect();
    let doc = json!({ "kernels": asm.kernels, "sections": sections, "symbols": symbols });
    serde_json::to_string_pretty(&doc).expect("JSON of plain values") + "\n"
}

pub(crate) fn reg_usage_json(asm: &Assembly) -> String {
    let kernels: Vec<Json> = asm
        .kernel_reg_usage()
        .iter()
        .map(|k| {
            json!({
                "name": k.name,
                "sgprs": k.sgprs,
                "vgprs": k.vgprs,
                "extra_sgprs": k.extra_sgprs,
                "sgprsnum": k.sgprsnum,
                "vgprsnum": k.vgprsnum,
                "waves": k.waves,
            })
        })
        .collect();
    serde_json::to_string_pretty(&json!({ "kernels": kernels })).expect("JSON of plain values")
        + "\n"
}
