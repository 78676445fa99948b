//! Go to definition, find references and highlight, from the analysis's symbol index
//! ([`crate::symbol_index`]): labels, symbols (by their full scope path, so `x` inside
//! `.scope s` and `s::x` outside are one name), register symbols (in instruction
//! operands too), local labels (`1b`/`1f` to the `1:` they mean), macros and kernels,
//! across included files.
//!
//! A name the assembler did not record (in a branch it skipped) goes to its definition
//! in the file's text, as the outline finds it.
//!
//! A kernel goes with the global label of its name: from `.kernel NAME` or from
//! `NAME:` (or a use of it), the definitions are both. On the path of an `.include` or
//! `.incbin`, the definition is the file it opens.

use std::path::Path;
use std::sync::Arc;

use gcn_syntax::{TextRange, TextSize};

use crate::analysis::{normalize, Analysis};
use crate::document_links::link_at;
use crate::symbol_index::NameOccurrence;

/// A place in a file.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct FileRange {
    pub file: Arc<Path>,
    pub range: TextRange,
}

impl FileRange {
    fn of(o: &NameOccurrence) -> FileRange {
        FileRange {
            file: o.file.clone(),
            range: o.range,
        }
    }
}

/// The definitions of the name at `offset` of `file` (the kernel and its label
/// together), or the file an include's path at `offset` opens (an empty range at its
/// start). Empty when there is nothing there or it has no definition.
pub fn goto_definition(analysis: &Analysis, file: &Path, offset: TextSize) -> Vec<FileRange> {
    if let Some(p) = parameter_at(analysis, file, offset) {
        return vec![in_file(file, p.declaration)];
    }
    if let Some(o) = analysis.names.at(file, offset) {
        let mut out: Vec<FileRange> = analysis
            .names
            .related(o)
            .filter(|x| x.definition)
            .map(FileRange::of)
            .collect();
        dedup(&mut out);
        return out;
    }
    let Some(parse) = analysis.parse_of(file) else {
        return Vec::new();
    };
    match link_at(analysis, file, &parse, offset) {
        Some(link) => vec![FileRange {
            file: Arc::from(link.target),
            range: TextRange::default(),
        }],
        None => definition_in_text(file, &parse, offset)
            .into_iter()
            .collect(),
    }
}

/// A name the assembler did not record (in a branch it skipped, say): its definition
/// in the file's text, the first of that name (a macro's name in any case), found as the
/// outline finds names.
fn definition_in_text(
    file: &Path,
    parse: &gcn_syntax::Parse,
    offset: TextSize,
) -> Option<FileRange> {
    let root = parse.syntax_node();
    let token = crate::scan::token_at_offset(&root, offset).right_biased()?;
    if token.kind() != gcn_syntax::SyntaxKind::NAME {
        return None;
    }
    let name = token.text();
    let def = crate::scan::find_definition(parse, name)?;
    let statement = root.text().slice(def.range).to_string();
    let at = word_in(
        &statement,
        name,
        def.kind == crate::scan::DefinitionKind::Macro,
    )?;
    let start = def.range.start() + TextSize::from(at as u32);
    Some(FileRange {
        file: Arc::from(normalize(file)),
        range: TextRange::at(start, TextSize::from(name.len() as u32)),
    })
}

/// Where `word` first stands alone in `text` (not inside a longer name).
fn word_in(text: &str, word: &str, ignore_case: bool) -> Option<usize> {
    let is_name = |c: char| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '$');
    let (hay, needle) = if ignore_case {
        (text.to_ascii_lowercase(), word.to_ascii_lowercase())
    } else {
        (text.to_string(), word.to_string())
    };
    hay.match_indices(&needle).map(|(i, _)| i).find(|&i| {
        let before = hay[..i].chars().next_back().is_none_or(|c| !is_name(c));
        let after = hay[i + needle.len()..]
            .chars()
            .next()
            .is_none_or(|c| !is_name(c));
        before && after
    })
}

