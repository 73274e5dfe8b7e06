// The board's search and filters (a part of board.js: see assets.rs).
