//! The UI's floors (docs/architecture.md, "The UI's floors"): every module of `src/ui` imports
//! only from the floors below its own, and a panel or a section never from another one.
//!
//! Bottom to top: `kit` and `text`, `state`, `widgets`, `panels`, `sections`, then `app.rs`
//! (and the `ui.rs` root that mounts it). A file's floor is its path; this test reads every
//! `crate::ui::…` path and every `super::…` path of every file (comments and string
//! literals aside) and fails naming the file, the line and the rule each one breaks.
//!
//! It reads the files with `std::fs` only, so it runs natively, where the UI is not compiled.

use std::fmt;
use std::path::{Path, PathBuf};

/// The floors, bottom to top. `kit` and `text` share the bottom floor.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Floor {
    Bottom,
    State,
    Widgets,
    Panels,
    Sections,
    App,
}

impl fmt::Display for Floor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Floor::Bottom => "kit/text",
            Floor::State => "state",
            Floor::Widgets => "widgets",
            Floor::Panels => "panels",
            Floor::Sections => "sections",
            Floor::App => "app",
        })
    }
}

/// Where a module sits: its floor and, on the panels' and sections' floors, which panel or
/// section it belongs to (the imports between two of those are the sideways ones).
#[derive(Debug, Clone, PartialEq, Eq)]
struct Place {
    floor: Floor,
    unit: Option<String>,
}

/// The place of a module path under `ui` (`["panels", "data_panel", "editor"]`).
/// `None` for a path the rule does not cover: the `ui` root itself, `super::*`.
fn place(module: &[String]) -> Option<Place> {
    let first = module.first()?;
    let unit = || module.get(1).cloned();
    let (floor, unit) = match first.as_str() {
        "kit" | "text" => (Floor::Bottom, None),
        "state" => (Floor::State, None),
        "widgets" => (Floor::Widgets, None),
        "panels" => (Floor::Panels, unit()),
        "sections" => (Floor::Sections, unit()),
        // `app`, and the root's own items (`mount`, the re-exports for the entry points).
        _ => (Floor::App, None),
    };
    Some(Place { floor, unit })
}

/// A rule broken: `file:line: path: why`.
#[derive(Debug)]
struct Breach {
    file: String,
    line: usize,
    path: String,
    rule: String,
}

impl fmt::Display for Breach {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}: `{}` {}",
            self.file, self.line, self.path, self.rule
        )
    }
}

/// Whether a module on `from` may import `to`; the rule it breaks otherwise.
fn check(from: &Place, to: &Place) -> Result<(), String> {
    if to.floor > from.floor {
        return Err(format!(
            "runs up: a module on the {} floor imports from the {} floor",
            from.floor, to.floor
        ));
    }
    if to.floor == from.floor
        && matches!(from.floor, Floor::Panels | Floor::Sections)
        && to.unit.is_some()
        && to.unit != from.unit
    {
        return Err(format!(
            "runs sideways: {} `{}` imports from {} `{}` (move what they share to a floor below)",
            from.floor,
            from.unit.as_deref().unwrap_or("?"),
            to.floor,
            to.unit.as_deref().unwrap_or("?"),
        ));
    }
    Ok(())
}

/// The module path of a file under `src/ui` (`panels/data_panel/editor.rs` →
/// `["panels", "data_panel", "editor"]`; `src/ui.rs` → `[]`).
fn module_of(relative: &Path) -> Vec<String> {
    let mut parts: Vec<String> = relative
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    if let Some(last) = parts.last_mut() {
        if let Some(stem) = last.strip_suffix(".rs") {
            *last = stem.to_string();
        }
    }
    parts
}

