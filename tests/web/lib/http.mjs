// @ts-check
// Plain HTTP to the board from Node (no browser): any Host, Origin, cookie
// or method a test needs to send, on loopback only.

import { request } from "node:http";

/**
 * @typedef {object} HttpAnswer
 * @property {number} status
 * @property {import("node:http").IncomingHttpHeaders} headers
 * @property {string} body
 */

/**
 * Sends one request to 127.0.0.1:`port` (the `Host` header is
 * `127.0.0.1:port` unless `headers.host` says otherwise).
 * @param {number} port
 * @param {string} method
 * @param {string} path
 * @param {{ headers?: Record<string, string>, body?: string }} [options]
 * @returns {Promise<HttpAnswer>}
 */
export function http(port, method, path, { headers = {}, body } = {}) {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: "127.0.0.1", port, method, path, headers: { host: `127.0.0.1:${port}`, ...headers }, timeout: 10000 },
      (res) => {
        let text = "";
        res.setEncoding("utf8").on("data", (s) => (text += s));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
        res.on("error", reject);
      },
    );
    req.on("timeout", () => req.destroy(new Error(`${method} ${path}: no answer in 10 s`)));
    req.on("error", reject);
    if (body !== undefined) req.end(body);
    else req.end();
  });
}

/**
 * A form body (`application/x-www-form-urlencoded`) and its headers.
 * @param {Record<string, string>} fields
 */
export function form(fields) {
  return {
    body: new URLSearchParams(fields).toString(),
    headers: { "content-type": "application/x-www-form-urlencoded" },
  };
}
