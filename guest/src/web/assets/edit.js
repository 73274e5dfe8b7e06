// The board's editing every field of a task, and the full create form (a part of board.js: see assets.rs).
