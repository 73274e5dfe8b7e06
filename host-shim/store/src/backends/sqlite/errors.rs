//! Mapping SQLite's errors onto the [`StoreError`] variants (the WIT's `store-error`), so
//! the component can tell "retry later" (busy) from "your SQL is wrong".

use crate::StoreError;
use rusqlite::ErrorCode;

/// Where an error happened: SQLITE_ERROR while preparing means the SQL
/// itself is wrong (syntax, unknown table or column).
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Phase {
    /// Compiling the SQL.
    Prepare,
    /// Stepping the statement (or BEGIN / COMMIT / ROLLBACK).
    Run,
}

/// How a read-only database's error starts.
pub(crate) const READ_ONLY: &str = "the database is read-only";

/// Maps a rusqlite error onto the typed WIT variants.
pub(crate) fn map_error(err: rusqlite::Error, phase: Phase) -> StoreError {
    let message = err.to_string();
    let code = match &err {
        rusqlite::Error::SqlInputError { error, .. } => {
            return classify(error.code, Phase::Prepare, message);
        }
        rusqlite::Error::SqliteFailure(error, _) => error.code,
        rusqlite::Error::InvalidParameterCount(..)
        | rusqlite::Error::InvalidParameterName(_)
        | rusqlite::Error::MultipleStatement
        | rusqlite::Error::NulError(_) => return StoreError::Sql(message),
        _ => return StoreError::Other(message),
    };
    classify(code, phase, message)
}

fn classify(code: ErrorCode, phase: Phase, message: String) -> StoreError {
    match code {
        ErrorCode::DatabaseBusy | ErrorCode::DatabaseLocked => StoreError::Busy(message),
        ErrorCode::ConstraintViolation => StoreError::Constraint(message),
        // The store names the files (it knows their paths).
        ErrorCode::ReadOnly => StoreError::Io(format!("{READ_ONLY} ({message})")),
        ErrorCode::SystemIoFailure
        | ErrorCode::DiskFull
        | ErrorCode::CannotOpen
        | ErrorCode::PermissionDenied
        | ErrorCode::FileLockingProtocolFailed
        | ErrorCode::NoLargeFileSupport => StoreError::Io(message),
        ErrorCode::DatabaseCorrupt | ErrorCode::NotADatabase => StoreError::Corrupt(message),
        // Only our progress handler interrupts: the call ran out of time.
        ErrorCode::OperationInterrupted => StoreError::Other(format!(
            "interrupted: the statement ran past the call's time limit ({message})"
        )),
        ErrorCode::Unknown | ErrorCode::AuthorizationForStatementDenied
            if phase == Phase::Prepare =>
        {
            StoreError::Sql(message)
        }
        _ => StoreError::Other(message),
    }
}
