-- Each list keeps how many of its live (not deleted) tasks are in each
-- status, and when any of its tasks last changed, kept by triggers in the
-- same transaction as the change itself. `find`, `get` and the views read
-- counts in O(1) instead of counting every task, and no action spends a
-- statement on "touching" its list: the database does it as part of the
-- task write.
ALTER TABLE lists ADD COLUMN todo_count INTEGER NOT NULL DEFAULT 0;
ALTER TABLE lists ADD COLUMN in_progress_count INTEGER NOT NULL DEFAULT 0;
ALTER TABLE lists ADD COLUMN blocked_count INTEGER NOT NULL DEFAULT 0;
ALTER TABLE lists ADD COLUMN done_count INTEGER NOT NULL DEFAULT 0;
ALTER TABLE lists ADD COLUMN canceled_count INTEGER NOT NULL DEFAULT 0;

UPDATE lists SET
    todo_count = (SELECT COUNT(*) FROM tasks t WHERE t.list_id = lists.id AND t.deleted_at IS NULL AND t.status = 'todo'),
    in_progress_count = (SELECT COUNT(*) FROM tasks t WHERE t.list_id = lists.id AND t.deleted_at IS NULL AND t.status = 'in_progress'),
    blocked_count = (SELECT COUNT(*) FROM tasks t WHERE t.list_id = lists.id AND t.deleted_at IS NULL AND t.status = 'blocked'),
    done_count = (SELECT COUNT(*) FROM tasks t WHERE t.list_id = lists.id AND t.deleted_at IS NULL AND t.status = 'done'),
    canceled_count = (SELECT COUNT(*) FROM tasks t WHERE t.list_id = lists.id AND t.deleted_at IS NULL AND t.status = 'canceled');

CREATE TRIGGER tasks_count_insert AFTER INSERT ON tasks
BEGIN
    UPDATE lists SET
        todo_count = todo_count + (NEW.deleted_at IS NULL AND NEW.status = 'todo'),
        in_progress_count = in_progress_count + (NEW.deleted_at IS NULL AND NEW.status = 'in_progress'),
        blocked_count = blocked_count + (NEW.deleted_at IS NULL AND NEW.status = 'blocked'),
        done_count = done_count + (NEW.deleted_at IS NULL AND NEW.status = 'done'),
        canceled_count = canceled_count + (NEW.deleted_at IS NULL AND NEW.status = 'canceled')
    WHERE id = NEW.list_id;
END;

-- Only for a change of what the counters count (a renumbering of
-- positions or a note leaves them alone), and not in a deleted list:
-- deleting a list marks it deleted first, deletes its active tasks in one
-- statement and counts what is left once (`task_lists delete`), instead
-- of one counter update per task.
CREATE TRIGGER tasks_count_update AFTER UPDATE ON tasks
WHEN (OLD.status IS NOT NEW.status OR OLD.deleted_at IS NOT NEW.deleted_at)
    AND (SELECT l.deleted_at FROM lists l WHERE l.id = NEW.list_id) IS NULL
BEGIN
    UPDATE lists SET
        todo_count = todo_count - (OLD.deleted_at IS NULL AND OLD.status = 'todo') + (NEW.deleted_at IS NULL AND NEW.status = 'todo'),
        in_progress_count = in_progress_count - (OLD.deleted_at IS NULL AND OLD.status = 'in_progress') + (NEW.deleted_at IS NULL AND NEW.status = 'in_progress'),
        blocked_count = blocked_count - (OLD.deleted_at IS NULL AND OLD.status = 'blocked') + (NEW.deleted_at IS NULL AND NEW.status = 'blocked'),
        done_count = done_count - (OLD.deleted_at IS NULL AND OLD.status = 'done') + (NEW.deleted_at IS NULL AND NEW.status = 'done'),
        canceled_count = canceled_count - (OLD.deleted_at IS NULL AND OLD.status = 'canceled') + (NEW.deleted_at IS NULL AND NEW.status = 'canceled')
    WHERE id = NEW.list_id;
END;

CREATE TRIGGER tasks_count_delete AFTER DELETE ON tasks
BEGIN
    UPDATE lists SET
        todo_count = todo_count - (OLD.deleted_at IS NULL AND OLD.status = 'todo'),
        in_progress_count = in_progress_count - (OLD.deleted_at IS NULL AND OLD.status = 'in_progress'),
        blocked_count = blocked_count - (OLD.deleted_at IS NULL AND OLD.status = 'blocked'),
        done_count = done_count - (OLD.deleted_at IS NULL AND OLD.status = 'done'),
        canceled_count = canceled_count - (OLD.deleted_at IS NULL AND OLD.status = 'canceled')
    WHERE id = OLD.list_id;
END;

-- The list's "last changed" follows its tasks'. Written only when it
-- moves forward: `updated_at` is indexed (lists_by_update), and a
-- statement that changes many tasks at once moves it once, not per task.
CREATE TRIGGER tasks_touch_insert AFTER INSERT ON tasks
WHEN NEW.updated_at > (SELECT l.updated_at FROM lists l WHERE l.id = NEW.list_id)
BEGIN
    UPDATE lists SET updated_at = NEW.updated_at WHERE id = NEW.list_id;
END;

CREATE TRIGGER tasks_touch_update AFTER UPDATE ON tasks
WHEN NEW.updated_at > (SELECT l.updated_at FROM lists l WHERE l.id = NEW.list_id)
BEGIN
    UPDATE lists SET updated_at = NEW.updated_at WHERE id = NEW.list_id;
END;
