//! `GET /lists/{id}`: a list's board. `view=columns` (the default) sets
//! its tasks side by side by where they stand (todo, running, paused,
//! closed); `view=order` lists them in the order agents take them, open
//! ones first. `finished=hide` leaves done and canceled tasks out, as the
//! dashboard's `f` does. The search and filters of the address (`q`,
//! `assignee`, `priority`, `status`, `label`, `running`, `needs`:
//! `filter.rs`) show only the tasks they keep (a card's label links to
//! its label's), and the page says so, how many of how many, and how to
//! see every task again; every link of the board keeps them.
//!
//! A card carries no forms: the board's script asks for the selected
//! card's ([`actions`], `part=actions&task=ID`) and shows them in it, so
//! a board of hundreds of cards stays small. Each card carries its
//! version (`data-v`, a hash of its markup); a live refresh names the
//! versions the page holds (`have=V.V…`) and gets, in place of each run
//! of those cards, `<i class="keep" data-keep="V V…">`: only a card
//! that changed travels again, and the page still ends as the whole
//! board would leave it (the script puts its own copies where the marks
//! are).

use super::card;
use super::columns::COLUMNS;
use super::drop;
use super::find;
use super::forms;
use super::html::Html;
use super::list::{self, Shown};
use super::page::Page;
use super::read::{Board, Card};
use super::wait;
use crate::model::TaskRow;
use crate::render::fmt;
use std::collections::HashSet;

/// How the board is laid out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum View {
    /// By status, side by side.
    Columns,
    /// By position.
    Order,
}

/// The board's page.
pub(crate) fn page(
    board: &Board,
    view: View,
    hide_finished: bool,
    can_act: bool,
    ret: &str,
    have: &HashSet<&str>,
) -> Page {
    let mut h = Html::new();
    let shown = match view {
        View::Columns => Shown::Columns,
        View::Order => Shown::Order,
    };
    let filter = &board.filter;
    let keep = filter.query();
    list::header(&mut h, &board.entry, shown, Some(filter), can_act, ret);
    find::form(
        &mut h,
        &card::list_href(&board.entry.list.id),
        &view_fields(view, hide_finished),
        filter,
        Some(&board.choices),
    );
    if !filter.is_empty() {
        find::note(
            &mut h,
            filter,
            board.cards.len(),
            board.more,
            Some(board.entry.list.counts.total()),
            &toggle_href(&board.entry.list.id, view, hide_finished, ""),
        );
    }
    // A card's label links keep the other filters and the view.
    let view_query = match view {
        View::Columns => String::new(),
        View::Order => "view=order&".to_string(),
    } + &with_amp(&filter.query_without_label());
    let view_query = view_query.as_str();
    let cards: Vec<&Card> = board
        .cards
        .iter()
        .filter(|c| !(hide_finished && c.task.is_closed()))
        .collect();
    let hidden = board.cards.len() - cards.len();
    match view {
        View::Columns => {
            h.open("div", &[("class", "columns")]);
            for (key, heading, statuses) in COLUMNS {
                if hide_finished && key == "closed" {
                    continue;
                }
                let here: Vec<&&Card> = cards
                    .iter()
                    .filter(|c| statuses.contains(&c.task.status))
                    .collect();
                h.open("section", &[("class", "column"), ("data-column", key)]);
                h.open("h2", &[])
                    .text(heading)
                    .text(" ")
                    .elem(
                        "span",
                        &[("class", "count s-muted")],
                        &here.len().to_string(),
                    )
                    .close("h2");
                let mut run = Run::new(have);
                for c in here {
                    run.card(&mut h, c, board.now, view_query);
                }
                run.flush(&mut h);
                h.close("section");
            }
            h.close("div");
        }
        View::Order => {
            h.open("section", &[("class", "order")]);
            let (open, closed): (Vec<&Card>, Vec<&Card>) =
                cards.iter().partition(|c| !c.task.is_closed());
            let mut run = Run::new(have);
            for c in open.into_iter().chain(closed) {
                run.card(&mut h, c, board.now, view_query);
            }
            run.flush(&mut h);
            h.close("section");
        }
    }
    // What a drop of a card does (drag.js), where the person may act.
    if can_act {
        drop::write(&mut h, COLUMNS.iter().map(|(key, _, _)| *key));
    }
    if board.cards.is_empty() {
        let empty = if filter.only_label() {
            "no task carries this label"
        } else if !filter.is_empty() {
            "no task matches what is searched: clear a filter or search other words"
        } else {
            "no tasks"
        };
        h.elem("p", &[("class", "empty s-muted")], empty);
    }
    let toggle = toggle_href(&board.entry.list.id, view, !hide_finished, &keep);
    h.open("p", &[("class", "finished s-muted")]);
    if hidden > 0 {
        h.text(&format!("{} hidden ", fmt::plural(hidden, "finished task")));
        h.elem("a", &[("href", &toggle)], "show them");
    } else {
        h.elem(
            "a",
            &[("href", &toggle)],
            if hide_finished {
                "show finished"
            } else {
                "hide finished"
            },
        );
    }
    h.close("p");
    if board.more {
        h.elem("p", &[("class", "more s-muted")], "more tasks follow");
    }
    Page {
        title: list::name(&board.entry).to_string(),
        refresh_at: card::next_expiry(board.cards.iter().map(|c| &c.task), board.now),
        main: h,
    }
}

