//! Hostile JSON values and strings: limits and one past them, SQL-looking
//! text, terminal escapes, NUL, bidi and invisible characters, numbers out
//! of every range, ids of the wrong kind or of deleted things. Some values
//! are markers that [`raw_text`] turns into what `serde_json::Value`
//! cannot hold: lone surrogates, numbers past f64, very deep nesting.

use proptest::prelude::*;
use proptest::sample::select;
use tasklists_tests::{Value, json};

/// Markers and the raw JSON text each stands for (quotes included).
const MARKERS: [(&str, &str); 8] = [
    ("\"@@SURROGATE@@\"", r#""x\ud800y""#),
    ("\"@@LOW_SURROGATE@@\"", r#""\udc00""#),
    ("\"@@PAIR@@\"", r#""\ud83d\ude00""#),
    ("\"@@BIG_NUMBER@@\"", "1e400"),
    ("\"@@LONG_INT@@\"", "123456789012345678901234567890"),
    ("\"@@MINUS_ZERO@@\"", "-0"),
    ("\"@@DEEP_ARRAY@@\"", "@deep-array"),
    ("\"@@DEEP_OBJECT@@\"", "@deep-object"),
];

/// The JSON text of `v`, with every marker replaced by its raw text.
pub fn raw_text(v: &Value) -> String {
    let mut text = v.to_string();
    if !text.contains("@@") {
        return text;
    }
    for (marker, raw) in MARKERS {
        let raw = match raw {
            "@deep-array" => format!("{}{}", "[".repeat(5_000), "]".repeat(5_000)),
            "@deep-object" => format!("{}1{}", "{\"a\":".repeat(300), "}".repeat(300)),
            _ => raw.to_string(),
        };
        text = text.replace(marker, &raw);
    }
    text
}

/// Strings chosen to break things: injections, escapes, invisible text.
const EVIL: [&str; 24] = [
    "'; DROP TABLE tasks; --",
    "\"); DELETE FROM lists; --",
    "1 OR 1=1",
    "%",
    "_",
    "\\",
    "\u{1b}[2J\u{1b}[31mred\u{1b}]0;title\u{7}",
    "\u{9b}31m\u{9d}0;osc\u{9c}",
    "nul\u{0}inside",
    "\u{0}",
    "line\nbreak\r\n",
    "\t",
    "\u{202e}gnp.exe",
    "\u{2066}isolate\u{2069}",
    "zero\u{200b}width\u{feff}",
    "\u{e0041}tag",
    "\u{2028}\u{2029}",
    "\u{7f}",
    " ",
    "null",
    "🦀👩‍👩‍👧‍👦",
    "e\u{301}\u{301}\u{301}",
    "@@SURROGATE@@",
    "@@LOW_SURROGATE@@",
];

/// A string: mostly short and random (any Unicode, controls included),
/// else hostile, a marker, or a length around a limit (200, 500, 64 KiB
/// texts, 4 MiB params).
pub fn nasty_string() -> BoxedStrategy<String> {
    prop_oneof![
        4 => "\\PC{0,12}",
        3 => any::<String>().prop_map(|s| s.chars().take(24).collect()),
        4 => select(&EVIL[..]).prop_map(String::from),
        1 => select(&["@@PAIR@@"][..]).prop_map(String::from),
        2 => (select(&[0usize, 1, 63, 64, 65, 199, 200, 201, 499, 500, 501, 1_000, 1_001][..]), select(&["a", "é", "\u{1b}", "🦀"][..]))
            .prop_map(|(n, c)| c.repeat(n)),
        1 => select(&[65_536usize, 65_537, 300_000][..]).prop_map(|n| "x".repeat(n)),
        // Built when drawn: a strategy holding it would copy 5 MiB per use.
        1 => Just(()).prop_map(|()| "y".repeat(5 << 20)),
    ]
    .boxed()
}

/// A number: small, at a limit, or out of every range.
pub fn nasty_number() -> BoxedStrategy<Value> {
    prop_oneof![
        4 => (-3i64..1_002).prop_map(|n| json!(n)),
        2 => select(&[29i64, 30, 86_400, 86_401, 200, 201, 500, 501, 1_000_000, 1_000_001, i64::MIN, i64::MAX, i32::MAX as i64 + 1][..]).prop_map(|n| json!(n)),
        1 => Just(json!(i64::MAX as u64 + 1)),
        1 => Just(json!(u64::MAX)),
        1 => select(&[1e308, -1e308, 0.5, 1.0, 30.0, -0.0, f64::MIN_POSITIVE, 1e-300][..]).prop_map(|f| json!(f)),
        1 => select(&["@@BIG_NUMBER@@", "@@LONG_INT@@", "@@MINUS_ZERO@@"][..]).prop_map(|m| json!(m)),
    ]
    .boxed()
}

/// Any JSON value, hostile leaves (strings, numbers, ids from `ids`) up to
/// three levels deep, sometimes very deep or very wide.
pub fn nasty_value(ids: Vec<String>) -> BoxedStrategy<Value> {
    let leaf = prop_oneof![
        3 => nasty_string().prop_map(Value::String),
        3 => select(ids).prop_map(Value::String),
        2 => nasty_number(),
        1 => any::<bool>().prop_map(Value::Bool),
        1 => Just(Value::Null),
        1 => select(&["@@DEEP_ARRAY@@", "@@DEEP_OBJECT@@"][..]).prop_map(|m| json!(m)),
        // Wider than any array limit (10,000 reorder ids, 500 tasks).
        1 => select(&[501usize, 10_001][..]).prop_map(|n| Value::Array(vec![json!("task_01JDQ50000000000000000000A"); n])),
    ];
    leaf.prop_recursive(3, 24, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::vec((key(), inner), 0..4)
                .prop_map(|kv| Value::Object(kv.into_iter().collect())),
        ]
    })
    .boxed()
}

/// Every parameter name of the contract, and near misses of them.
pub const KEYS: [&str; 44] = [
    "agent_id",
    "bypass_private",
    "bypass_reason",
    "list_id",
    "task_id",
    "task_ids",
    "name",
    "scope_type",
    "scope_key",
    "visibility",
    "owner_agent_id",
    "get_or_create",
    "include_deleted",
    "include_tasks",
    "include_times",
    "status",
    "limit",
    "cursor",
    "title",
    "description",
    "notes",
    "assigned_to_agent_id",
    "depends_on",
    "position",
    "tasks",
    "ref",
    "outcome",
    "claim_token",
    "before_task_id",
    "after_task_id",
    "lease_seconds",
    "kinds",
    "since",
    "action",
    "params",
    "listId",
    "task",
    "taskId",
    "Title",
    "list_id ",
    "",
    "__proto__",
    "constructor",
    "list_id\u{0}",
];

/// A key: a contract name or near miss, or any short string.
pub fn key() -> BoxedStrategy<String> {
    prop_oneof![
        3 => select(&KEYS[..]).prop_map(String::from),
        1 => "\\PC{0,10}",
    ]
    .boxed()
}