/// The source with comments and the contents of string and char literals blanked out
/// (newlines kept, so line numbers hold).
fn code_only(src: &str) -> String {
    let b = src.as_bytes();
    let mut out = String::with_capacity(src.len());
    let mut i = 0;
    let blank = |out: &mut String, s: &[u8]| {
        for &c in s {
            out.push(if c == b'\n' { '\n' } else { ' ' });
        }
    };
    while i < b.len() {
        let rest = &b[i..];
        if rest.starts_with(b"//") {
            let end = rest.iter().position(|&c| c == b'\n').unwrap_or(rest.len());
            blank(&mut out, &rest[..end]);
            i += end;
        } else if rest.starts_with(b"/*") {
            let end = src[i + 2..].find("*/").map_or(b.len(), |e| i + 2 + e + 2);
            blank(&mut out, &b[i..end]);
            i = end;
        } else if rest[0] == b'r'
            && (rest.get(1) == Some(&b'"') || rest.get(1) == Some(&b'#'))
            && (i == 0 || !(b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_'))
        {
            let hashes = rest[1..].iter().take_while(|&&c| c == b'#').count();
            if rest.get(1 + hashes) != Some(&b'"') {
                out.push('r');
                i += 1;
                continue;
            }
            let close = format!("\"{}", "#".repeat(hashes));
            let start = i + 2 + hashes;
            let end = src[start..]
                .find(&close)
                .map_or(b.len(), |e| start + e + close.len());
            out.push('"');
            blank(&mut out, &b[i + 1..end - 1]);
            out.push('"');
            i = end;
        } else if rest[0] == b'"' {
            let mut j = i + 1;
            while j < b.len() && b[j] != b'"' {
                j += if b[j] == b'\\' { 2 } else { 1 };
            }
            let end = (j + 1).min(b.len());
            out.push('"');
            blank(&mut out, &b[i + 1..end.saturating_sub(1).max(i + 1)]);
            out.push('"');
            i = end;
        } else if rest[0] == b'\'' {
            // A char literal ('x', '\n', '\u{..}'), or a lifetime ('a): only the first is blanked.
            let len = if rest.get(1) == Some(&b'\\') {
                rest[2..].iter().position(|&c| c == b'\'').map(|p| p + 3)
            } else {
                let ch = src[i + 1..].chars().next().map_or(1, char::len_utf8);
                (rest.get(1 + ch) == Some(&b'\'')).then_some(ch + 2)
            };
            match len {
                Some(len) => {
                    blank(&mut out, &rest[..len]);
                    i += len;
                }
                None => {
                    out.push('\'');
                    i += 1;
                }
            }
        } else {
            let ch = src[i..].chars().next().unwrap_or(' ');
            out.push(ch);
            i += ch.len_utf8();
        }
    }
    out
}

fn is_ident(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// The paths a `{ … }` group after `prefix::` names: `a::b, c::{d, e}` → `a::b`, `c::d`, `c::e`.
fn expand_group(prefix: &[String], group: &str, out: &mut Vec<Vec<String>>) {
    let mut depth = 0;
    let mut start = 0;
    let mut items = Vec::new();
    for (i, c) in group.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                items.push(&group[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    items.push(&group[start..]);
    for item in items {
        let item = item.trim();
        if item.is_empty() {
            continue;
        }
        let (head, sub) = match item.find("::{") {
            Some(at) => (
                &item[..at],
                Some(&item[at + 3..item.rfind('}').unwrap_or(item.len())]),
            ),
            None => (item, None),
        };
        let mut path = prefix.to_vec();
        path.extend(
            head.split("::")
                .map(|s| s.split_whitespace().next().unwrap_or("").to_string())
                .filter(|s| !s.is_empty() && s != "self" && s != "*"),
        );
        match sub {
            Some(sub) => expand_group(&path, sub, out),
            None => out.push(path),
        }
    }
}

/// Every `crate::ui::…` and `super::…` path in `code` that starts at byte `at`, resolved
/// against `module` to a module path under `ui`; `None` when `super` climbs out of `ui`.
fn paths_at(code: &str, at: usize, module: &[String]) -> (String, Vec<Vec<String>>) {
    let rest = &code[at..];
    // The path's text: identifiers and `::`, up to a `{ … }` group if one follows.
    let mut end = 0;
    let bytes = rest.as_bytes();
    while end < bytes.len() {
        let c = bytes[end] as char;
        if is_ident(c) {
            end += 1;
        } else if rest[end..].starts_with("::")
            && rest[end + 2..].starts_with(|c: char| is_ident(c) || c == '{')
        {
            end += 2;
        } else {
            break;
        }
    }
    let mut text = rest[..end].to_string();
    let group = if rest[end..].starts_with('{') {
        let mut depth = 0;
        let close = rest[end..]
            .char_indices()
            .find(|&(_, c)| {
                depth += match c {
                    '{' => 1,
                    '}' => -1,
                    _ => 0,
                };
                depth == 0
            })
            .map_or(rest.len(), |(i, _)| end + i);
        text.push_str(&rest[end..=close.min(rest.len() - 1)]);
        Some(rest[end + 1..close].to_string())
    } else {
        None
    };
    let segments: Vec<&str> = rest[..end].split("::").filter(|s| !s.is_empty()).collect();
    let mut base: Vec<String>;
    let mut i;
    if segments.first() == Some(&"crate") {
        base = Vec::new();
        i = 2;
    } else {
        base = module.to_vec();
        i = 0;
        while segments.get(i) == Some(&"super") {
            if base.pop().is_none() {
                return (text, Vec::new());
            }
            i += 1;
        }
    }
    base.extend(
        segments[i.min(segments.len())..]
            .iter()
            .map(|s| s.to_string()),
    );
    let mut out = Vec::new();
    match group {
        Some(group) => expand_group(&base, &group, &mut out),
        None => out.push(base),
    }
    (text, out)
}

/// The rules one file breaks. `relative` is its path under `src/ui` (`ui.rs` for the root).
fn breaches(relative: &Path, src: &str) -> Vec<Breach> {
    let file_module = if relative == Path::new("ui.rs") {
        Vec::new()
    } else {
        module_of(relative)
    };
    // The root (`ui.rs`, the mount) sits with `app.rs` on top.
    let from = place(&file_module).unwrap_or(Place {
        floor: Floor::App,
        unit: None,
    });
    let code = code_only(src);
    let mut found = Vec::new();
    // Inline modules (`mod tests { … }`, `pub mod op { … }`): `super` inside one starts from it.
    let mut inline: Vec<(String, i32)> = Vec::new();
    let mut depth = 0i32;
    let mut line = 1;
    let mut i = 0;
    let bytes = code.as_bytes();
    while i < bytes.len() {
        let c = bytes[i] as char;
        let word_start = i == 0 || !is_ident(bytes[i - 1] as char);
        match c {
            '\n' => line += 1,
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if inline.last().is_some_and(|&(_, d)| d == depth) {
                    inline.pop();
                }
            }
            'm' if word_start && code[i..].starts_with("mod ") => {
                let name: String = code[i + 4..].chars().take_while(|&c| is_ident(c)).collect();
                let after = code[i + 4 + name.len()..].trim_start();
                if after.starts_with('{') {
                    inline.push((name, depth));
                }
            }
            'c' | 's'
                if word_start
                    && (code[i..].starts_with("crate::ui::")
                        || code[i..].starts_with("super::")) =>
            {
                let mut module = file_module.clone();
                module.extend(inline.iter().map(|(n, _)| n.clone()));
                let (text, targets) = paths_at(&code, i, &module);
                for target in targets {
                    // Inside the file's own module (its children, its inline modules): no rule.
                    if target.starts_with(&file_module) && !file_module.is_empty() {
                        continue;
                    }
                    let Some(to) = place(&target) else { continue };
                    if let Err(rule) = check(&from, &to) {
                        let breach = Breach {
                            file: format!("src/ui/{}", relative.display()),
                            line,
                            path: text.split_whitespace().collect::<Vec<_>>().join(" "),
                            rule,
                        };
                        // One line per import, however many names its group brings.
                        if !found.last().is_some_and(|b: &Breach| {
                            b.line == breach.line && b.rule == breach.rule
                        }) {
                            found.push(breach);
                        }
                    }
                }
                i += text.len().max(1);
                line += text.matches('\n').count();
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    found
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn every_ui_import_runs_down_a_floor_or_stays_on_its_own() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let ui = root.join("ui");
    let mut files = Vec::new();
    rust_files(&ui, &mut files);
    files.sort();
    assert!(
        files.len() > 50,
        "src/ui has {} files: wrong directory?",
        files.len()
    );
    let mut all = Vec::new();
    for file in files.iter().chain([&root.join("ui.rs")]) {
        let src =
            std::fs::read_to_string(file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        let relative = file.strip_prefix(&ui).unwrap_or(Path::new("ui.rs"));
        all.extend(breaches(relative, &src));
    }
    let report: Vec<String> = all.iter().map(ToString::to_string).collect();
    assert!(
        report.is_empty(),
        "{} import(s) break the UI's floors (docs/architecture.md):\n{}",
        report.len(),
        report.join("\n")
    );
}

/// The checker itself: each kind of bad import is caught, with its line; good ones pass.
#[test]
fn the_checker_catches_up_and_sideways_imports() {
    let bad = "\
//! crate::ui::app::App in a comment is no import.
use crate::ui::state::AppState;
use crate::ui::panels::query_panel::QueryPanel;
fn f() {
    let s = \"crate::ui::app in a string\";
    super::super::app::Section::Data;
    crate::ui::{kit::dom::now, sections::teach::Learn};
}
mod tests {
    use super::*;
    use super::super::data_panel::DataPanel;
}
";
    let found = breaches(Path::new("panels/data_panel.rs"), bad);
    let lines: Vec<usize> = found.iter().map(|b| b.line).collect();
    assert_eq!(lines, [3, 6, 7], "{found:#?}");
    assert!(found[0].rule.contains("sideways"), "{}", found[0]);
    assert!(found[1].rule.contains("runs up"), "{}", found[1]);
    assert!(found[2].path.contains("sections::teach"), "{}", found[2]);

    let from_a_widget = breaches(
        Path::new("widgets/grid.rs"),
        "use crate::ui::panels::data_panel::now;\nuse super::columns::Column;\n",
    );
    assert_eq!(from_a_widget.len(), 1, "{from_a_widget:#?}");

    let within_a_section = breaches(
        Path::new("sections/design/run.rs"),
        "use super::bridge::Bridge;\nuse crate::ui::panels::code_panel::Outcome;\n",
    );
    assert!(within_a_section.is_empty(), "{within_a_section:#?}");

    let climbing_out = breaches(
        Path::new("sections/cell.rs"),
        "use super::teach::embed::query_param;\n",
    );
    assert_eq!(climbing_out.len(), 1, "{climbing_out:#?}");
}
