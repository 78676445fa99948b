use std::time::Instant;
fn main() {
    let path = std::path::PathBuf::from(std::env::args().nth(1).unwrap());
    let text = std::fs::read_to_string(&path).unwrap();
    let settings = gcn_ide::Settings { args: vec!["--llvmVersion=30900".into()], ..Default::default() };
    let mut parse = gcn_syntax::parse(&text);
    for _ in 0..3 {
        let t = Instant::now();
        parse = gcn_syntax::parse(&text);
        eprintln!("parse {:?}", t.elapsed());
    }
    for _ in 0..5 {
        let t = Instant::now();
        let options = gcn_ide::file_options(&path, &settings);
        let input = gcn_ide::AnalysisInput { path: path.clone(), text: text.as_str().into(), parse: parse.clone(), options: options.clone(), open_files: Default::default(), cancel: None };
        let a = gcn_ide::analyse(input);
        eprintln!("analyse {:?} ({} diags)", t.elapsed(), a.diagnostics.len());
        let t = Instant::now();
        let asm = gcn_asm::assemble_parsed(gcn_asm::Input { name: "x".into(), text: text.clone() }, parse.clone(), options.asm_options());
        eprintln!("  assemble_parsed {:?}", t.elapsed());
        let t = Instant::now();
        let _ = gcn_driver::output_bytes(&asm, None);
        eprintln!("  output_bytes {:?}", t.elapsed());
        let t = Instant::now();
        let _ = gcn_ide::reg_usage::kernel_usage(&asm, &parse);
        eprintln!("  kernel_usage {:?}", t.elapsed());
        let t = Instant::now();
        drop(asm);
        eprintln!("  drop {:?}", t.elapsed());
    }
}
