-- The tokens of remote clients (issue 25): `tasklists token add` makes a
-- random token, prints it once and stores only its SHA-256 here, so every
-- server on this database (a team on one PostgreSQL) knows it, and a copy
-- of the database gives no one a token. A request's token is looked up by
-- its digest: finding a row needs the token itself (a preimage of the
-- digest), so the lookup's timing tells a guesser nothing useful.
CREATE TABLE tokens (
    -- The holder: the agent id its requests act as (pinned), and for a
    -- person the person its board and actions act as.
    name TEXT PRIMARY KEY,
    kind TEXT NOT NULL CHECK (kind IN ('agent', 'person')),
    -- 64 lowercase hex characters.
    digest TEXT NOT NULL UNIQUE,
    -- When it was made, in ms.
    created_at BIGINT NOT NULL
)
