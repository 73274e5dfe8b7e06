//! Keeping the top of the C heap between calls.
//!
//! Every write statement the component runs allocates and frees a few
//! hundred KiB through the C allocator: SQLite holds a statement's
//! `RETURNING` rows in a temporary b-tree with its own page cache, and a
//! statement inside a transaction keeps a journal of the pages it changes,
//! both freed when the statement ends. glibc hands memory at the top of a
//! heap back to the kernel as soon as more than 128 KiB of it is free, so
//! in a process whose heap is otherwise quiet (a `tasklists mcp` server,
//! a program running the host in a loop) every call gave those pages back
//! and faulted them in again: 59 to 110 page faults per claim and close,
//! a fifth to a quarter of a write call's time (BENCHMARKS.md, "the
//! heap's top kept between calls").
//!
//! glibc raises these thresholds by itself once it sees a large block
//! freed, but only for blocks it mapped on their own, which these never
//! are. So a process of our own sets them, once, to values glibc's own
//! adaptation may reach: blocks under 4 MiB come from the heap, and up to
//! 8 MiB freed at a heap's top stay with the process.
//!
//! The wasmtime host sets them when it opens an SQLite store
//! (`tasklists_host::Host`: the CLI, `tasklists mcp`, `serve`). The Node
//! addon does not: its process is its embedder's (Pi's), whose allocator
//! is not ours to tune, and there they cost 8 to 12 MiB of resident memory
//! for no measured gain.

/// Blocks at least this large are mapped on their own (glibc's default
/// starts at 128 KiB and adapts up to 32 MiB; setting the trim threshold
/// would otherwise freeze it at 128 KiB).
#[cfg(all(target_os = "linux", target_env = "gnu"))]
const MMAP_THRESHOLD: i32 = 4 << 20;

/// Free memory at a heap's top that glibc keeps rather than returning
/// (default 128 KiB; twice the mapping threshold, as glibc's adaptation
/// sets it).
#[cfg(all(target_os = "linux", target_env = "gnu"))]
const TRIM_THRESHOLD: i32 = 8 << 20;

/// Sets glibc's thresholds once per process (a no-op on other C
/// libraries and systems). For a process that runs the store as its main
/// work; a library loaded into someone else's process should not call it.
pub fn keep_heap_top() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        static ONCE: std::sync::Once = std::sync::Once::new();
        ONCE.call_once(set_thresholds);
    }
}

#[cfg(all(target_os = "linux", target_env = "gnu"))]
#[allow(unsafe_code)]
fn set_thresholds() {
    // SAFETY: `mallopt` takes two integers and only changes the allocator's
    // parameters, under its own lock; any thread may call it at any time.
    // A refusal (it returns 0) leaves glibc's defaults, which are correct,
    // only slower.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, MMAP_THRESHOLD);
        libc::mallopt(libc::M_TRIM_THRESHOLD, TRIM_THRESHOLD);
    }
}
