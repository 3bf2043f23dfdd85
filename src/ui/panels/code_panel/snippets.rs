//! The starter snippets: data files in www/snippets/ (copied to `snippets/` beside the page),
//! listed by `snippets/index.json` as `{ "snippets": [{ "file", "name", "summary" }] }`.

use crate::ui::kit::fetch;
use crate::ui::text::localized::Localized;

/// One snippet of the index: `name` and `summary` are strings or objects of translations
/// (`{"en": …, "de": …}`), as in lesson files.
#[derive(Debug, Clone, PartialEq)]
pub struct Snippet {
    pub file: String,
    pub name: Localized,
    pub summary: Localized,
}

/// A file name the index may name: a plain `.js` name, no path (the index is our own file,
/// but a bad entry must not reach another URL).
pub(crate) fn plain_file(name: &str) -> bool {
    name.ends_with(".js")
        && !name.starts_with('.')
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
}

/// The snippets `index.json` lists; entries without a plain file name are left out.
pub fn parse_index(text: &str) -> Result<Vec<Snippet>, String> {
    let v: serde_json::Value = serde_json::from_str(text).map_err(|e| e.to_string())?;
    let list = v["snippets"]
        .as_array()
        .ok_or("snippets/index.json has no \"snippets\" list")?;
    Ok(list
        .iter()
        .filter_map(|s| {
            let file = s["file"].as_str()?;
            plain_file(file).then(|| Snippet {
                file: file.to_string(),
                name: Localized::read(&s["name"]).unwrap_or_else(|| Localized {
                    source: file.to_string(),
                    ..Localized::default()
                }),
                summary: Localized::read(&s["summary"]).unwrap_or_default(),
            })
        })
        .collect())
}

pub async fn index() -> Result<Vec<Snippet>, String> {
    parse_index(&fetch::text("snippets/index.json").await?)
}

pub async fn text(snippet: &Snippet) -> Result<String, String> {
    file_text(&snippet.file).await
}

/// The text of the snippet file `file`, which must be a [`plain_file`] name.
pub async fn file_text(file: &str) -> Result<String, String> {
    if !plain_file(file) {
        return Err(format!("'{file}' is not a snippet file name"));
    }
    fetch::text(&format!("snippets/{file}")).await
}
