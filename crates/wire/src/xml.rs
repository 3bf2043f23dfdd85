//! The little XML the account-level operations need: a reader for the two documents a client
//! sends (`StorageServiceProperties`, `SignedIdentifiers`) and the escaping for the ones the
//! service writes.
//!
//! Hand-written rather than a general XML crate: the documents are small, fixed and carry no
//! namespaces, and the wire layer is linked into the browser app, where every dependency is
//! paid for in download size. The reader takes what XML 1.0 allows in such a document (a byte
//! order mark, the declaration, comments, processing instructions, attributes, CDATA,
//! character and the five predefined entity references, whitespace between elements) and
//! refuses anything else: a tag left open, a mismatched end tag, text outside the root,
//! a second root, a DOCTYPE.

/// An element: its name, its child elements in order, and its text (character data of its
/// own, entities resolved; whitespace between child elements included).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Element {
    pub name: String,
    pub children: Vec<Element>,
    pub text: String,
}

impl Element {
    /// The first child called `name`.
    pub fn child(&self, name: &str) -> Option<&Element> {
        self.children.iter().find(|c| c.name == name)
    }

    /// The element's text, without the whitespace around it.
    pub fn value(&self) -> &str {
        self.text.trim()
    }
}

/// The deepest nesting read (the documents have four levels).
const MAX_DEPTH: usize = 16;

/// Reads a whole document; `None` when it is not well-formed XML.
pub fn parse(bytes: &[u8]) -> Option<Element> {
    let text = std::str::from_utf8(bytes).ok()?;
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut reader = Reader { rest: text };
    reader.misc()?;
    if !reader.rest.starts_with('<') {
        return None;
    }
    let root = reader.element(0)?;
    reader.misc()?;
    reader.rest.is_empty().then_some(root)
}

struct Reader<'a> {
    rest: &'a str,
}

impl<'a> Reader<'a> {
    /// Skips what may stand outside the root: whitespace, comments, the declaration and
    /// processing instructions.
    fn misc(&mut self) -> Option<()> {
        loop {
            self.rest = self.rest.trim_start_matches(is_space);
            if self.rest.starts_with("<?") {
                self.skip_past("?>")?;
            } else if self.rest.starts_with("<!--") {
                self.skip_past("-->")?;
            } else {
                return Some(());
            }
        }
    }

    fn skip_past(&mut self, end: &str) -> Option<&'a str> {
        let at = self.rest.find(end)?;
        let skipped = self.rest.get(..at)?;
        self.rest = self.rest.get(at + end.len()..)?;
        Some(skipped)
    }

    /// An element starting at `<`.
    fn element(&mut self, depth: usize) -> Option<Element> {
        if depth > MAX_DEPTH {
            return None;
        }
        self.rest = self.rest.strip_prefix('<')?;
        let name = self.name()?;
        let mut element = Element {
            name: name.to_string(),
            ..Element::default()
        };
        // Attributes: read and dropped (the documents define none).
        loop {
            let before = self.rest.len();
            self.rest = self.rest.trim_start_matches(is_space);
            if let Some(after) = self.rest.strip_prefix("/>") {
                self.rest = after;
                return Some(element);
            }
            if let Some(after) = self.rest.strip_prefix('>') {
                self.rest = after;
                break;
            }
            if self.rest.len() == before {
                return None; // an attribute must follow whitespace
            }
            self.name()?;
            self.rest = self.rest.trim_start_matches(is_space).strip_prefix('=')?;
            self.rest = self.rest.trim_start_matches(is_space);
            let quote = self
                .rest
                .chars()
                .next()
                .filter(|c| *c == '"' || *c == '\'')?;
            self.rest = self.rest.get(1..)?;
            let value = self.skip_past(if quote == '"' { "\"" } else { "'" })?;
            if value.contains('<') {
                return None;
            }
        }
        // Content, up to the matching end tag.
        loop {
            let at = self.rest.find('<')?;
            unescape(self.rest.get(..at)?, &mut element.text)?;
            self.rest = self.rest.get(at..)?;
            if let Some(after) = self.rest.strip_prefix("</") {
                self.rest = after;
                let end = self.name()?;
                if end != element.name {
                    return None;
                }
                self.rest = self.rest.trim_start_matches(is_space).strip_prefix('>')?;
                return Some(element);
            } else if self.rest.starts_with("<!--") {
                self.skip_past("-->")?;
            } else if let Some(after) = self.rest.strip_prefix("<![CDATA[") {
                self.rest = after;
                let data = self.skip_past("]]>")?;
                element.text.push_str(data);
            } else if self.rest.starts_with("<?") {
                self.skip_past("?>")?;
            } else if self.rest.starts_with("<!") {
                return None;
            } else {
                let child = self.element(depth + 1)?;
                element.children.push(child);
            }
        }
    }

    /// A name: letters, digits, `_ - . :`, not starting with a digit, `-` or `.`.
    fn name(&mut self) -> Option<&'a str> {
        let end = self
            .rest
            .find(|c: char| !(c.is_alphanumeric() || matches!(c, '_' | '-' | '.' | ':')))
            .unwrap_or(self.rest.len());
        let name = self.rest.get(..end)?;
        let first = name.chars().next()?;
        if first.is_ascii_digit() || first == '-' || first == '.' {
            return None;
        }
        self.rest = self.rest.get(end..)?;
        Some(name)
    }
}

