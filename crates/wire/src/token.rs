//! Continuation tokens in the service's format (docs/service/wire.md#continuation): `1!<n>!<base64>`,
//! where `<base64>` is the key's UTF-8 bytes in standard base64 with `=` padding written as
//! `-`, and `<n>` is that text's length (`1!24!bGlzdEVudGl0aWVzVGVzdA--` for
//! `listEntitiesTest`). Clients never parse tokens; any key, including `'`, `%` and
//! non-ASCII text, survives the round trip.

use base64::Engine as _;

const B64: base64::engine::GeneralPurpose = base64::engine::general_purpose::STANDARD;

/// The token for a key.
pub fn encode(key: &str) -> String {
    let text = B64.encode(key.as_bytes()).replace('=', "-");
    format!("1!{}!{text}", text.len())
}

/// The key a token names; `None` when the text is not a token this endpoint issued.
///
/// A `+` of the base64 may arrive as a space (a query string decoded with `+` as space);
/// base64 never holds a space, so one is read back as `+`.
pub fn decode(token: &str) -> Option<String> {
    let rest = token.strip_prefix("1!")?;
    let (len, text) = rest.split_once('!')?;
    if len.parse::<usize>().ok()? != text.len() {
        return None;
    }
    let text = text.replace('-', "=").replace(' ', "+");
    String::from_utf8(B64.decode(text).ok()?).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_services_example() {
        assert_eq!(encode("listEntitiesTest"), "1!24!bGlzdEVudGl0aWVzVGVzdA--");
        assert_eq!(
            decode("1!24!bGlzdEVudGl0aWVzVGVzdA--").as_deref(),
            Some("listEntitiesTest")
        );
    }

    #[test]
    fn any_key_round_trips() {
        for key in ["", "it's", "100%", "日本", "a b+c/d", "\u{1F600}"] {
            assert_eq!(decode(&encode(key)).as_deref(), Some(key), "{key}");
        }
        let plus = encode("~~~");
        assert!(plus.contains('+'), "{plus}");
        assert_eq!(decode(&plus.replace('+', " ")).as_deref(), Some("~~~"));
    }

    #[test]
    fn foreign_tokens_are_refused() {
        for token in ["abc", "1!3!YWJj", "2!4!YWJj", "1!x!", "1!4!@@@@"] {
            assert_eq!(decode(token), None, "{token}");
        }
    }
}
