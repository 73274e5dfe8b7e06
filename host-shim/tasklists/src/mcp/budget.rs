//! How much memory a message may cost once parsed. Parsed into JSON
//! values, a message costs far more than its bytes: each `0` of an array
//! of zeros, two bytes on the wire, becomes a value of tens of bytes, and
//! rmcp parses a message more than once (about 240 bytes of memory per
//! value, measured: one 16 MiB array of zeros peaked at 1.9 GiB). So a
//! message is counted before anything parses it: a lexical pass, a few
//! milliseconds for the largest message, that counts its values and
//! allocates nothing. One holding more values than any call needs is
//! refused whole; the count of one let through is what the server holds
//! it to cost ([`cost`]).

/// Most JSON values one message may hold: ten times what the largest call
/// needs (`add_many`: 500 tasks of a dozen fields, 5,000 dependencies in
/// all), and at [`VALUE_BYTES`] each about 32 MiB once parsed.
pub const MAX_VALUES: usize = 1 << 17;

/// What one parsed value costs, in bytes, as the server counts it (rmcp's
/// two parses of a message, measured, rounded up).
pub const VALUE_BYTES: usize = 256;

/// Copies of a message's bytes that may be alive while it is parsed and
/// called (the body, the parsed strings, the arguments re-serialized for
/// the component).
const COPIES: usize = 3;

/// The JSON values in `bytes` (objects, arrays, strings (keys included),
/// numbers and literals), counted lexically without checking the syntax
/// (what is not JSON is refused by the parser afterwards); the count stops
/// once it passes `max`.
pub fn values(bytes: &[u8], max: usize) -> usize {
    let mut count = 0;
    let mut i = 0;
    while i < bytes.len() && count <= max {
        match bytes[i] {
            b'"' => {
                count += 1;
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' {
                    // An escape skips the byte it escapes (`\"`, `\\`).
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
                i += 1;
            }
            b'{' | b'[' => {
                count += 1;
                i += 1;
            }
            b if is_scalar(b) => {
                count += 1;
                while i < bytes.len() && is_scalar(bytes[i]) {
                    i += 1;
                }
            }
            _ => i += 1,
        }
    }
    count
}

/// The bytes a message of `bytes` holding `values` values is counted as
/// costing while it is parsed and called.
pub fn cost(bytes: usize, values: usize) -> usize {
    bytes
        .saturating_mul(COPIES)
        .saturating_add(values.saturating_mul(VALUE_BYTES))
}

/// A byte of a number or a literal (`true`, `false`, `null`, `-1.5e3`).
fn is_scalar(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'-' | b'+' | b'.')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_of_value_counts_once_and_strings_hide_nothing() {
        assert_eq!(
            values(br#"{"a":[1,-2.5e3,true,null],"b":"x\"[0,0]"}"#, 100),
            9
        );
        assert_eq!(values(b"[0,0,0]", 100), 4);
        assert_eq!(values(b"", 100), 0);
        assert_eq!(
            values(br#""\\""#, 100),
            1,
            "an escaped backslash ends nothing"
        );
        // Whatever the bytes, the pass ends and stops counting past the bound.
        assert_eq!(values(br#"""#, 100), 1);
        let zeros = format!("[{}]", vec!["0"; 1000].join(","));
        assert_eq!(values(zeros.as_bytes(), 10), 11);
    }

    #[test]
    fn the_largest_call_fits_the_budget() {
        // add_many at its bounds: 500 tasks with every field, 10
        // dependencies each and 20 refs on some.
        let task = serde_json::json!({
            "title": "t", "description": "d", "priority": "high", "verification": "v",
            "depends_on": (0..10).map(|i| format!("task_{i}")).collect::<Vec<_>>(),
            "refs": (0..20).map(|i| format!("https://x/{i}")).collect::<Vec<_>>(),
        });
        let call = serde_json::json!({"action": "add_many", "params": {"list_id": "l", "tasks": vec![task; 500]}});
        let counted = values(call.to_string().as_bytes(), MAX_VALUES);
        assert!(counted * 4 < MAX_VALUES, "{counted} values");
    }
}