fn is_space(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\r' | '\n')
}

/// Appends `text` with its entity and character references resolved; `None` for a `&` that
/// starts no reference, or a `>` after `]]` (which XML forbids in text).
fn unescape(text: &str, out: &mut String) -> Option<()> {
    if text.contains("]]>") {
        return None;
    }
    let mut rest = text;
    while let Some(at) = rest.find('&') {
        out.push_str(rest.get(..at)?);
        let after = rest.get(at + 1..)?;
        let end = after.find(';')?;
        let name = after.get(..end)?;
        out.push(match name {
            "lt" => '<',
            "gt" => '>',
            "amp" => '&',
            "quot" => '"',
            "apos" => '\'',
            _ => {
                let code = if let Some(hex) = name.strip_prefix("#x") {
                    u32::from_str_radix(hex, 16).ok()?
                } else {
                    name.strip_prefix('#')?.parse().ok()?
                };
                char::from_u32(code)?
            }
        });
        rest = after.get(end + 1..)?;
    }
    out.push_str(rest);
    Some(())
}

/// Appends `text` escaped for an element's content.
pub fn escape_into(out: &mut String, text: &str) {
    for c in text.chars() {
        match c {
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '&' => out.push_str("&amp;"),
            c => out.push(c),
        }
    }
}

/// Appends `<name>text</name>`, the text escaped.
pub fn leaf(out: &mut String, name: &str, text: &str) {
    out.push('<');
    out.push_str(name);
    out.push('>');
    escape_into(out, text);
    out.push_str("</");
    out.push_str(name);
    out.push('>');
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_what_clients_send() {
        let doc = "\u{feff}<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<!-- c -->\
                   <A x=\"1\" y='2'>\n  <B>a &amp; b &#x41;&#66;</B><C/><C ></C>\
                   <D><![CDATA[<raw>]]></D></A>\n";
        let root = parse(doc.as_bytes()).unwrap();
        assert_eq!(root.name, "A");
        assert_eq!(root.child("B").unwrap().value(), "a & b AB");
        assert_eq!(root.children.len(), 4);
        assert_eq!(root.child("D").unwrap().text, "<raw>");
        assert_eq!(root.child("C").unwrap().text, "");
    }

    #[test]
    fn refuses_what_is_not_well_formed() {
        for doc in [
            "",
            "text",
            "<A>",
            "<A></B>",
            "<A></A><B/>",
            "<A></A>tail",
            "<A>&bogus;</A>",
            "<A>a & b</A>",
            "<!DOCTYPE A><A/>",
            "<A x=1/>",
            "<A x=\"1\"y=\"2\"/>",
            "<1A/>",
            "<A><!DOCTYPE x></A>",
        ] {
            assert_eq!(parse(doc.as_bytes()), None, "{doc}");
        }
        assert_eq!(parse(&[0xff, 0xfe]), None);
        let deep = "<A>".repeat(40) + &"</A>".repeat(40);
        assert_eq!(parse(deep.as_bytes()), None);
    }

    #[test]
    fn writes_escaped_leaves() {
        let mut out = String::new();
        leaf(&mut out, "Id", "a<b&c");
        assert_eq!(out, "<Id>a&lt;b&amp;c</Id>");
    }
}