/// Every occurrence of the name at `offset` of `file` (the kernel and its label
/// together), in every file, by file and place; definitions only if
/// `include_declaration`. `None` when there is no name there.
pub fn references(
    analysis: &Analysis,
    file: &Path,
    offset: TextSize,
    include_declaration: bool,
) -> Option<Vec<FileRange>> {
    if let Some(p) = parameter_at(analysis, file, offset) {
        let declaration = include_declaration.then_some(p.declaration);
        let mut ranges: Vec<TextRange> = declaration.into_iter().chain(p.uses).collect();
        ranges.sort_by_key(|r| (r.start(), r.end()));
        return Some(ranges.into_iter().map(|r| in_file(file, r)).collect());
    }
    let o = name_at(analysis, file, offset)?;
    let mut found: Vec<&NameOccurrence> = analysis
        .names
        .related(o)
        .filter(|x| include_declaration || !x.definition)
        .collect();
    // Usually in order already (the assembler meets a file's names in order).

    let ordered = |a: &&NameOccurrence, b: &&NameOccurrence| {
        (a.file.as_os_str(), a.range.start(), a.range.end())
            <= (b.file.as_os_str(), b.range.start(), b.range.end())
    };
    if !found.is_sorted_by(ordered) {
        found.sort_by(|a, b| {
            (a.file.as_os_str(), a.range.start(), a.range.end()).cmp(&(
                b.file.as_os_str(),
                b.range.start(),
                b.range.end(),
            ))
        });
    }

    found.dedup_by(|a, b| a.file == b.file && a.range == b.range);
    Some(found.into_iter().map(FileRange::of).collect())
}

/// An occurrence to highlight: `write` for a definition, else a use.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Highlight {
    pub range: TextRange,
    pub write: bool,
}

/// The occurrences in `file` of the name at `offset` (the kernel and its label
/// together), by place. `None` when there is no name there.
pub fn highlights(analysis: &Analysis, file: &Path, offset: TextSize) -> Option<Vec<Highlight>> {
    if let Some(p) = parameter_at(analysis, file, offset) {
        let mut out: Vec<Highlight> = p
            .uses
            .iter()
            .map(|&range| Highlight {
                range,
                write: false,
            })
            .collect();
        out.push(Highlight {
            range: p.declaration,
            write: true,
        });
        out.sort_by_key(|h| (h.range.start(), h.range.end()));
        return Some(out);
    }
    let o = name_at(analysis, file, offset)?;
    let file = normalize(file);
    let mut out: Vec<Highlight> = analysis
        .names
        .related(o)
        .filter(|x| *x.file == *file)
        .map(|x| Highlight {
            range: x.range,
            write: x.definition,
        })
        .collect();
    out.sort_by_key(|h| (h.range.start(), h.range.end(), !h.write));
    out.dedup_by_key(|h| h.range);
    Some(out)
}

/// The macro or repetition parameter declared or used at `offset` of `file`.
pub(crate) fn parameter_at(
    analysis: &Analysis,
    file: &Path,
    offset: TextSize,
) -> Option<crate::macro_params::Parameter> {
    // The assembler's names first (a parameter is none of them); an included file is
    // parsed again only when it may hold a parameter.
    if analysis.names.at(file, offset).is_some() {
        return None;
    }
    let text = analysis.file_text(file)?.as_bytes();
    let has_blocks = text.windows(4).any(|w| w.eq_ignore_ascii_case(b".irp"))
        || text.windows(6).any(|w| w.eq_ignore_ascii_case(b".macro"));
    if !has_blocks {
        return None;
    }
    let parse = analysis.parse_of(file)?;
    crate::macro_params::parameter_at(&parse, offset)
}

fn in_file(file: &Path, range: TextRange) -> FileRange {
    FileRange {
        file: Arc::from(normalize(file)),
        range,
    }
}

/// The name at `offset` (on a path's scope, that scope).
fn name_at<'a>(
    analysis: &'a Analysis,
    file: &Path,
    offset: TextSize,
) -> Option<&'a NameOccurrence> {
    analysis.names.at(file, offset)
}

fn dedup(out: &mut Vec<FileRange>) {
    out.sort_by(|a, b| {
        (&a.file, a.range.start(), a.range.end()).cmp(&(&b.file, b.range.start(), b.range.end()))
    });
    out.dedup();
}

#[cfg(test)]
mod tests {
    use std::fmt::Write;
    use std::path::Path;

    use super::*;
    use crate::test_util::range_text;

