//! `--emit json`: the assembled module as the conformance runner reads it,
//! `--emit reg-usage`: the registers each kernel uses, and `--emit listing`: each
//! instruction's place and words beside its source line.

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

/// One line per instruction placed, in the order the assembler put them:
/// `SECTION+OFFSET  WORDS  FILE:LINE: SOURCE LINE` (a line of a macro or repetition body
/// once for each run, as written in the body). `name` gives the name shown for a
/// file's name in the assembly.
pub(crate) fn listing(asm: &Assembly, name: &dyn Fn(&str) -> String) -> String {
    let Some(index) = &asm.index else {
        return String::new();
    };
    let rows: Vec<(String, String, String)> = index
        .placed
        .iter()
        .filter_map(|placed| {
            let words: Vec<String> = asm
                .placed_words(placed)?
                .iter()
                .map(|w| format!("{w:08x}"))
                .collect();
            let (line, _) = asm.sources.line_col(&placed.location);
            let file = asm.sources.file(placed.location.file);
            let text = file.text.lines().nth(line - 1).unwrap_or("").trim();
            let source = format!("{}:{line}: {text}", name(&file.name));
            Some((asm.placed_section(placed), words.join(" "), source))
        })
        .collect();
    // Columns as wide as their widest entry (an instruction has at most 3 words).
    let place_width = rows.iter().map(|r| r.0.len()).max().unwrap_or(0);
    let words_width = rows.iter().map(|r| r.1.len()).max().unwrap_or(0);
    rows.iter()
        .map(|(place, words, source)| {
            format!("{place:<place_width$}  {words:<words_width$}  {source}\n")
        })
        .collect()
}
