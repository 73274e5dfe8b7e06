-- Lists, tasks, dependencies and the audit log. Times are integer
-- milliseconds since the Unix epoch (UTC), from the host clock.
CREATE TABLE lists (
    id                  TEXT PRIMARY KEY,
    name                TEXT NOT NULL,
    -- Unicode-lowercased name, for case-insensitive search without
    -- engine-specific collations.
    name_fold           TEXT NOT NULL,
    scope_type          TEXT NOT NULL CHECK (scope_type IN ('workspace', 'thread', 'agent', 'global', 'custom')),
    scope_key           TEXT NOT NULL DEFAULT '',
    visibility          TEXT NOT NULL CHECK (visibility IN ('private', 'shared')),
    owner_agent_id      TEXT,
    created_by_agent_id TEXT NOT NULL,
    created_at          INTEGER NOT NULL,
    updated_at          INTEGER NOT NULL,
    deleted_at          INTEGER
);
CREATE INDEX lists_by_scope ON lists (scope_type, scope_key, name);
CREATE INDEX lists_by_update ON lists (updated_at, id);

CREATE TABLE tasks (
    id                   TEXT PRIMARY KEY,
    list_id              TEXT NOT NULL REFERENCES lists (id),
    position             INTEGER NOT NULL,
    title                TEXT NOT NULL,
    description          TEXT,
    notes                TEXT,
    status               TEXT NOT NULL CHECK (status IN ('todo', 'in_progress', 'blocked', 'done', 'canceled')),
    assigned_to_agent_id TEXT,
    claimed_by_agent_id  TEXT,
    claim_token          TEXT,
    claim_expires_at     INTEGER,
    lease_ms             INTEGER,
    outcome              TEXT,
    created_at           INTEGER NOT NULL,
    updated_at           INTEGER NOT NULL,
    started_at           INTEGER,
    completed_at         INTEGER,
    deleted_at           INTEGER
);
CREATE INDEX tasks_by_list ON tasks (list_id, position);
CREATE INDEX tasks_by_claimer ON tasks (claimed_by_agent_id, list_id);

CREATE TABLE task_deps (
    task_id       TEXT NOT NULL REFERENCES tasks (id),
    depends_on_id TEXT NOT NULL REFERENCES tasks (id),
    PRIMARY KEY (task_id, depends_on_id)
);
CREATE INDEX task_deps_reverse ON task_deps (depends_on_id);

CREATE TABLE events (
    seq      INTEGER PRIMARY KEY,
    id       TEXT NOT NULL UNIQUE,
    at       INTEGER NOT NULL,
    agent_id TEXT,
    kind     TEXT NOT NULL,
    list_id  TEXT,
    task_id  TEXT,
    data     TEXT NOT NULL
);
CREATE INDEX events_by_list ON events (list_id, seq);
CREATE INDEX events_by_task ON events (task_id, seq);
CREATE INDEX events_by_kind ON events (kind, seq);
