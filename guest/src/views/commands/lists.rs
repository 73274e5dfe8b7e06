//! `task-lists [full]`: the lists a person sees (as every person's surface
//! shows them: awaiting a decision first), name and full id aligned (to
//! find an id fast and paste it), or their JSON metadata with counts.

use super::{Run, note, usage_error};
use crate::actions::lists::ListWithCounts;
use crate::bindings::CommandEffect;
use crate::model::ListRow;
use crate::render::table::{Table, cell};
use crate::render::{Line, Style, fmt};
use crate::results::{self, ListJson};
use crate::views::layout::json_lines;
use crate::views::read::{self, Viewer};
use crate::views::visible::{self, MAX_LISTS, Visible};

/// Runs `task-lists` with its words.
pub(crate) fn run(words: &[&str], run: &Run) -> CommandEffect {
    let full = match words {
        [] => false,
        ["full"] => true,
        _ => {
            return run.fail(&usage_error(
                "task-lists",
                format!(
                    "task-lists takes only `full`, not {}",
                    crate::text::quote(&words.join(" "))
                ),
            ));
        }
    };
    let loaded = Viewer::new(run.ctx, run.clock)
        .and_then(|viewer| read::read(run.store, |tx| visible::all_lists(tx, &viewer)));
    let visible = match loaded {
        Ok(x) => x,
        Err(e) => return run.fail(&e),
    };
    if visible.lists.is_empty() {
        return run.show(nothing_here());
    }
    let mut lines = if full {
        let lists: Vec<ListWithCounts> = visible
            .lists
            .iter()
            .map(|l| ListWithCounts {
                list: ListJson::from(l),
                counts: l.counts,
            })
            .collect();
        json_lines(
            &serde_json::json!({"lists": results::to_json(&lists)}),
            run.width,
        )
    } else {
        table(&visible.lists, run.width)
    };
    lines.extend(more(&visible));
    run.show(lines)
}

/// `Name  list_…` rows: the id is never cut (it is what the user copies),
/// the name yields.
fn table(lists: &[ListRow], width: usize) -> Vec<Line> {
    let id_width = lists.iter().map(|l| fmt::width(&l.id)).max().unwrap_or(0);
    let name_room = width.saturating_sub(id_width + 2).max(3);
    let mut t = Table::new(&[]);
    for l in lists {
        let name = fmt::nonblank(&l.name).unwrap_or("(unnamed)");
        t.row(vec![
            cell(fmt::truncate(name, name_room.min(60)), Style::Accent),
            cell(&l.id, Style::Muted),
        ]);
    }
    t.lines()
}

/// The pointer past the [`MAX_LISTS`] lists shown.
fn more(visible: &Visible) -> Option<Line> {
    visible.more.then(|| {
        note(format!(
            "the {MAX_LISTS} most recently updated lists are shown; task_lists find pages through all of them"
        ))
    })
}

/// What `task-lists` and `tasks` say when no list is visible.
pub(crate) fn nothing_here() -> Vec<Line> {
    vec![
        note("no task list visible"),
        note("  task_lists create makes one"),
    ]
}
