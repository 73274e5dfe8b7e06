// The board's the theme switch and the reading aids (a part of board.js: see assets.rs).
