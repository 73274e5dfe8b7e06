-- Labels (issue 36): a task's short words naming a role, a skill or a
-- kind of work (`backend`, `gt:merge-request`), one per line in their
-- given order (a label holds no line break: the contract admits only
-- ASCII letters, digits and - _ . : / @ + #), NULL for none. Filtered by
-- task_lists get's label and asked for by claim_next's labels.
ALTER TABLE tasks ADD COLUMN labels TEXT;
