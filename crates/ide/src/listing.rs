//! The listing of a source: each instruction the assembler placed, with its section and
//! offset, the words the finished binary holds and the source line it came from, as
//! `gcnasm --emit listing` writes it ([`gcn_asm::Assembly::listing_named`]), for the
//! editors' "show listing" commands. Files are named relative to the source's folder.

use std::path::Path;

use crate::analysis::Analysis;

/// The listing of an analysed source.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Listing {
    /// One line per instruction placed, after a line on the source's errors if it has
    /// some.
    pub text: String,
    /// The source has errors: a line that did not assemble has no words, and a value
    /// not resolved is 0.
    pub errors: bool,
}

/// The listing of `analysis`'s source; `None` when the analysis was cancelled.
pub fn listing(analysis: &Analysis) -> Option<Listing> {
    if analysis.cancelled {
        return None;
    }
    let folder = analysis.path.parent();
    let name = |name: &str| shown_name(Path::new(name), folder);
    let errors = analysis.assembly.has_errors();
    let mut text = String::new();
    if errors {
        text.push_str(
            "# The source has errors: lines that did not assemble are missing, and values not resolved are 0.\n",
        );
    }
    let rows = analysis.assembly.listing_named(&name);
    if rows.is_empty() {
        text.push_str("# No instruction was assembled.\n");
    }
    text.push_str(&rows);
    Some(Listing { text, errors })
}

/// `path` relative to `folder` when it is inside it, else as it is.
fn shown_name(path: &Path, folder: Option<&Path>) -> String {
    folder
        .and_then(|f| path.strip_prefix(f).ok())
        .unwrap_or(path)
        .display()
        .to_string()
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use crate::test_util::{analyse_case, check_dir_files};

    #[test]
    fn listing_snapshots() {
        check_dir_files("listing", |path, text| {
            let analysis = analyse_case(path, text);
            super::listing(&analysis).expect("not cancelled").text
        });
    }

    #[test]
    fn names_are_relative_to_the_source_folder() {
        let folder = Some(Path::new("/work/project"));
        let name = |p: &str| super::shown_name(Path::new(p), folder);
        assert_eq!(name("/work/project/inc/a.s"), "inc/a.s");
        assert_eq!(name("/elsewhere/b.s"), "/elsewhere/b.s");
    }
}
