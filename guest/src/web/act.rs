//! `POST /act`: a person's form, read into a `person-request` and carried
//! out by the person's one dispatcher (`person::act`), as on every other
//! surface. Answered as JSON for the board's script (`?part=json`), or,
//! without script, by a 303 back to the page (done) or a page with the
//! component's message (refused, or a question to confirm).

use serde_json::{Map, Value as Json, json};

use super::html::Html;
use super::page;
use super::route::{self, BadRequest, Pairs};
use crate::bindings::{CallContext, PersonReply, PersonRequest, PersonSurface, WebResponse};
use crate::clock::Clock;
use crate::error::{ErrorCode, ToolError};
use crate::person::act::{self as person_act, Outcome};
use crate::person::{identity, reply};
use crate::render::{Style, line};
use crate::store::Store;

/// The width the refusal's lines are laid out for.
const WIDTH: usize = 100;

/// The form's own fields; every other one is the action's. `blank`
/// names the fields an edit form sends whole: one left empty (which a
/// browser's script does not send) is sent empty, so it clears. `was`
/// holds a digest of each field as the form showed it ([`was`]).
const OWN: [&str; 6] = ["action", "target", "confirmed", "return", "blank", "was"];

/// The HTTP status of a refusal.
pub(crate) fn status_of(code: ErrorCode) -> u16 {
    match code {
        ErrorCode::InvalidParams | ErrorCode::UnknownAction => 400,
        ErrorCode::NotFound => 404,
        ErrorCode::Forbidden | ErrorCode::AgentRequired => 403,
        ErrorCode::Conflict
        | ErrorCode::OutcomeRequired
        | ErrorCode::VerificationRequired
        | ErrorCode::Cycle => 409,
        ErrorCode::Storage | ErrorCode::Internal => 500,
    }
}

/// Answers a person's form.
pub(crate) fn answer(
    body: &str,
    query: &Pairs,
    ctx: &CallContext,
    store: &dyn Store,
    clock: &dyn Clock,
) -> WebResponse {
    let json = query.has("part", "json");
    let form = match route::form(body) {
        Ok(form) => form,
        Err(BadRequest(why)) => {
            let e = ToolError::invalid(why, "send the board's form as it is");
            return refused(&e, json, ctx, &Pairs::default());
        }
    };
    let action = form.get("action").unwrap_or_default();
    // A read-only board changes nothing, whatever was sent.
    if let Err(e) = identity::person(ctx, if action.is_empty() { "acting" } else { action }) {
        return refused(&e, json, ctx, &form);
    }
    let request = request(&form);
    if form.get("was").is_some() && request.fields.is_empty() {
        // Every field as the form showed it: nothing of the person's to save.
        return done_answer(
            "nothing to save: every field is as the form showed it",
            json,
            &form,
        );
    }
    match person_act::run(&request, ctx, store, clock) {
        Ok(Outcome::Done(done)) => done_answer(&done.said, json, &form),
        Ok(Outcome::Confirm(question)) => {
            if json {
                let mut h = Html::new();
                h.lines(&[line(&question.title, Style::Warning)]);
                return json_answer(
                    200,
                    json!({
                        "outcome": "confirm",
                        "html": h.finish(),
                        "title": crate::text::for_screen(&question.title),
                        "message": crate::text::for_screen(&question.message),
                    }),
                );
            }
            let mut body = Html::new();
            body.elem("p", &[("class", "question")], &question.message);
            yes_form(&mut body, &form);
            page::respond(page::message(&question.title, body), 200, ctx, false)
        }
        Err(e) => refused(&e, json, ctx, &form),
    }
}

/// A done action: what it did, as JSON for the script, else a 303 back.
fn done_answer(said: &str, json: bool, form: &Pairs) -> WebResponse {
    let back = route::safe_return(form.get("return"));
    if json {
        let mut h = Html::new();
        h.lines(&[line(format!("✓ {said}"), Style::Success)]);
        json_answer(
            200,
            json!({"outcome": "done", "html": h.finish(), "location": back}),
        )
    } else {
        page::see_other(back)
    }
}