/// The board's address with finished tasks hidden or not, and filtered
/// as `filter` (a [`Filter::query`](super::filter::Filter::query)) says.
fn toggle_href(list_id: &str, view: View, hide: bool, filter: &str) -> String {
    let view = match view {
        View::Columns => "columns",
        View::Order => "order",
    };
    let mut href = format!("{}?view={view}", card::list_href(list_id));
    if hide {
        href.push_str("&finished=hide");
    }
    if !filter.is_empty() {
        href.push('&');
        href.push_str(filter);
    }
    href
}

/// The view's own fields, which the search form sends along unchanged.
fn view_fields(view: View, hide: bool) -> Vec<(&'static str, &'static str)> {
    let mut keep = Vec::new();
    if view == View::Order {
        keep.push(("view", "order"));
    }
    if hide {
        keep.push(("finished", "hide"));
    }
    keep
}

/// `query&`, or nothing for an empty one (a prefix of another query).
fn with_amp(query: &str) -> String {
    if query.is_empty() {
        String::new()
    } else {
        format!("{query}&")
    }
}

/// The cards of one column (or of the order) as they are written: each
/// whole, or, when the page already holds it (its version among `have`),
/// its version in the run of kept cards it falls in.
struct Run<'a> {
    have: &'a HashSet<&'a str>,
    kept: Vec<String>,
}

impl<'a> Run<'a> {
    fn new(have: &'a HashSet<&'a str>) -> Self {
        Run {
            have,
            kept: Vec::new(),
        }
    }

    /// Writes card `c`, or keeps it.
    fn card(&mut self, h: &mut Html, c: &Card, now: i64, view: &str) {
        let mut one = Html::new();
        write_card(&mut one, c, now, view);
        let v = version(one.as_str());
        if self.have.contains(v.as_str()) {
            self.kept.push(v);
        } else {
            self.flush(h);
            h.append_marked(&one, "data-v", &v);
        }
    }

    /// Writes the run of kept cards so far as one mark.
    fn flush(&mut self, h: &mut Html) {
        if !self.kept.is_empty() {
            h.elem(
                "i",
                &[("class", "keep"), ("data-keep", &self.kept.join(" "))],
                "",
            );
            self.kept.clear();
        }
    }
}

/// A card's version: 48 bits of the FNV-1a hash of its markup, in hex.
fn version(markup: &str) -> String {
    format!(
        "{:012x}",
        super::assets::fnv1a(markup.as_bytes()) & 0xffff_ffff_ffff
    )
}

/// The versions a live refresh says the page holds (`have=V.V…`), at
/// most as many as a board shows cards.
pub(crate) fn versions(have: Option<&str>) -> HashSet<&str> {
    have.unwrap_or("")
        .split('.')
        .filter(|v| v.len() == 12 && v.bytes().all(|b| b.is_ascii_hexdigit()))
        .take(super::read::MAX_TASKS)
        .collect()
}

/// The selected card's actions (`part=actions&task=ID`): the forms a
/// card held when it carried them (the rarer ones folded), returning to
/// the board at `ret`.
pub(crate) fn actions(task: &TaskRow, ret: &str) -> Html {
    let mut h = Html::new();
    h.open("div", &[("class", "bar")]);
    forms::task_actions(&mut h, task, ret, false);
    h.close("div");
    h
}

/// One task's card on the board (its labels linking to the board
/// filtered by each, in the same view).
pub(crate) fn write_card(h: &mut Html, c: &Card, now: i64, view: &str) {
    card::open(h, &c.task, true);
    card::labels(h, &c.task, view);
    card::holders(h, &c.task, now);
    wait::write(h, &c.task, now, false);
    card::deps(h, "after", &c.deps);
    card::texts(h, &c.task, c.note_lines);
    h.close("article");
}
