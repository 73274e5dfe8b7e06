// The board's drag and drop of cards (a part of board.js: see assets.rs).