/// The digest `was` names a field's shown value by: FNV-1a of the value
/// as a form sends it (line breaks as `\n`), in hex.
pub(crate) fn was(value: &str) -> String {
    format!(
        "{:016x}",
        super::assets::fnv1a(value.replace("\r\n", "\n").as_bytes())
    )
}

/// The person's request a form makes: its action, target, confirmation,
/// and the action's fields (empty values are absent, but for the fields
/// `blank` names; a field given twice, as a picked list is, has its
/// values joined by line breaks).
fn request(form: &Pairs) -> PersonRequest {
    let mut fields = Map::new();
    for (name, value) in &form.0 {
        if OWN.contains(&name.as_str()) || value.is_empty() {
            continue;
        }
        let joined = match fields.get(name).and_then(Json::as_str) {
            Some(before) => format!("{before}\n{value}"),
            None => value.clone(),
        };
        fields.insert(name.clone(), Json::from(joined));
    }
    for name in form.get("blank").unwrap_or_default().split_whitespace() {
        if !OWN.contains(&name) && !fields.contains_key(name) {
            fields.insert(name.to_string(), Json::from(""));
        }
    }
    // A field sent as the form showed it is not the person's change: it
    // is left out, so an agent's change made since the page was read is
    // not written back over.
    for shown in form.get("was").unwrap_or_default().split_whitespace() {
        let Some((name, digest)) = shown.split_once(':') else {
            continue;
        };
        if fields
            .get(name)
            .and_then(Json::as_str)
            .is_some_and(|v| was(v) == digest)
        {
            fields.remove(name);
        }
    }
    PersonRequest {
        action: form.get("action").unwrap_or_default().to_string(),
        target: form.get("target").unwrap_or_default().to_string(),
        fields: if fields.is_empty() {
            String::new()
        } else {
            Json::Object(fields).to_string()
        },
        confirmed: form.has("confirmed", "1"),
        surface: PersonSurface::Board,
    }
}

/// A refusal: the error's status and the component's words for it (the
/// lines `person-act` lays out), as JSON or as a page.
fn refused(e: &ToolError, json: bool, ctx: &CallContext, form: &Pairs) -> WebResponse {
    let status = status_of(e.code);
    let PersonReply::Refused(refusal) = reply::lay_out(Err(e.clone()), WIDTH) else {
        unreachable!("an error is laid out as a refusal")
    };
    let mut h = Html::new();
    h.lines(&refusal.lines);
    if json {
        return json_answer(
            status,
            json!({
                "outcome": "refused",
                "code": refusal.error.code.as_str(),
                "html": h.finish(),
            }),
        );
    }
    let mut body = Html::new();
    body.open("div", &[("class", "error")])
        .append(&h)
        .close("div");
    let back = route::safe_return(form.get("return"));
    body.open("p", &[])
        .elem("a", &[("href", &back)], "Back to the page")
        .close("p");
    page::respond(page::message("Not done", body), status, ctx, false)
}

/// The "Yes" of a question: the same form again, confirmed.
fn yes_form(h: &mut Html, form: &Pairs) {
    h.open(
        "form",
        &[
            ("class", "act confirm"),
            ("method", "post"),
            ("action", "/act"),
            ("data-action", form.get("action").unwrap_or_default()),
            ("data-key", ""),
            ("data-input", "none"),
        ],
    );
    for (name, value) in form.0.iter().filter(|(n, _)| n != "confirmed") {
        h.void(
            "input",
            &[
                ("type", "hidden"),
                ("name", name.as_str()),
                ("value", value.as_str()),
            ],
        );
    }
    h.void(
        "input",
        &[("type", "hidden"), ("name", "confirmed"), ("value", "1")],
    );
    h.elem("button", &[("type", "submit")], "Yes");
    let back = route::safe_return(form.get("return"));
    h.elem("a", &[("class", "cancel"), ("href", &back)], "No");
    h.close("form");
}

/// A JSON answer.
fn json_answer(status: u16, body: Json) -> WebResponse {
    WebResponse {
        status,
        content_type: "application/json".into(),
        body: body.to_string(),
        location: String::new(),
        immutable: false,
    }
}
