-- Links to items elsewhere (issue 26): a task's refs, URIs such as
-- github://owner/repo/123 or beads://./bd-x7k9, one per line in their
-- given order (a ref holds no line break: the contract refuses one), NULL
-- for none. A pointer, never a dependency.
ALTER TABLE tasks ADD COLUMN refs TEXT;
