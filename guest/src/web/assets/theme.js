// The theme the person chose on the board (look.js keeps it), on <html>
// before the first paint: loaded blocking, first in the head, and tiny.
try {
  const theme = localStorage.getItem('tasklists-theme');
  if (theme === 'light' || theme === 'dark') document.documentElement.dataset.theme = theme;
} catch (_) { /* storage refused: the system's theme */ }
