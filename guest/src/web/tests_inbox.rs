//! The person's inbox on the board: it heads the overview with its
//! entries and their forms, shows only what the context may see, escapes
//! what agents wrote; a task's card and page say what it waits on a person
//! for and offer the verbs that settle it, and only then.

use serde_json::json;

use super::tests::{HOSTILE, World, assert_no_inline, ok_html};

/// `agent` claims the next task of `list` and asks `question` on it.
fn ask(w: &World, agent: &str, list: &str, question: &str) -> String {
    let claimed =
        w.h.ok(agent, "task_claims", "claim_next", json!({"list_id": list}));
    let id = claimed["task"]["id"].as_str().unwrap().to_string();
    w.h.ok(
        agent,
        "task_items",
        "update",
        json!({"task_id": id, "question": question}),
    );
    id
}

/// A list that requires review, with one task agent-1 finished: it waits
/// for the review. Returns the list and the task.
fn in_review(w: &World, outcome: &str) -> (String, String) {
    let list = w.h.create_list(
        "agent-1",
        json!({"name": "Reviewed", "scope_type": "workspace", "requires_review": true}),
    );
    let id = w.h.add(&list, &["Build the cache"]).remove(0);
    w.h.ok(
        "agent-1",
        "task_claims",
        "claim_next",
        json!({"list_id": list}),
    );
    let sent = w.h.ok(
        "agent-1",
        "task_items",
        "update",
        json!({"task_id": id, "status": "done", "outcome": outcome}),
    );
    assert_eq!(sent["task"]["waits_on"], "review", "{sent}");
    (list, id)
}

/// The `<article class="entry …">` of `task` on `body`, up to its close.
fn entry_of<'b>(body: &'b str, task: &str) -> &'b str {
    let at = body
        .find(&format!("data-task=\"{task}\" data-status="))
        .unwrap_or_else(|| panic!("the entry of {task}: {body}"));
    let start = body[..at].rfind("<article class=\"entry").unwrap();
    let end = at + body[at..].find("</article>").unwrap();
    &body[start..end]
}

/// The form of `action` in `html`, up to its close.
fn form_of<'b>(html: &'b str, action: &str) -> Option<&'b str> {
    let at = html.find(&format!("data-action=\"{action}\""))?;
    let start = html[..at].rfind("<form").unwrap();
    let end = at + html[at..].find("</form>").unwrap();
    Some(&html[start..end])
}

#[test]
fn the_inbox_heads_the_overview_with_each_entry_and_its_forms() {
    let w = World::new(&["Pick the cache", "Other"]);
    let asked = ask(&w, "agent-1", &w.list, "Postgres or SQLite for the cache?");
    w.h.advance_secs(300);
    let (_, reviewed) = in_review(&w, "built with SQLite");
    w.h.advance_secs(120);
    let body = ok_html(&w.get("/", "", Some("ann"))).to_string();
    assert_no_inline(&body);

    // First on the page, before the lists, with the count.
    let inbox = body.find("<section class=\"inbox\"").expect("the inbox");
    let lists = body.find("<section class=\"lists\"").expect("the lists");
    assert!(inbox < lists, "the inbox heads the overview");
    assert!(body.contains("data-count=\"2\""), "{body}");
    assert!(body.contains(">Inbox: </span><span class=\"s-warning\">2 need you</span>"));

    // The question, first: what it is, its task linked, its list, who
    // asked, what and since when, and the answer's form (a text, its key).
    let q = entry_of(&body, &asked);
    assert!(q.contains("data-kind=\"question\""), "{q}");
    assert!(q.contains("data-status=\"blocked\""));
    assert!(q.contains(">question</span>"));
    assert!(q.contains(&format!(
        "<a href=\"/tasks/{asked}\"><span class=\"title\">Pick the cache</span></a>"
    )));
    assert!(q.contains(&format!(
        "<a class=\"list\" href=\"/lists/{}\">Release</a>",
        w.list
    )));
    assert!(q.contains("@agent-1"));
    assert!(q.contains("<div class=\"said\">Postgres or SQLite for the cache?</div>"));
    assert!(q.contains(">7m ago</time>"), "{q}");
    let answer = form_of(q, "answer").expect("the answer's form");
    assert!(
        answer.contains("data-key=\"n\" data-input=\"text\""),
        "{answer}"
    );
    assert!(answer.contains(&format!("name=\"target\" value=\"{asked}\"")));
    assert!(answer.contains("name=\"return\" value=\"/\""));
    assert!(answer.contains("name=\"answer\" placeholder=\"your answer\""));
    assert!(answer.contains("required=\"required\""));
    assert!(form_of(q, "assign").is_some() && form_of(q, "cancel").is_some());
    assert!(
        form_of(q, "accept").is_none(),
        "nothing that does not settle it"
    );

    // The review, after it: the outcome, accept (asks first) and return
    // (with its reason).
    let r = entry_of(&body, &reviewed);
    assert!(
        body.find(q).unwrap() < body.find(r).unwrap(),
        "in the inbox's order"
    );
    assert!(r.contains("data-kind=\"review\""));
    assert!(
        r.contains("<div class=\"said\">built with SQLite</div>"),
        "{r}"
    );
    assert!(r.contains(">Reviewed</a>"));
    assert!(r.contains(">2m ago</time>"), "{r}");
    let accept = form_of(r, "accept").expect("accept");
    assert!(
        accept.contains("data-key=\"y\" data-input=\"confirm\""),
        "{accept}"
    );
    assert!(!accept.contains("type=\"text\""));
    let ret = form_of(r, "return").expect("return");
    assert!(
        ret.contains("name=\"reason\" placeholder=\"what to change\""),
        "{ret}"
    );
    assert!(form_of(r, "answer").is_none());

    // A read-only board shows the entries without a form.
    let read_only = ok_html(&w.get("/", "", None)).to_string();
    assert!(read_only.contains("Postgres or SQLite for the cache?"));
    assert!(!read_only.contains("method=\"post\""), "{read_only}");
}

