-- The PostgreSQL dialect of sqlite/0004_list_counters.sql: each list keeps
-- how many of its live (not deleted) tasks are in each status, and when
-- any of its tasks last changed, kept by triggers in the same transaction
-- as the change itself. The triggers are plpgsql functions; PostgreSQL's
-- trigger WHEN clause takes no subqueries, so the checks on the list move
-- into the bodies, and a boolean counts as `::int`.
ALTER TABLE lists ADD COLUMN todo_count BIGINT NOT NULL DEFAULT 0;
ALTER TABLE lists ADD COLUMN in_progress_count BIGINT NOT NULL DEFAULT 0;
ALTER TABLE lists ADD COLUMN blocked_count BIGINT NOT NULL DEFAULT 0;
ALTER TABLE lists ADD COLUMN done_count BIGINT NOT NULL DEFAULT 0;
ALTER TABLE lists ADD COLUMN canceled_count BIGINT NOT NULL DEFAULT 0;

UPDATE lists SET
    todo_count = (SELECT COUNT(*) FROM tasks t WHERE t.list_id = lists.id AND t.deleted_at IS NULL AND t.status = 'todo'),
    in_progress_count = (SELECT COUNT(*) FROM tasks t WHERE t.list_id = lists.id AND t.deleted_at IS NULL AND t.status = 'in_progress'),
    blocked_count = (SELECT COUNT(*) FROM tasks t WHERE t.list_id = lists.id AND t.deleted_at IS NULL AND t.status = 'blocked'),
    done_count = (SELECT COUNT(*) FROM tasks t WHERE t.list_id = lists.id AND t.deleted_at IS NULL AND t.status = 'done'),
    canceled_count = (SELECT COUNT(*) FROM tasks t WHERE t.list_id = lists.id AND t.deleted_at IS NULL AND t.status = 'canceled');

CREATE FUNCTION tasks_count_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE lists SET
        todo_count = todo_count + (NEW.deleted_at IS NULL AND NEW.status = 'todo')::int,
        in_progress_count = in_progress_count + (NEW.deleted_at IS NULL AND NEW.status = 'in_progress')::int,
        blocked_count = blocked_count + (NEW.deleted_at IS NULL AND NEW.status = 'blocked')::int,
        done_count = done_count + (NEW.deleted_at IS NULL AND NEW.status = 'done')::int,
        canceled_count = canceled_count + (NEW.deleted_at IS NULL AND NEW.status = 'canceled')::int
    WHERE id = NEW.list_id;
    RETURN NULL;
END
$$;
CREATE TRIGGER tasks_count_insert AFTER INSERT ON tasks
    FOR EACH ROW EXECUTE FUNCTION tasks_count_insert();

-- Only for a change of what the counters count, and not in a deleted
-- list (`task_lists delete` counts what is left once).
CREATE FUNCTION tasks_count_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE lists SET
        todo_count = todo_count - (OLD.deleted_at IS NULL AND OLD.status = 'todo')::int + (NEW.deleted_at IS NULL AND NEW.status = 'todo')::int,
        in_progress_count = in_progress_count - (OLD.deleted_at IS NULL AND OLD.status = 'in_progress')::int + (NEW.deleted_at IS NULL AND NEW.status = 'in_progress')::int,
        blocked_count = blocked_count - (OLD.deleted_at IS NULL AND OLD.status = 'blocked')::int + (NEW.deleted_at IS NULL AND NEW.status = 'blocked')::int,
        done_count = done_count - (OLD.deleted_at IS NULL AND OLD.status = 'done')::int + (NEW.deleted_at IS NULL AND NEW.status = 'done')::int,
        canceled_count = canceled_count - (OLD.deleted_at IS NULL AND OLD.status = 'canceled')::int + (NEW.deleted_at IS NULL AND NEW.status = 'canceled')::int
    WHERE id = NEW.list_id AND deleted_at IS NULL;
    RETURN NULL;
END
$$;
CREATE TRIGGER tasks_count_update AFTER UPDATE ON tasks
    FOR EACH ROW
    WHEN (OLD.status IS DISTINCT FROM NEW.status OR OLD.deleted_at IS DISTINCT FROM NEW.deleted_at)
    EXECUTE FUNCTION tasks_count_update();

CREATE FUNCTION tasks_count_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE lists SET
        todo_count = todo_count - (OLD.deleted_at IS NULL AND OLD.status = 'todo')::int,
        in_progress_count = in_progress_count - (OLD.deleted_at IS NULL AND OLD.status = 'in_progress')::int,
        blocked_count = blocked_count - (OLD.deleted_at IS NULL AND OLD.status = 'blocked')::int,
        done_count = done_count - (OLD.deleted_at IS NULL AND OLD.status = 'done')::int,
        canceled_count = canceled_count - (OLD.deleted_at IS NULL AND OLD.status = 'canceled')::int
    WHERE id = OLD.list_id;
    RETURN NULL;
END
$$;
CREATE TRIGGER tasks_count_delete AFTER DELETE ON tasks
    FOR EACH ROW EXECUTE FUNCTION tasks_count_delete();

-- The list's "last changed" follows its tasks', written only when it moves
-- forward (`updated_at` is indexed).
CREATE FUNCTION tasks_touch_list() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE lists SET updated_at = NEW.updated_at
    WHERE id = NEW.list_id AND updated_at < NEW.updated_at;
    RETURN NULL;
END
$$;
CREATE TRIGGER tasks_touch_insert AFTER INSERT ON tasks
    FOR EACH ROW EXECUTE FUNCTION tasks_touch_list();
CREATE TRIGGER tasks_touch_update AFTER UPDATE ON tasks
    FOR EACH ROW EXECUTE FUNCTION tasks_touch_list();
