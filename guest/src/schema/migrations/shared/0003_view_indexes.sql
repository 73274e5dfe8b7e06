-- The widget, the slash commands and their completions run after every
-- tool call and whenever another process writes, so the lists an agent
-- sees must come from indexes: the lists it created (a `custom` list it
-- just made), the tasks assigned to it, and a list's active tasks (paused
-- ones included, which tasks_open_by_position leaves out) by position.
CREATE INDEX lists_by_creator ON lists (created_by_agent_id);
CREATE INDEX tasks_by_assignee ON tasks (assigned_to_agent_id, list_id);
CREATE INDEX tasks_active_by_position ON tasks (list_id, position)
    WHERE deleted_at IS NULL AND status IN ('todo', 'in_progress', 'blocked');
