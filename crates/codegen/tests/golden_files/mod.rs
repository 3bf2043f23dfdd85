//! Golden files for the "show as code" tests: each generated text must be exactly the file of
//! its name; with `UPDATE_GOLDEN` set, the files are rewritten instead (review the diff).

use std::path::Path;

/// Compares (or, with `UPDATE_GOLDEN`, writes) every `(file name, text)` in `dir`, and fails
/// naming each file that differs, with the text generated for it.
pub fn check(dir: &Path, files: impl IntoIterator<Item = (String, String)>) {
    let update = std::env::var_os("UPDATE_GOLDEN").is_some();
    let mut differ = Vec::new();
    for (name, text) in files {
        let path = dir.join(name);
        if update {
            std::fs::create_dir_all(dir).unwrap();
            std::fs::write(&path, &text).unwrap();
        } else {
            let golden = std::fs::read_to_string(&path)
                .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            if golden != text {
                differ.push(format!("{}\n--- generated:\n{text}", path.display()));
            }
        }
    }
    assert!(differ.is_empty(), "{}", differ.join("\n\n"));
}
