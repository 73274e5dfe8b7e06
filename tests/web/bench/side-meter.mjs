// @ts-check
// What the side-by-side reads from a page, the same way for both boards:
// the bytes it receives (DevTools' Network domain: each response's
// encoded length, headers included, plus live-stream messages and
// WebSocket frames), when its first card is in the DOM and painted (an
// init script timing against the navigation's start), how its cards lay
// out, and a process tree's memory from /proc.

import { readdirSync, readFileSync } from "node:fs";
import { delay } from "../lib/env.mjs";

/** How long a page must stay without traffic to count as quiet. */
const QUIET_MS = 700;

/**
 * Counts what `page` receives, through DevTools, with the HTTP cache
 * off (every load is a first visit's).
 * @param {import("playwright-core").Page} page
 */
export async function meter(page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.setCacheDisabled", { cacheDisabled: true });
  const state = { encoded: 0, decoded: 0, requests: 0, inFlight: new Set(), last: performance.now() };
  /** What each request was (its path and kind), and the ones finished since the last reset. */
  const named = new Map();
  /** @type {{ what: string, encoded: number }[]} */
  let finished = [];
  const touch = () => (state.last = performance.now());
  cdp.on("Network.requestWillBeSent", (e) => {
    state.inFlight.add(e.requestId);
    state.requests += 1;
    const url = new URL(e.request.url);
    named.set(e.requestId, `${e.type ?? "?"} ${url.pathname}${url.search}`.slice(0, 90));
    touch();
  });
  cdp.on("Network.dataReceived", (e) => {
    state.decoded += e.dataLength;
    touch();
  });
  cdp.on("Network.loadingFinished", (e) => {
    state.inFlight.delete(e.requestId);
    state.encoded += e.encodedDataLength;
    finished.push({ what: named.get(e.requestId) ?? e.requestId, encoded: e.encodedDataLength });
    touch();
  });
  cdp.on("Network.loadingFailed", (e) => {
    state.inFlight.delete(e.requestId);
    touch();
  });
  cdp.on("Network.responseReceived", (e) => {
    // A live stream never finishes: counted by its messages.
    if (e.type === "EventSource") state.inFlight.delete(e.requestId);
    touch();
  });
  cdp.on("Network.eventSourceMessageReceived", (e) => {
    const n = e.data.length + e.eventName.length + 16;
    state.encoded += n;
    state.decoded += n;
    touch();
  });
  cdp.on("Network.webSocketFrameReceived", (e) => {
    const n = e.response.payloadData.length + 2;
    state.encoded += n;
    state.decoded += n;
    touch();
  });
  return {
    /** Zeroes the counts. */
    reset() {
      state.encoded = 0;
      state.decoded = 0;
      state.requests = 0;
      finished = [];
    },
    /** The responses finished since the last reset: what and their encoded bytes (live messages not included). */
    responses: () => [...finished],
    /** The counts since the last reset. */
    read: () => ({ encoded: state.encoded, decoded: state.decoded, requests: state.requests }),
    /** Resolves once nothing is in flight and nothing moved for QUIET_MS. */
    async quiet() {
      const limit = performance.now() + 30000;
      while (performance.now() < limit) {
        await delay(50);
        if (state.inFlight.size === 0 && performance.now() - state.last >= QUIET_MS) return;
      }
      throw new Error(`the page never went quiet (${state.inFlight.size} requests in flight)`);
    },
  };
}

/**
 * Installs, in every document `page` opens from now on, a watch for the
 * first element matching `selector`: `window.sideBySide` gets the time it
 * entered the DOM and the time of the frame after it was painted (two
 * animation frames later), in ms since the navigation started.
 * @param {import("playwright-core").Page} page
 * @param {string} selector
 */
export async function watchFirstCard(page, selector) {
  await page.addInitScript((selector) => {
    /** @type {any} */
    const w = window;
    const seen = () => {
      if (w.sideBySide || !document.querySelector(selector)) return;
      observer.disconnect();
      const inDom = performance.now();
      w.sideBySide = { inDom };
      requestAnimationFrame(() => requestAnimationFrame(() => (w.sideBySide.painted = performance.now())));
    };
    const observer = new MutationObserver(seen);
    observer.observe(document, { childList: true, subtree: true });
    seen();
  }, selector);
}

/**
 * What `watchFirstCard` saw, once the first card was painted.
 * @param {import("playwright-core").Page} page
 * @returns {Promise<{ inDom: number, painted: number }>}
 */
export async function firstCard(page) {
  await page.waitForFunction(() => /** @type {any} */ (window).sideBySide?.painted !== undefined, undefined, { timeout: 30000 });
  return page.evaluate(() => /** @type {any} */ (window).sideBySide);
}

/**
 * How the cards matching `selector` lay out in the current viewport: how
 * many, their mean height, how many a person sees (the point at a card's
 * centre is inside the viewport and shows that card, not something
 * covering or clipping it) and how many wholly (its top and bottom
 * edges too), the page's scroll height and the draggable elements.
 * @param {import("playwright-core").Page} page
 * @param {string} selector
 */
export function layout(page, selector) {
  return page.evaluate((selector) => {
    const cards = [...document.querySelectorAll(selector)];
    const heights = cards.map((c) => c.getBoundingClientRect().height).filter((h) => h > 0);
    /** Whether the point (x, y) is in the viewport and shows card `c`. */
    const shows = (/** @type {Element} */ c, /** @type {number} */ x, /** @type {number} */ y) => {
      if (x < 0 || y < 0 || x >= innerWidth || y >= innerHeight) return false;
      const hit = document.elementFromPoint(x, y);
      return !!hit && (hit === c || c.contains(hit));
    };
    const rects = cards.map((c) => ({ c, r: c.getBoundingClientRect() })).filter(({ r }) => r.height > 0);
    const visible = rects.filter(({ c, r }) => shows(c, r.left + r.width / 2, r.top + r.height / 2)).length;
    // Its top and bottom edges (2 px in) shown too: nothing of it cut off.
    const whole = rects.filter(({ c, r }) => shows(c, r.left + r.width / 2, r.top + 2) && shows(c, r.left + r.width / 2, r.bottom - 2)).length;
    return {
      cards: cards.length,
      meanHeight: heights.length ? heights.reduce((a, b) => a + b, 0) / heights.length : 0,
      visible,
      whole,
      scrollHeight: document.documentElement.scrollHeight,
      draggable: document.querySelectorAll('[draggable="true"]').length,
    };
  }, selector);
}

/**
 * The processes of the tree rooted at `pid` (it and its descendants),
 * each with its resident memory in bytes (VmRSS) and command name.
 * @param {number} pid
 */
export function processTree(pid) {
  /** @type {Map<number, number[]>} */
  const children = new Map();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      // The name may hold spaces and parentheses: the fields start after the last ")".
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // Gone meanwhile.
    }
  }
  /** @type {{ pid: number, name: string, rss: number }[]} */
  const tree = [];
  const walk = (/** @type {number} */ p) => {
    try {
      const status = readFileSync(`/proc/${p}/status`, "utf8");
      const rss = Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1] ?? 0) * 1024;
      const name = /^Name:\s+(.*)$/m.exec(status)?.[1] ?? "?";
      tree.push({ pid: p, name, rss });
    } catch {
      return;
    }
    for (const c of children.get(p) ?? []) walk(c);
  };
  walk(pid);
  return tree;
}
