//! The PostgreSQL kind of store, as the registry knows it: a libpq
//! connection string (a `postgresql://` URL or `key=value` words) names a
//! database on a server, shown without its password.

use super::{PgLocation, PostgresBackend, PostgresWatch};
use crate::{Descriptor, Location, OpenError};

/// A database on a PostgreSQL server (which must exist: a host never
/// creates databases).
pub static DESCRIPTOR: Descriptor = Descriptor {
    name: "postgres",
    recognizes: PgLocation::recognizes,
    file: false,
    open: |location, options| Box::new(PostgresBackend::new(pg(location), options)),
    watch: |location| Box::new(PostgresWatch::new(pg(location))),
    show: |location| pg(location).to_string(),
    scrub: |location, text| pg(location).scrub(text),
    problem,
};

/// The connection string a location holds.
fn pg(location: &Location) -> PgLocation {
    PgLocation::parse(&location.text_lossy())
}

/// A string that cannot be used as written (the reason quotes no part of
/// a secret), before anything connects.
fn problem(location: &Location) -> Option<OpenError> {
    let pg = pg(location);
    pg.problem().map(|problem| OpenError::ConnectionString {
        location: pg.to_string(),
        reason: problem.to_string(),
    })
}
