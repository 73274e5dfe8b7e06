// The board's search and filters (a part of board.js: see assets.rs). The
// component writes the search form (a GET form: the address keeps what is
// searched) and decides what it finds; this only moves the person to it:
// Ctrl/⌘K anywhere or `/` (the key map's "find") focus the search box, a
// filter picked sends the form, and a sent form leaves its empty fields
// out of the address.
'use strict';

(() => {
  const board = window.tasklistsBoard;
  if (!board) return;

  /** The page's search box, if it has one. */
  function box() {
    return board.main.querySelector('form.find input[name="q"]');
  }

  /** Puts the keys in the search box, what it holds selected. */
  function focusBox() {
    const input = box();
    if (!input) return false;
    input.focus();
    input.select();
    return true;
  }

  const find = board.keys.find((k) => k.action === 'find');

  document.addEventListener('keydown', (event) => {
    const ask = document.getElementById('ask');
    if (ask && ask.open) return;
    const chord = (event.ctrlKey || event.metaKey) && !event.altKey && !event.shiftKey;
    if (chord && event.key.toLowerCase() === 'k') {
      if (focusBox()) event.preventDefault();
      return;
    }
    if (event.ctrlKey || event.metaKey || event.altKey || !find || event.key !== find.key) return;
    const target = event.target;
    if (target.closest && target.closest('input, textarea, select, [contenteditable]')) return;
    if (focusBox()) event.preventDefault();
  });

  /** The address `form` asks for, without its empty fields. */
  function addressOf(form) {
    const url = new URL(form.action, window.location.href);
    url.search = '';
    for (const [name, value] of new FormData(form)) {
      if (typeof value === 'string' && value.trim() !== '') url.searchParams.append(name, value);
    }
    return url.pathname + url.search;
  }

  document.addEventListener('submit', (event) => {
    const form = event.target.closest('form.find');
    if (!form) return;
    event.preventDefault();
    window.location.assign(addressOf(form));
  });

  // A filter picked (not the typed text) searches at once.
  document.addEventListener('change', (event) => {
    const field = event.target;
    const form = field.closest && field.closest('form.find');
    if (form && field.matches('select, input[type=checkbox]')) form.requestSubmit();
  });
})();
