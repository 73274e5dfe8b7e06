-- The person steers (issue 22): priority, plans a person approves, and
-- steps with their verification.
--
-- A task's priority is a rank, so that claim_next orders by it directly:
-- 0 high, 1 medium (the default), 2 low.
ALTER TABLE tasks ADD COLUMN priority INTEGER NOT NULL DEFAULT 1 CHECK (priority IN (0, 1, 2));
-- How to check the task is done, and what the check showed when it closed.
ALTER TABLE tasks ADD COLUMN verification TEXT;
ALTER TABLE tasks ADD COLUMN verification_result TEXT;
-- 1 for a task added to an approved list: not claimable until a person
-- approves it (or the list again).
ALTER TABLE tasks ADD COLUMN awaits_approval INTEGER NOT NULL DEFAULT 0 CHECK (awaits_approval IN (0, 1));
-- The title the person approved (NULL: never approved). What changed since
-- approval is read from it: retitled (title differs), removed (deleted
-- with one), added (awaits_approval).
ALTER TABLE tasks ADD COLUMN approved_title TEXT;
-- NULL: the list needs no approval. Otherwise where its plan stands, the
-- person's note or rejection reason, who decided and when.
ALTER TABLE lists ADD COLUMN approval TEXT CHECK (approval IN ('pending', 'approved', 'rejected'));
ALTER TABLE lists ADD COLUMN approval_note TEXT;
ALTER TABLE lists ADD COLUMN approval_by TEXT;
-- A time in ms: BIGINT, as every time column (PostgreSQL's INTEGER is
-- 32 bits; SQLite reads BIGINT as INTEGER).
ALTER TABLE lists ADD COLUMN approval_at BIGINT;
-- claim_next now picks by priority, then position: the open tasks' index
-- follows that order.
DROP INDEX tasks_open_by_position;
CREATE INDEX tasks_open_by_priority ON tasks (list_id, priority, position)
    WHERE deleted_at IS NULL AND status IN ('todo', 'in_progress');
