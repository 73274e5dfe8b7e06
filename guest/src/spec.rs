//! Former name of [`crate::catalogue`], kept only so that `context.rs`
//! (owned by another change) still builds; new code uses
//! `crate::catalogue`. Remove once nothing imports `crate::spec`.

pub use crate::catalogue::*;
