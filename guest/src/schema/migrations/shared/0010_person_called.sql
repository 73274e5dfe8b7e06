-- The person is called (issue 37): questions an agent asks its person,
-- review at the finish, and the notifications already sent.
--
-- What a task waits on a person for, while it does (its status is then
-- blocked): 'answer' (its agent asked a question) or 'review' (its agent
-- closed it as done and a person accepts or returns it). NULL: nothing.
ALTER TABLE tasks ADD COLUMN waits_on TEXT CHECK (waits_on IN ('answer', 'review'));
-- The last question asked on the task and its answer, as one JSON object
-- ({"question", "by", "at", "answer"?, "answered_by"?, "answered_at"?}),
-- read and written only whole by the component. NULL: never asked.
ALTER TABLE tasks ADD COLUMN ask TEXT;
-- The last review of the task, as one JSON object ({"state": "pending" |
-- "accepted" | "returned", "by"?, "at", "reason"?}). NULL: never reviewed.
ALTER TABLE tasks ADD COLUMN review TEXT;
-- 1: closing the task as done sends it to review first.
ALTER TABLE tasks ADD COLUMN requires_review INTEGER NOT NULL DEFAULT 0 CHECK (requires_review IN (0, 1));
-- The agent an answered or returned task goes back to first: its next
-- claim_next in the list hands it out before any other ready task.
ALTER TABLE tasks ADD COLUMN resume_for TEXT;
-- 1: every task created in the list requires review.
ALTER TABLE lists ADD COLUMN requires_review INTEGER NOT NULL DEFAULT 0 CHECK (requires_review IN (0, 1));
-- The inbox reads the tasks waiting on a person; claim_next the tasks
-- handed back to an agent: both few, both partial indexes.
CREATE INDEX tasks_waiting ON tasks (waits_on, list_id) WHERE waits_on IS NOT NULL AND deleted_at IS NULL;
CREATE INDEX tasks_resumed ON tasks (resume_for, list_id) WHERE resume_for IS NOT NULL;
-- The inbox entries a notifier already sent, per channel (a webhook's
-- URL, the desktop): nothing is sent twice, across restarts.
CREATE TABLE notices (
    channel TEXT NOT NULL,
    entry TEXT NOT NULL,
    sent_at BIGINT NOT NULL,
    PRIMARY KEY (channel, entry)
);
-- A person's settings for every surface of the database (the inbox's
-- stalled threshold, `stalled_after_minutes`).
CREATE TABLE settings (
    name TEXT PRIMARY KEY,
    value TEXT NOT NULL,
    set_by TEXT,
    set_at BIGINT
);
