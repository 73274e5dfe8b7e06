// The board's editing every field of a task, and the full create form (a part of board.js: see assets.rs).
// The forms are the component's (edit_form.rs) and work without script;
// this only fetches the "New task" fold's suggestions when it opens (the
// component's datalists), keeps the fold open across live refreshes, and
// sends a form from its text box on Ctrl+Enter.
(() => {
  const board = window.tasklistsBoard;
  if (!board) return;
  const { main } = board;
  const FOLD = 'details.new-task';
  // Whether the person opened the fold: a refresh redraws it closed.
  let open = false;

  /** Puts the list's datalists, as the component wrote them, in the fold. */
  async function suggest(fold) {
    const into = fold.querySelector('.suggest');
    if (!into) return;
    try {
      const address = `${window.location.pathname}?part=suggest`;
      const answer = await fetch(address, { credentials: 'same-origin' });
      const type = answer.headers.get('content-type') || '';
      if (!answer.ok || !type.startsWith('text/html')) return;
      const html = await answer.text();
      if (fold.isConnected) into.innerHTML = html; // the component escaped it
    } catch (_) {
      // No suggestions: the fields still take ids as typed.
    }
  }

  main.addEventListener('toggle', (event) => {
    const fold = event.target;
    if (!(fold instanceof HTMLElement) || !fold.matches(FOLD)) return;
    open = fold.open;
    if (open) suggest(fold);
  }, true);

  // A live refresh replaces the fold: open again, suggesting again.
  new MutationObserver(() => {
    if (!open) return;
    const fold = main.querySelector(FOLD);
    if (fold && !fold.open) fold.open = true;
  }).observe(main, { childList: true, subtree: true });

  // Ctrl+Enter (⌘+Enter) in a text box sends its form; Enter keeps its line break.
  main.addEventListener('keydown', (event) => {
    if (event.key !== 'Enter' || !(event.ctrlKey || event.metaKey)) return;
    const box = event.target;
    if (!(box instanceof HTMLTextAreaElement) || !box.form || !box.form.matches('form.act')) return;
    event.preventDefault();
    box.form.requestSubmit();
  });
})();