#[test]
fn a_plan_awaiting_approval_is_an_entry_linking_to_its_list() {
    let w = World::new(&[]);
    let plan = w.h.create_list(
        "agent-1",
        json!({"name": "Migrate", "scope_type": "workspace", "requires_approval": true}),
    );
    w.h.add(&plan, &["Back up", "Migrate"]);
    let body = ok_html(&w.get("/", "", Some("ann"))).to_string();
    let inbox = &body[..body
        .find("<section class=\"awaiting\"")
        .expect("the plan's section")];
    let at = inbox
        .find(&format!("data-list=\"{plan}\" data-approval=\"pending\""))
        .expect("the plan's entry, in its list's approval state");
    let entry = &inbox[inbox[..at].rfind("<article").unwrap()..];
    assert!(entry.contains("data-kind=\"approval\""), "{entry}");
    assert!(entry.contains(&format!(
        "<a href=\"/lists/{plan}\"><span class=\"title\">Migrate</span></a>"
    )));
    assert!(entry.contains("plan of 2 tasks awaits approval"));
    for (action, key) in [("approve", "A"), ("reject", "R")] {
        let form = form_of(entry, action).expect(action);
        assert!(form.contains(&format!("data-key=\"{key}\"")), "{form}");
        assert!(form.contains(&format!("name=\"target\" value=\"{plan}\"")));
    }
}

#[test]
fn nothing_needs_you_says_so() {
    let w = World::new(&["one"]);
    let body = ok_html(&w.get("/", "", Some("ann"))).to_string();
    assert!(body.contains("data-count=\"0\""));
    assert!(body.contains(">Inbox: </span><span class=\"s-muted\">nothing needs you</span>"));
    assert!(!body.contains("<article class=\"entry"));
}

#[test]
fn another_agents_private_list_never_reaches_the_inbox() {
    let w = World::new(&[]);
    // agent-2's question on a shared list reaches the person (agent-1's
    // context): the check below could see one.
    let shared = w.h.create_list("agent-2", json!({"name": "Shared"}));
    w.h.add(&shared, &["Shared task"]);
    let shown = ask(&w, "agent-2", &shared, "Shared question?");
    let private = w.h.create_list(
        "agent-2",
        json!({"name": "Secret plans", "visibility": "private"}),
    );
    w.h.ok(
        "agent-2",
        "task_items",
        "create",
        json!({"list_id": private, "title": "Secret task"}),
    );
    let hidden = ask(&w, "agent-2", &private, "Secret question?");
    let body = ok_html(&w.get("/", "", Some("ann"))).to_string();
    assert!(entry_of(&body, &shown).contains("Shared question?"));
    assert!(body.contains("data-count=\"1\""), "{body}");
    for secret in [
        &hidden,
        &private,
        "Secret question?",
        "Secret task",
        "Secret plans",
    ] {
        assert!(!body.contains(secret), "{secret} shown: {body}");
    }
}

