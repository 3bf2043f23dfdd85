//! A tiny Markdown subset for scenario descriptions and notes, rendered as text nodes only:
//! paragraphs (blank-line separated), bullet lists (`* ` or `- `), `code`, **bold** and
//! *emphasis*.
//! Anything else stays literal text; nothing is ever parsed as HTML.

use leptos::prelude::*;

/// One inline run of text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Inline {
    Text(String),
    Code(String),
    Bold(String),
    Emphasis(String),
}

/// A paragraph or a bullet list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Block {
    Paragraph(Vec<Inline>),
    List(Vec<Vec<Inline>>),
}

/// Splits Markdown text into blocks.
pub fn blocks(text: &str) -> Vec<Block> {
    let mut out = Vec::new();
    for chunk in text.split("\n\n") {
        let lines: Vec<&str> = chunk
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .collect();
        if lines.is_empty() {
            continue;
        }
        let mut paragraph: Vec<&str> = Vec::new();
        let mut items: Vec<String> = Vec::new();
        for line in lines {
            if let Some(item) = line.strip_prefix("* ").or_else(|| line.strip_prefix("- ")) {
                if !paragraph.is_empty() {
                    out.push(Block::Paragraph(inlines(&paragraph.join(" "))));
                    paragraph.clear();
                }
                items.push(item.to_string());
            } else if let Some(last) = items.last_mut().filter(|_| paragraph.is_empty()) {
                // A continuation line of the current item.
                last.push(' ');
                last.push_str(line);
            } else {
                paragraph.push(line);
            }
        }
        if !items.is_empty() {
            out.push(Block::List(items.iter().map(|i| inlines(i)).collect()));
        }
        if !paragraph.is_empty() {
            out.push(Block::Paragraph(inlines(&paragraph.join(" "))));
        }
    }
    out
}

/// Splits one line into text, `code`, **bold** and *emphasis* runs. An unclosed marker
/// stays literal.
pub fn inlines(text: &str) -> Vec<Inline> {
    let mut out = Vec::new();
    let mut plain = String::new();
    let mut rest = text;
    while !rest.is_empty() {
        if let Some(after) = rest.strip_prefix('`') {
            if let Some(end) = after.find('`') {
                flush(&mut plain, &mut out);
                out.push(Inline::Code(after[..end].to_string()));
                rest = &after[end + 1..];
                continue;
            }
        }
        if let Some(after) = rest.strip_prefix("**") {
            if let Some(end) = after.find("**") {
                flush(&mut plain, &mut out);
                out.push(Inline::Bold(after[..end].to_string()));
                rest = &after[end + 2..];
                continue;
            }
        }
        if let Some(after) = rest
            .strip_prefix('*')
            .filter(|a| !a.starts_with([' ', '*']))
        {
            if let Some(end) = after.find('*').filter(|&e| e > 0) {
                flush(&mut plain, &mut out);
                out.push(Inline::Emphasis(after[..end].to_string()));
                rest = &after[end + 1..];
                continue;
            }
        }
        let mut chars = rest.chars();
        if let Some(c) = chars.next() {
            plain.push(c);
        }
        rest = chars.as_str();
    }
    flush(&mut plain, &mut out);
    out
}

fn flush(plain: &mut String, out: &mut Vec<Inline>) {
    if !plain.is_empty() {
        out.push(Inline::Text(std::mem::take(plain)));
    }
}

fn inline_views(runs: Vec<Inline>) -> impl IntoView {
    runs.into_iter()
        .map(|run| match run {
            Inline::Text(t) => view! { <span>{t}</span> }.into_any(),
            Inline::Code(t) => view! { <code dir="ltr">{t}</code> }.into_any(),
            Inline::Bold(t) => view! { <strong>{t}</strong> }.into_any(),
            Inline::Emphasis(t) => view! { <em>{t}</em> }.into_any(),
        })
        .collect_view()
}

/// Renders one line of Markdown's inline runs (`code`, **bold**, *emphasis*) as text nodes:
/// the query plan's summary and advice carry `code` spans, never raw backticks on screen.
#[component]
pub fn MarkdownInline(
    /// The text (rendered as text, never as HTML).
    #[prop(into)]
    text: String,
) -> impl IntoView {
    inline_views(inlines(&text))
}

/// Renders Markdown text as paragraphs and lists of text nodes.
#[component]
pub fn Markdown(
    /// The Markdown source (user or scenario text: rendered as text, never as HTML).
    #[prop(into)]
    text: String,
) -> impl IntoView {
    blocks(&text)
        .into_iter()
        .map(|block| match block {
            Block::Paragraph(runs) => view! { <p>{inline_views(runs)}</p> }.into_any(),
            Block::List(items) => view! {
                <ul>
                    {items
                        .into_iter()
                        .map(|runs| view! { <li>{inline_views(runs)}</li> })
                        .collect_view()}
                </ul>
            }
            .into_any(),
        })
        .collect_view()
}