    /// A place: in the source, `line:col-line:col "text"`; elsewhere, `FILE@start..end`.
    fn place(analysis: &Analysis, dir: &Path, text: &str, file: &Path, range: TextRange) -> String {
        if file == analysis.path {
            return range_text(text, range);
        }
        let other = analysis
            .file_text(file)
            .and_then(|t| t.get(std::ops::Range::<usize>::from(range)))
            .unwrap_or("");
        format!(
            "{}@{:?} {other:?}",
            file.strip_prefix(dir).unwrap_or(file).display(),
            range
        )
    }

    /// Analyses `test_data/navigation/NAME.s` from disk with the arguments of its first
    /// line, and answers each query line `#> TEXT [N] [rename=NEW]` (the cursor inside
    /// the N-th TEXT of the source above the queries).
    fn render(path: &Path, text: &str) -> String {
        let analysis = crate::test_util::analyse_case(path, text);
        let dir = path.parent().unwrap();
        let source = &text[..text.find("\n#>").unwrap_or(text.len())];
        let mut out = String::new();
        for d in analysis
            .diagnostics
            .iter()
            .filter(|d| d.severity == crate::Severity::Error)
        {
            writeln!(out, "error {}: {}", range_text(text, d.range), d.message).unwrap();
        }
        for query in text.lines().filter_map(|l| l.strip_prefix("#> ")) {
            let mut words = query.split_whitespace();
            let needle = words.next().unwrap();
            let mut nth = 0;
            let mut new_name = None;
            for w in words {
                match w.strip_prefix("rename=") {
                    Some(n) => new_name = Some(n),
                    None => nth = w.parse().unwrap(),
                }
            }
            let start = source
                .match_indices(needle)
                .nth(nth)
                .unwrap_or_else(|| panic!("no {query}"))
                .0;
            let offset = TextSize::from((start + usize::from(needle.len() > 1)) as u32);
            let at = place(
                &analysis,
                dir,
                text,
                path,
                TextRange::at(
                    TextSize::from(start as u32),
                    TextSize::from(needle.len() as u32),
                ),
            );
            writeln!(out, "{query}: at {at}").unwrap();
            for d in goto_definition(&analysis, path, offset) {
                writeln!(
                    out,
                    "  definition {}",
                    place(&analysis, dir, text, &d.file, d.range)
                )
                .unwrap();
            }
            if let Some(refs) = references(&analysis, path, offset, false) {
                for r in refs {
                    writeln!(
                        out,
                        "  reference {}",
                        place(&analysis, dir, text, &r.file, r.range)
                    )
                    .unwrap();
                }
            }
            if let Some(hs) = highlights(&analysis, path, offset) {
                let hs: Vec<String> = hs
                    .iter()
                    .map(|h| {
                        format!(
                            "{}{}",
                            if h.write { "w" } else { "r" },
                            range_text(text, h.range).split(' ').next().unwrap()
                        )
                    })
                    .collect();
                writeln!(out, "  highlights {}", hs.join(" ")).unwrap();
            }
            match crate::rename::prepare_rename(&analysis, path, offset) {
                Ok((range, name)) => {
                    writeln!(out, "  prepare rename {} {name:?}", range_text(text, range)).unwrap()
                }
                Err(message) => writeln!(out, "  prepare rename refused: {message}").unwrap(),
            }
            if let Some(new_name) = new_name {
                match crate::rename::rename(&analysis, path, offset, new_name) {
                    Ok(files) => {
                        for f in files {
                            for (range, new) in f.edits {
                                writeln!(
                                    out,
                                    "  rename {} -> {new}",
                                    place(&analysis, dir, text, &f.file, range)
                                )
                                .unwrap();
                            }
                        }
                    }
                    Err(message) => {
                        writeln!(out, "  rename to {new_name} refused: {message}").unwrap()
                    }
                }
            }
        }
        for link in crate::document_links::document_links(&analysis, path, &analysis.parse) {
            writeln!(
                out,
                "link {} -> {}",
                range_text(text, link.range),
                link.target
                    .strip_prefix(dir)
                    .unwrap_or(&link.target)
                    .display()
            )
            .unwrap();
        }
        for s in crate::workspace_symbols::analysis_symbols(&analysis, "") {
            writeln!(
                out,
                "symbol {:?} {} in {:?} at {}",
                s.kind,
                s.name,
                s.container,
                place(&analysis, dir, text, &s.file, s.range)
            )
            .unwrap();
        }
        out
    }

    #[test]
    fn navigation_snapshots() {
        crate::test_util::check_dir_files("navigation", render);
    }
}
