//! One audit event as results carry it, its texts kept in one string: a
//! page of `task_audit get` held an allocation per text of each event, and
//! allocating and freeing them was a quarter of the call's time in the
//! component (BENCHMARKS.md, "reads near the store").

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::stored_json::StoredJson;
use crate::clock::push_ms;
use crate::store::PackedRow;

/// An event's keys, in the order results write them, over any text and
/// data: written from an [`AuditEvent`]'s borrowed texts, read into owned
/// ones. Every key is always present (null when unset).
#[derive(Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
struct Fields<S, D> {
    /// Event id.
    id: Option<S>,
    /// When it happened (RFC 3339).
    at: Option<S>,
    /// Who did it.
    agent_id: Option<S>,
    /// Event kind (`created`, `status_changed`, …).
    kind: Option<S>,
    /// The list concerned.
    list_id: Option<S>,
    /// The task concerned.
    task_id: Option<S>,
    /// Kind-specific details, as stored.
    data: D,
}

/// One audit event: `id`, `at`, `agent_id`, `kind`, `list_id`, `task_id`
/// (each null when unset) and `data`, which depends on the kind.
#[derive(Debug, Clone, Default)]
pub struct AuditEvent {
    /// The texts, one after the other.
    texts: String,
    /// Where each text is in `texts`, in [`Text`]'s order; `None` when
    /// unset.
    spans: [Option<(u32, u32)>; 6],
    /// Kind-specific details, as stored.
    pub data: StoredJson,
}

/// The texts of an event, in [`AuditEvent::spans`]' order.
#[derive(Clone, Copy)]
enum Text {
    Id,
    At,
    AgentId,
    Kind,
    ListId,
    TaskId,
}

impl AuditEvent {
    /// The event in `row`'s columns from `first` on, as the `events` table
    /// holds them: id, at (ms), agent_id, kind, list_id, task_id, data.
    pub fn from_row(row: &PackedRow<'_>, first: usize) -> AuditEvent {
        let texts = [
            (Text::Id, 0),
            (Text::AgentId, 2),
            (Text::Kind, 3),
            (Text::ListId, 4),
            (Text::TaskId, 5),
        ]
        .map(|(text, column)| (text, row.text(first + column)));
        let length: usize = texts.iter().filter_map(|(_, t)| t.map(str::len)).sum();
        let mut event = AuditEvent {
            // A time is 24 bytes.
            texts: String::with_capacity(length + 24),
            spans: [None; 6],
            data: StoredJson::from_stored(row.text(first + 6).map(str::to_owned)),
        };
        for (text, value) in texts {
            if let Some(value) = value {
                event.push(text, |texts| texts.push_str(value));
            }
        }
        if let Some(ms) = row.int(first + 1) {
            event.push(Text::At, |texts| push_ms(texts, ms));
        }
        event
    }

    /// Appends a text with `write` and records where it is.
    fn push(&mut self, text: Text, write: impl FnOnce(&mut String)) {
        let start = self.texts.len();
        write(&mut self.texts);
        // Offsets fit: a row's texts are far under 4 GiB.
        let span = (start as u32, self.texts.len() as u32);
        self.spans[text as usize] = Some(span);
    }

    fn text(&self, text: Text) -> Option<&str> {
        let (start, end) = self.spans[text as usize]?;
        self.texts.get(start as usize..end as usize)
    }

    /// Event id.
    pub fn id(&self) -> Option<&str> {
        self.text(Text::Id)
    }

    /// When it happened (RFC 3339).
    pub fn at(&self) -> Option<&str> {
        self.text(Text::At)
    }

    /// Who did it.
    pub fn agent_id(&self) -> Option<&str> {
        self.text(Text::AgentId)
    }

    /// Event kind (`created`, `status_changed`, …).
    pub fn kind(&self) -> Option<&str> {
        self.text(Text::Kind)
    }

    /// The list concerned.
    pub fn list_id(&self) -> Option<&str> {
        self.text(Text::ListId)
    }

    /// The task concerned.
    pub fn task_id(&self) -> Option<&str> {
        self.text(Text::TaskId)
    }

    /// The event's keys, borrowed.
    fn fields(&self) -> Fields<&str, &StoredJson> {
        Fields {
            id: self.id(),
            at: self.at(),
            agent_id: self.agent_id(),
            kind: self.kind(),
            list_id: self.list_id(),
            task_id: self.task_id(),
            data: &self.data,
        }
    }
}

impl From<Fields<String, StoredJson>> for AuditEvent {
    fn from(f: Fields<String, StoredJson>) -> Self {
        let mut event = AuditEvent {
            data: f.data,
            ..AuditEvent::default()
        };
        let texts = [
            (Text::Id, f.id),
            (Text::At, f.at),
            (Text::AgentId, f.agent_id),
            (Text::Kind, f.kind),
            (Text::ListId, f.list_id),
            (Text::TaskId, f.task_id),
        ];
        for (text, value) in texts {
            if let Some(value) = value {
                event.push(text, |texts| texts.push_str(&value));
            }
        }
        event
    }
}

/// Equal when their keys are (however their texts are laid out).
impl PartialEq for AuditEvent {
    fn eq(&self, other: &Self) -> bool {
        self.fields() == other.fields()
    }
}

impl Serialize for AuditEvent {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.fields().serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for AuditEvent {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Fields::<String, StoredJson>::deserialize(deserializer).map(AuditEvent::from)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn an_event_reads_and_writes_every_key_in_order_null_when_unset() {
        let event: AuditEvent = serde_json::from_value(json!({
            "kind": "status_changed",
            "id": "evt_1",
            "task_id": "",
            "data": {"to": "done"},
        }))
        .unwrap();
        assert_eq!(event.kind(), Some("status_changed"));
        assert_eq!(event.task_id(), Some(""), "an empty text is not unset");
        assert_eq!(event.at(), None);
        assert_eq!(
            serde_json::to_string(&event).unwrap(),
            r#"{"id":"evt_1","at":null,"agent_id":null,"kind":"status_changed","list_id":null,"task_id":"","data":{"to":"done"}}"#
        );
        let back: AuditEvent =
            serde_json::from_str(&serde_json::to_string(&event).unwrap()).unwrap();
        assert_eq!(back, event);
        assert_eq!(
            serde_json::to_string(&AuditEvent::default()).unwrap(),
            r#"{"id":null,"at":null,"agent_id":null,"kind":null,"list_id":null,"task_id":null,"data":null}"#
        );
    }
}
