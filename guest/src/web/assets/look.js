// The board's theme switch (a part of board.js: see assets.rs). The
// buttons and their words are the component's (page.rs); this keeps the
// person's choice in the browser (theme.js sets it before the first
// paint) and marks the pressed button.
(() => {
  const KEY = 'tasklists-theme';
  const buttons = [...document.querySelectorAll('header.top [data-theme-choice]')];
  if (!buttons.length) return;

  /** The theme chosen: `light`, `dark`, or `system` (none stored). */
  function chosen() {
    try {
      const theme = localStorage.getItem(KEY);
      return theme === 'light' || theme === 'dark' ? theme : 'system';
    } catch (_) {
      return document.documentElement.dataset.theme || 'system';
    }
  }

  /** Shows `theme` on the page and marks its button. */
  function apply(theme) {
    if (theme === 'system') delete document.documentElement.dataset.theme;
    else document.documentElement.dataset.theme = theme;
    for (const b of buttons) b.ariaPressed = String(b.dataset.themeChoice === theme);
  }

  for (const b of buttons) {
    b.addEventListener('click', () => {
      const theme = b.dataset.themeChoice;
      try {
        if (theme === 'system') localStorage.removeItem(KEY);
        else localStorage.setItem(KEY, theme);
      } catch (_) { /* not kept: this page still shows it */ }
      apply(theme);
    });
  }
  // Another tab's choice shows here too.
  window.addEventListener('storage', (event) => {
    if (event.key === KEY || event.key === null) apply(chosen());
  });
  apply(chosen());
})();
