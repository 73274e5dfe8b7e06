// @ts-check
// A fresh PostgreSQL database per test on the server named by
// TASKLISTS_TEST_PG (an admin URL of a role that may CREATE DATABASE, as
// `.ci/run`'s throwaway cluster exports), dropped when the test ends.

import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";

/** The admin URL, or "". */
export const PG_ADMIN = process.env.TASKLISTS_TEST_PG ?? "";

/** A test's `skip` when there is no server to test on. */
export const pgSkip = PG_ADMIN ? false : "TASKLISTS_TEST_PG is not set (an admin URL such as postgresql://postgres@127.0.0.1:54329/postgres)";

/** @param {string} sql */
function psql(sql) {
  execFileSync("psql", [PG_ADMIN, "-X", "-q", "-v", "ON_ERROR_STOP=1", "-c", sql], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
}

/** @param {string} name the admin URL pointed at database `name` */
function databaseUrl(name) {
  if (/^postgres(ql)?:\/\//i.test(PG_ADMIN)) {
    const url = new URL(PG_ADMIN);
    url.pathname = `/${name}`;
    return url.href;
  }
  // libpq key/value words: a later keyword wins.
  return `${PG_ADMIN} dbname=${name}`;
}

/**
 * A fresh database's URL, dropped (connections and all) when the test ends.
 * @param {import("node:test").TestContext} t
 */
export function freshPgDatabase(t) {
  const name = `tasklists_web_${process.pid}_${randomBytes(4).toString("hex")}`;
  psql(`CREATE DATABASE "${name}"`);
  t.after(() => psql(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
  return databaseUrl(name);
}
