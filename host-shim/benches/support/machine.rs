//! The machine line every in-process benchmark prints first: the figures
//! only compare within one machine and one run.

/// "CPU model, N cores, Linux x.y, arch".
pub fn machine() -> String {
    let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let model = cpuinfo
        .lines()
        .find_map(|l| l.strip_prefix("model name"))
        .and_then(|l| l.split_once(':'))
        .map_or("unknown CPU", |(_, m)| m.trim())
        .to_string();
    let cores = std::thread::available_parallelism().map_or(0, |n| n.get());
    let kernel = std::fs::read_to_string("/proc/sys/kernel/osrelease").unwrap_or_default();
    format!(
        "{model}, {cores} cores, Linux {}, {}",
        kernel.trim(),
        std::env::consts::ARCH
    )
}

/// A positive integer from the environment variable `key`, else `default`
/// (so a quick run is `BENCH_N=20 cargo bench …`).
#[allow(dead_code)] // Only the timing benchmarks take sizes.
pub fn env_usize(key: &str, default: usize) -> usize {
    std::env::var(key)
        .ok()
        .and_then(|v| v.parse().ok())
        .filter(|&n| n > 0)
        .unwrap_or(default)
}
