"""Which store a host serves, by the rule every host shares (the store
crate's `location.rs`): the text given untouched, else $TASKLISTS_DB,
else $XDG_DATA_HOME/tasklists/tasks.db, else
~/.local/share/tasklists/tasks.db. A `postgresql://` URL or libpq
`key=value` words name a PostgreSQL database; anything else is a file."""

from __future__ import annotations

import os
import re

_KEYWORDS = {
    "host", "hostaddr", "port", "dbname", "user", "password", "passfile", "require_auth",
    "channel_binding", "connect_timeout", "client_encoding", "options", "application_name",
    "fallback_application_name", "keepalives", "keepalives_idle", "keepalives_interval",
    "keepalives_count", "tcp_user_timeout", "replication", "gssencmode", "sslmode",
    "sslnegotiation", "sslcompression", "sslcert", "sslkey", "sslpassword", "sslcertmode",
    "sslrootcert", "sslcrl", "sslcrldir", "sslsni", "requirepeer", "ssl_min_protocol_version",
    "ssl_max_protocol_version", "krbsrvname", "gsslib", "gssdelegation", "service",
    "target_session_attrs", "load_balance_hosts",
}


def is_postgres(text: str) -> bool:
    """Whether `text` is a PostgreSQL connection string."""
    t = text.lstrip()
    if t[:13].lower() == "postgresql://" or t[:11].lower() == "postgres://":
        return True
    m = re.match(r"([^=\s]*)\s*=", t)
    return bool(m) and m.group(1) in _KEYWORDS


def resolve(given: str | os.PathLike[str] | None) -> str | None:
    """The store to serve: `given`, else the default (None: no store)."""
    if given is not None and str(given) != "":
        return os.fspath(given)
    db = os.environ.get("TASKLISTS_DB")
    if db:
        return db
    data = os.environ.get("XDG_DATA_HOME")
    if data and os.path.isabs(data):
        return os.path.join(data, "tasklists", "tasks.db")
    home = os.environ.get("HOME")
    if home:
        return os.path.join(home, ".local/share/tasklists/tasks.db")
    return None


def redact(text: str) -> str:
    """A connection string as it may be shown: without its password."""
    if not is_postgres(text):
        return text
    text = re.sub(r"(://[^:/@]*):[^@/]*@", r"\1:***@", text)
    return re.sub(r"(password\s*=\s*)('(?:[^'\\]|\\.)*'|\S+)", r"\1***", text)
