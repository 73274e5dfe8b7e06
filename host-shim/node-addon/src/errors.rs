//! The store's errors as JavaScript exceptions: `code` is `store:` and the
//! WIT `store-error` case (`store:busy`, `store:invalid-state`, …),
//! `message` the engine's words. The host library turns exactly these into
//! the component's error values; any other exception is a host bug and
//! traps the call.

use tasklists_store::StoreError;

/// A store error, thrown with its WIT case in `code`.
pub(crate) fn store_error(e: StoreError) -> napi::Error<String> {
    let (case, message) = match e {
        StoreError::Busy(m) => ("busy", m),
        StoreError::Constraint(m) => ("constraint", m),
        StoreError::InvalidState(m) => ("invalid-state", m),
        StoreError::Io(m) => ("io", m),
        StoreError::Corrupt(m) => ("corrupt", m),
        StoreError::Sql(m) => ("sql", m),
        StoreError::Other(m) => ("other", m),
    };
    napi::Error::new(format!("store:{case}"), message)
}

/// A host bug (a value jco would never pass), in the same error type.
pub(crate) fn host_bug(e: napi::Error) -> napi::Error<String> {
    napi::Error::new("host-bug".to_string(), e.reason.clone())
}
