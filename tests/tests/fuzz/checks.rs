//! What every reply and every rendered line must look like, whatever the
//! input: the contract's error shape (a known code, a one-line printable
//! message, bounded whatever was sent), success text of one summary line
//! plus the compact JSON, and no raw control or invisible characters
//! anywhere a model or a screen reads.

use tasklists_tests::*;

/// The longest error message accepted: messages quote at most 200
/// characters of a bad value, so a few hundred characters of wording
/// around it (allowed keys, ids) is plenty whatever was sent.
const MAX_MESSAGE_CHARS: usize = 2_000;

/// A character no screen or model text may carry raw: controls (C0, DEL,
/// C1) and Unicode's invisible ones (bidi controls, zero-width, tags…);
/// the same set as `tests/tests/safe_text.rs`.
pub fn unsafe_char(c: char) -> bool {
    let u = c as u32;
    c.is_control()
        || matches!(u, 0xAD | 0x34F | 0x61C | 0x115F..=0x1160 | 0x17B4..=0x17B5 | 0x180B..=0x180F
            | 0x200B..=0x200F | 0x2028..=0x202E | 0x2060..=0x206F | 0x3164 | 0xFEFF | 0xFFA0
            | 0xFFF0..=0xFFFB | 0x1BCA0..=0x1BCA3 | 0x1D173..=0x1D17A | 0xE0000..=0xE00FF)
}

/// `Err` naming the first unsafe character of `text`.
pub fn safe(text: &str, what: &str) -> Result<(), String> {
    match text.chars().find(|c| unsafe_char(*c)) {
        Some(c) => Err(format!(
            "{what}: raw U+{:04X} in {:?}",
            c as u32,
            clip(text)
        )),
        None => Ok(()),
    }
}

/// At most 300 characters of `text`, for failure messages.
pub fn clip(text: &str) -> String {
    let mut out: String = text.chars().take(300).collect();
    if out.len() < text.len() {
        out.push('…');
    }
    out
}

/// The contract's spelling of an error code.
pub fn code_name(code: ErrorCode) -> &'static str {
    match code {
        ErrorCode::InvalidParams => "invalid_params",
        ErrorCode::UnknownAction => "unknown_action",
        ErrorCode::NotFound => "not_found",
        ErrorCode::Forbidden => "forbidden",
        ErrorCode::AgentRequired => "agent_required",
        ErrorCode::Conflict => "conflict",
        ErrorCode::OutcomeRequired => "outcome_required",
        ErrorCode::VerificationRequired => "verification_required",
        ErrorCode::Cycle => "cycle",
        ErrorCode::Storage => "storage",
        ErrorCode::Internal => "internal",
    }
}

/// Checks a typed error: a code a healthy database can produce (never
/// `internal`, which means the component trapped, nor `storage`), a
/// non-empty one-line printable message of bounded length, a printable
/// one-line hint.
pub fn check_error(e: &ToolError) -> Result<(), String> {
    if matches!(e.code, ErrorCode::Internal | ErrorCode::Storage) {
        return Err(format!(
            "{} error (a trap or a store failure on a healthy database): {} (hint: {})",
            code_name(e.code),
            clip(&e.message),
            clip(&e.hint)
        ));
    }
    if e.message.trim().is_empty() {
        return Err(format!("{} error with an empty message", code_name(e.code)));
    }
    let chars = e.message.chars().count();
    if chars > MAX_MESSAGE_CHARS {
        return Err(format!(
            "{} message of {chars} characters (a bad value quoted whole?): {}",
            code_name(e.code),
            clip(&e.message)
        ));
    }
    safe(&e.message, "error message")?;
    safe(&e.hint, "error hint")?;
    Ok(())
}

/// Checks a whole reply as a model receives it; `Ok(true)` when it is a
/// success. An error's text and structured content are the compact
/// `{"error":{code,message,hint}}` of its outcome; a success's text is the
/// summary line, a newline, then exactly the structured JSON object.
pub fn check_reply(reply: &ToolReply) -> Result<bool, String> {
    let structured: Value = serde_json::from_str(&reply.structured).map_err(|e| {
        format!(
            "structured content is not JSON ({e}): {}",
            clip(&reply.structured)
        )
    })?;
    match &reply.outcome {
        Err(e) => {
            check_error(e)?;
            let want =
                json!({"error": {"code": code_name(e.code), "message": e.message, "hint": e.hint}});
            if structured != want {
                return Err(format!(
                    "structured error {} is not the outcome {want}",
                    clip(&reply.structured)
                ));
            }
            let text: Value = serde_json::from_str(&reply.text)
                .map_err(|err| format!("error text is not JSON ({err}): {}", clip(&reply.text)))?;
            if text != want {
                return Err(format!(
                    "error text {} is not the outcome",
                    clip(&reply.text)
                ));
            }
            safe(&reply.text, "error text")?;
            Ok(false)
        }
        Ok(summary) => {
            if !structured.is_object() {
                return Err(format!(
                    "success data is not an object: {}",
                    clip(&reply.structured)
                ));
            }
            safe(summary, "summary")?;
            let Some((line, data)) = reply.text.split_once('\n') else {
                return Err(format!(
                    "success text without a newline: {}",
                    clip(&reply.text)
                ));
            };
            if line != summary || data != reply.structured {
                return Err(format!(
                    "success text is not summary + newline + data: {}",
                    clip(&reply.text)
                ));
            }
            safe(data, "success JSON text")?;
            Ok(true)
        }
    }
}

/// Checks rendered lines: no span carries a newline or an unsafe
/// character, except a zero-width joiner or non-joiner between two
/// characters past Latin-1 that are safe (the contract's renderers keep
/// those: they join emoji such as 👨‍👩‍👧 and shape Indic and Persian words).
pub fn check_lines(lines: &[Line], what: &str) -> Result<(), String> {
    for span in lines.iter().flatten() {
        let chars: Vec<char> = span.text.chars().collect();
        let wide = |c: Option<&char>| c.is_some_and(|c| u32::from(*c) > 0xFF && !unsafe_char(*c));
        for (i, c) in chars.iter().enumerate() {
            let joiner = matches!(c, '\u{200C}' | '\u{200D}')
                && i > 0
                && wide(chars.get(i - 1))
                && wide(chars.get(i + 1));
            if unsafe_char(*c) && !joiner {
                return Err(format!(
                    "{what}: raw U+{:04X} in {:?}",
                    u32::from(*c),
                    clip(&span.text)
                ));
            }
        }
    }
    Ok(())
}
