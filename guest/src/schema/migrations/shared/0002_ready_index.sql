-- claim_next looks for the first open task by position. Without this index
-- it walks past every done/canceled task at the head of a long list; with
-- it the open tasks of a list are read directly, in position order.
CREATE INDEX tasks_open_by_position ON tasks (list_id, position)
    WHERE deleted_at IS NULL AND status IN ('todo', 'in_progress');
