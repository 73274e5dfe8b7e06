-- A task's change of status (and of its "last changed") updates its
-- list's row: the counters and `updated_at` of 0004. That row's lock is
-- then held until the transaction ends; on PostgreSQL, across a network,
-- that is one more round trip, and every claim and close on the list
-- queued behind it: one list did about one claim per round trip,
-- whatever the number of agents (issue 24). The same triggers, made
-- constraint triggers that a transaction may defer to its COMMIT
-- (`SET CONSTRAINTS ALL DEFERRED`, which a claim and a change of one
-- task's own fields send with their lock): the row is then locked only
-- while the COMMIT runs, on the server, with no round trip inside.
-- Initially immediate: every other write sees the counters follow each
-- statement, as before. SQLite, with one writer at a time, keeps 0004.
DROP TRIGGER tasks_count_update ON tasks;
CREATE CONSTRAINT TRIGGER tasks_count_update AFTER UPDATE ON tasks
    DEFERRABLE INITIALLY IMMEDIATE
    FOR EACH ROW
    WHEN (OLD.status IS DISTINCT FROM NEW.status OR OLD.deleted_at IS DISTINCT FROM NEW.deleted_at)
    EXECUTE FUNCTION tasks_count_update();
DROP TRIGGER tasks_touch_update ON tasks;
CREATE CONSTRAINT TRIGGER tasks_touch_update AFTER UPDATE ON tasks
    DEFERRABLE INITIALLY IMMEDIATE
    FOR EACH ROW EXECUTE FUNCTION tasks_touch_list();