#[test]
fn a_hostile_question_is_shown_as_text() {
    let w = World::new(&["one"]);
    let id = ask(&w, "agent-1", &w.list, HOSTILE);
    for path in [
        "/".to_string(),
        format!("/tasks/{id}"),
        format!("/lists/{}", w.list),
    ] {
        let body = ok_html(&w.get(&path, "", Some("ann"))).to_string();
        assert_no_inline(&body);
        assert!(!body.contains("<script>alert"), "{path}: {body}");
        // The hostile `"q" 'a'` raw (the search form's own `name="q"` is markup).
        assert!(!body.contains("\"q\" '"), "{path}: raw quotes");
        assert!(!body.contains("'a'"), "{path}: raw apostrophes");
        assert!(
            !body.contains('\u{1b}') && !body.contains('\u{202e}'),
            "{path}"
        );
        assert!(
            body.contains("&lt;script&gt;alert(1)&lt;/script&gt; &quot;q&quot; &#39;a&#39; &amp;"),
            "{path}: {body}"
        );
    }
}

#[test]
fn a_waiting_task_says_so_and_offers_only_the_verbs_that_settle_it() {
    let w = World::new(&["Pick the cache", "Plain"]);
    let asked = ask(&w, "agent-1", &w.list, "Postgres or SQLite?");
    let plain = &w.tasks[1];
    let page = |id: &str| ok_html(&w.get(&format!("/tasks/{id}"), "", Some("ann"))).to_string();

    // Its page and its card: the wait, the question, the answer's form.
    let body = page(&asked);
    assert!(body.contains("⏳ waits for your answer"), "{body}");
    assert!(body.contains("asked by @agent-1"));
    assert!(body.contains("Postgres or SQLite?"));
    assert!(form_of(&body, "answer").is_some());
    for verb in ["accept", "return"] {
        assert!(form_of(&body, verb).is_none(), "{verb} on a question");
    }
    let board = ok_html(&w.get(&format!("/lists/{}", w.list), "", Some("ann"))).to_string();
    assert!(board.contains("⏳ waits for your answer"));
    assert!(board.contains("Postgres or SQLite?"));
    // A task waiting on nobody is offered none of them.
    let body = page(plain);
    for verb in ["answer", "accept", "return"] {
        assert!(form_of(&body, verb).is_none(), "{verb} on a plain task");
    }
    let card = &board[board.find(&format!("data-task=\"{plain}\"")).unwrap()..];
    let card = &card[..card.find("</article>").unwrap()];
    for verb in ["answer", "accept", "return"] {
        assert!(
            form_of(card, verb).is_none(),
            "{verb} on a plain card: {card}"
        );
    }

    // Answered from the inbox's form: todo with the answer, shown with who.
    let r = w.post(
        "part=json",
        &format!("action=answer&target={asked}&answer=SQLite%3A+one+file&return=%2F"),
        Some("ann"),
    );
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(w.task(&asked)["status"], "todo");
    assert_eq!(w.task(&asked)["ask"]["answer"], "SQLite: one file");
    let body = page(&asked);
    assert!(!body.contains("waits for your answer"));
    assert!(body.contains(">answered</strong>"), "{body}");
    assert!(body.contains("by @ann"));
    assert!(body.contains("SQLite: one file"));
    assert!(form_of(&body, "answer").is_none(), "answered: no form");
    let overview = ok_html(&w.get("/", "", Some("ann"))).to_string();
    assert!(overview.contains("nothing needs you"));
}

#[test]
fn a_task_in_review_shows_its_outcome_and_a_returned_one_its_reason() {
    let w = World::new(&[]);
    let (list, id) = in_review(&w, "built with SQLite");
    let page = || ok_html(&w.get(&format!("/tasks/{id}"), "", Some("ann"))).to_string();
    let body = page();
    assert!(body.contains("⏳ waits for your review"), "{body}");
    assert!(body.contains("finished by @agent-1"));
    assert!(body.contains("built with SQLite"));
    assert!(form_of(&body, "accept").is_some() && form_of(&body, "return").is_some());
    assert!(form_of(&body, "answer").is_none());
    let board = ok_html(&w.get(&format!("/lists/{list}"), "", Some("ann"))).to_string();
    assert!(board.contains("⏳ waits for your review"));
    assert_eq!(
        board.matches("built with SQLite").count(),
        1,
        "the outcome once, with the wait: {board}"
    );

    let r = w.post(
        "part=json",
        &format!("action=return&target={id}&reason=add+the+tests&return=%2F"),
        Some("ann"),
    );
    assert_eq!(r.status, 200, "{}", r.body);
    let body = page();
    assert!(!body.contains("waits for your review"));
    assert!(body.contains("↩ returned"), "{body}");
    assert!(body.contains("add the tests"));
    assert!(form_of(&body, "accept").is_none() && form_of(&body, "return").is_none());
    let board = ok_html(&w.get(&format!("/lists/{list}"), "", Some("ann"))).to_string();
    assert!(board.contains("↩ returned") && board.contains("add the tests"));
}
