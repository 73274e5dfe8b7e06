// The board's drag and drop of cards (a part of board.js: see assets.rs).
// A task's card is dragged by mouse, pen or touch (Pointer Events: a touch
// drags after a short press, so a swipe still scrolls the page), with a
// placeholder where it would land; Esc cancels, a drop outside any column
// does nothing. What a drop does is the page's drop map (`#drops`, written
// by the component: drop.rs): within a column or the order view its
// `data-within` verb (move) to the place dropped at; onto another column
// the verb its rule names, run as that verb's key runs it (the card's own
// form, the same questions), or its refusal's words, and nothing changes.
'use strict';

(() => {
  const board = window.tasklistsBoard;
  if (!board) return;
  const { main } = board;
  /** How long a touch presses before the card follows it (ms). */
  const HOLD_MS = 300;
  /** How far a pointer moves before it drags (px); a touch moving so first scrolls. */
  const SLOP = 6;
  /** How near the edge of the window (or of a column that scrolls) a drag scrolls it (px). */
  const EDGE = 48;
  const HOMES = 'section.column, section.order';

  /** The drop map, where the person may act (else nothing drags). */
  function drops() {
    return main.querySelector('#drops');
  }

  /** The key of a column (`data-column`), or `order` for the order view. */
  function keyOf(section) {
    return section.dataset.column || 'order';
  }

  /** Task `id`'s card on the page as it is now. */
  function cardOf(id) {
    return main.querySelector(`article.task[data-task="${CSS.escape(id)}"]`);
  }

  /** A card's position in its list (the number its head shows). */
  function positionOf(card) {
    if (card.dataset.pos) return Number(card.dataset.pos);
    const shown = card.querySelector('.pos');
    const digits = shown ? shown.textContent.match(/\d+/) : null;
    return digits ? Number(digits[0]) : NaN;
  }

  /** The rule of a drop from column `from` onto `to`: its template in the map, or null. */
  function ruleOf(from, to) {
    const map = drops();
    if (!map) return null;
    return map.querySelector(`template[data-from="${CSS.escape(from)}"][data-to="${CSS.escape(to)}"]`);
  }

  /** Whether a drop from `from` onto `to` runs a verb (a drop within always does). */
  function allowed(from, to) {
    if (from === to) return true;
    const rule = ruleOf(from, to);
    return !!rule && !!rule.dataset.verb;
  }

  // ---- following the pointer ----------------------------------------------

  let pending = null; // a press on a card that may become a drag
  let drag = null; // the drag under way
  let swallowClick = false;

  main.addEventListener('pointerdown', (event) => {
    if (drag || pending || !event.isPrimary || !drops()) return;
    if (event.pointerType === 'mouse' && event.button !== 0) return;
    const card = event.target.closest('article.task[data-task]');
    if (!card || !card.closest(HOMES)) return;
    // Its links, buttons and forms keep their own press.
    if (event.target.closest('a, button, input, textarea, select, summary, label, form, .bar')) return;
    pending = {
      id: card.dataset.task,
      pointerId: event.pointerId,
      x: event.clientX,
      y: event.clientY,
      touch: event.pointerType === 'touch',
      timer: null,
    };
    if (pending.touch) {
      const press = pending;
      press.timer = setTimeout(() => {
        if (pending === press) start(press.x, press.y);
      }, HOLD_MS);
    }
  });

  function dropPending() {
    if (pending && pending.timer) clearTimeout(pending.timer);
    pending = null;
  }

  window.addEventListener('pointermove', (event) => {
    if (pending && event.pointerId === pending.pointerId) {
      const far = Math.hypot(event.clientX - pending.x, event.clientY - pending.y) > SLOP;
      if (!far) return;
      // A touch that moves before its press is a scroll; a mouse drags.
      if (pending.touch) dropPending();
      else start(event.clientX, event.clientY);
      return;
    }
    if (drag && event.pointerId === drag.pointerId) follow(event.clientX, event.clientY);
  });

  window.addEventListener('pointerup', (event) => {
    if (pending && event.pointerId === pending.pointerId) dropPending();
    if (drag && event.pointerId === drag.pointerId) {
      follow(event.clientX, event.clientY);
      finish();
    }
  });

  window.addEventListener('pointercancel', (event) => {
    if (pending && event.pointerId === pending.pointerId) dropPending();
    if (drag && event.pointerId === drag.pointerId) stop();
  });

  // While a card follows a finger the page does not scroll under it, and a
  // long press opens no menu.
  document.addEventListener('touchmove', (event) => {
    if (drag) event.preventDefault();
  }, { passive: false });
  window.addEventListener('contextmenu', (event) => {
    if (drag || (pending && pending.touch)) event.preventDefault();
  });

  // A mouse pressed on a card drags it rather than selecting its text.
  document.addEventListener('selectstart', (event) => {
    if (drag || (pending && !pending.touch)) event.preventDefault();
  });

  // The click that ends a mouse drag selects nothing and follows no link.
  window.addEventListener('click', (event) => {
    if (!swallowClick) return;
    swallowClick = false;
    event.preventDefault();
    event.stopPropagation();
  }, true);

  // Esc cancels a drag (before the board's keys see it); the drop's
  // question takes its own keys.
  window.addEventListener('keydown', (event) => {
    if (drag && event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      stop();
      return;
    }
    if (document.querySelector('dialog.drop-ask[open]')) event.stopPropagation();
  }, true);

  /** The press of `pending` becomes a drag at (x, y): the card follows the pointer. */
  function start(x, y) {
    const press = pending;
    dropPending();
    const card = cardOf(press.id);
    const home = card && card.closest(HOMES);
    if (!home) return;
    const rect = card.getBoundingClientRect();
    const ghost = card.cloneNode(true);
    ghost.classList.add('drag-ghost');
    ghost.classList.remove('selected');
    ghost.removeAttribute('tabindex');
    ghost.removeAttribute('data-task');
    ghost.removeAttribute('data-v');
    ghost.setAttribute('aria-hidden', 'true');
    for (const bar of ghost.querySelectorAll('.bar')) bar.remove();
    ghost.style.width = `${rect.width}px`;
    document.body.append(ghost);
    const place = document.createElement('div');
    place.className = 'drop-place';
    place.style.height = `${rect.height}px`;
    card.after(place);
    card.classList.add('drag-source');
    document.body.classList.add('dragging');
    const selection = window.getSelection();
    if (selection) selection.removeAllRanges();
    try {
      main.setPointerCapture(press.pointerId);
    } catch (_) {
      // The pointer is gone already: its up or cancel ends the drag.
    }
    drag = {
      id: press.id,
      pointerId: press.pointerId,
      from: keyOf(home),
      ghost,
      place,
      dx: press.x - rect.left,
      dy: press.y - rect.top,
      x,
      y,
      target: home,
      frame: 0,
    };
    follow(x, y);
    drag.frame = requestAnimationFrame(scroll);
  }

  /** The cards of `section` a drop of task `id` lands among (its own left out). */
  function others(section, id) {
    return [...section.querySelectorAll(':scope > article.task[data-task]')]
      .filter((c) => c.dataset.task !== id);
  }

  /** Moves the ghost to (x, y) and the placeholder where a drop there would land. */
  function follow(x, y) {
    drag.x = x;
    drag.y = y;
    drag.ghost.style.transform = `translate(${x - drag.dx}px, ${y - drag.dy}px)`;
    const under = document.elementFromPoint(x, y);
    const section = under && main.contains(under) ? under.closest(HOMES) : null;
    // A refresh may have put a new card in the dragged one's place: hide it too.
    const card = cardOf(drag.id);
    if (card) card.classList.add('drag-source');
    if (!section) {
      drag.place.remove();
      drag.target = null;
      mark(null);
      return;
    }
    const cards = others(section, drag.id);
    const next = cards.find((c) => {
      const r = c.getBoundingClientRect();
      return y < r.top + r.height / 2;
    });
    if (next) {
      if (drag.place.nextElementSibling !== next) next.before(drag.place);
    } else if (cards.length) {
      const last = cards[cards.length - 1];
      if (last.nextElementSibling !== drag.place) last.after(drag.place);
    } else if (drag.place.parentNode !== section) {
      section.append(drag.place);
    }
    drag.target = section;
    mark(section);
  }

  /** Marks the column a drop would land on as taking it or refusing it. */
  function mark(section) {
    for (const el of main.querySelectorAll('.drop-ok, .drop-refused')) {
      if (el !== section) el.classList.remove('drop-ok', 'drop-refused');
    }
    if (!section) return;
    const ok = allowed(drag.from, keyOf(section));
    section.classList.toggle('drop-ok', ok);
    section.classList.toggle('drop-refused', !ok);
  }

  /** Scrolls the window (and a column that scrolls) while the pointer is near their edge. */
  function scroll() {
    if (!drag) return;
    const step = (at, low, high) => (at < low + EDGE ? -12 : at > high - EDGE ? 12 : 0);
    const dy = step(drag.y, 0, window.innerHeight);
    if (dy) window.scrollBy(0, dy);
    const section = drag.target;
    if (section && section.scrollHeight > section.clientHeight + 1) {
      const r = section.getBoundingClientRect();
      const inner = step(drag.y, r.top, r.bottom);
      if (inner) section.scrollTop += inner;
    }
    if (dy) follow(drag.x, drag.y);
    drag.frame = requestAnimationFrame(scroll);
  }

  /** Ends the drag, changing nothing; returns where it was to land. */
  function stop() {
    if (!drag) return null;
    const d = drag;
    drag = null;
    cancelAnimationFrame(d.frame);
    const landed = { target: d.target, before: null, after: null };
    if (d.target && d.place.parentNode === d.target) {
      const cards = others(d.target, d.id);
      landed.after = cards.filter((c) => c.compareDocumentPosition(d.place) & Node.DOCUMENT_POSITION_FOLLOWING).pop() || null;
      landed.before = cards.find((c) => c.compareDocumentPosition(d.place) & Node.DOCUMENT_POSITION_PRECEDING) || null;
    } else {
      landed.target = null;
    }
    d.ghost.remove();
    d.place.remove();
    mark(null);
    for (const el of main.querySelectorAll('.drag-source')) el.classList.remove('drag-source');
    document.body.classList.remove('dragging');
    return { ...landed, id: d.id, from: d.from };
  }

  /** The drop: what the map says, sent as the person's action. */
  function finish() {
    const landed = stop();
    swallowClick = true;
    setTimeout(() => {
      swallowClick = false;
    }, 0);
    if (!landed || !landed.target) return; // outside any column: nothing
    const to = keyOf(landed.target);
    if (to === landed.from) within(landed);
    else onto(landed, to);
  }

  // ---- what a drop runs ---------------------------------------------------

  /** The page's own address: what an action returns to. */
  function here() {
    return window.location.pathname + window.location.search;
  }

  /** A form of the person's action `verb` on task `id` with `fields`, sent as the board's forms are. */
  function formOf(verb, id, fields) {
    const form = document.createElement('form');
    form.className = 'act';
    form.dataset.action = verb;
    const all = { action: verb, target: id, return: here(), ...fields };
    for (const [name, value] of Object.entries(all)) {
      const input = document.createElement('input');
      input.type = 'hidden';
      input.name = name;
      input.value = String(value);
      form.append(input);
    }
    return form;
  }

  /**
   * A drop within its column (or the order view): the map's verb (move)
   * to the position that puts the card right after the card above where
   * it landed (or right before the one below).
   */
  function within({ id, before, after }) {
    const card = cardOf(id);
    const verb = drops() && drops().dataset.within;
    if (!card || !verb) return;
    const mine = positionOf(card);
    let to = NaN;
    if (after) {
      const p = positionOf(after);
      to = p < mine ? p + 1 : p;
    } else if (before) {
      const n = positionOf(before);
      to = n < mine ? n : n - 1;
    }
    if (!Number.isFinite(to) || !Number.isFinite(mine) || to === mine) return;
    board.select(card);
    board.send(formOf(verb, id, { to }), false);
  }

  /** A drop onto another column: its rule's verb, or its refusal's words. */
  async function onto({ id, from }, to) {
    const rule = ruleOf(from, to);
    if (!rule) return;
    const verb = rule.dataset.verb;
    if (!verb) {
      board.show(rule.innerHTML, true); // the component's words, escaped by it
      return;
    }
    let card = cardOf(id);
    if (!card) return;
    board.select(card);
    await board.barOf(card);
    card = cardOf(id);
    const form = card && card.querySelector(`form.act[data-action="${CSS.escape(verb)}"]`);
    if (!form) {
      // The card offers no such action now: the component says why.
      board.send(formOf(verb, id, {}), false);
      return;
    }
    const fields = [...form.querySelectorAll('input[type=text], textarea')];
    if (!fields.length) {
      // As its key runs it: the component's question first where it asks.
      form.requestSubmit();
      return;
    }
    const title = card.querySelector('.title');
    const answers = await ask(verb, fields.map((f) => f.name), title ? title.textContent : '');
    if (!answers) return; // the question was dismissed: nothing changes
    const now = cardOf(id);
    const again = now && now.querySelector(`form.act[data-action="${CSS.escape(verb)}"]`);
    const target = again || form;
    for (const field of target.querySelectorAll('input[type=text], textarea')) {
      if (field.name in answers) field.value = answers[field.name];
    }
    board.send(again ? target : formOf(verb, id, answers), false);
  }

  /**
   * Asks what `verb`'s drop needs (`names`: the fields its form on the card
   * holds) in the map's dialog, about the card titled `title`; resolves to
   * the answers by field, or null when dismissed.
   */
  function ask(verb, names, title) {
    const words = drops() && drops().querySelector(`template.drop-ask[data-verb="${CSS.escape(verb)}"]`);
    if (!words) return Promise.resolve(null);
    const dialog = document.createElement('dialog');
    dialog.className = 'ask drop-ask';
    dialog.append(words.content.cloneNode(true));
    for (const label of dialog.querySelectorAll('label[data-field]')) {
      if (!names.includes(label.dataset.field)) label.remove();
    }
    for (const what of dialog.querySelectorAll('.what')) what.textContent = title;
    const first = dialog.querySelector('.prompt');
    if (first) {
      first.id = 'drop-ask-prompt';
      dialog.setAttribute('aria-labelledby', first.id);
    }
    document.body.append(dialog);
    return new Promise((resolve) => {
      dialog.addEventListener('close', () => {
        const answers = {};
        for (const input of dialog.querySelectorAll('input[name]')) answers[input.name] = input.value;
        const yes = dialog.returnValue === 'yes';
        dialog.remove();
        resolve(yes ? answers : null);
      }, { once: true });
      dialog.showModal();
    });
  }
})();
