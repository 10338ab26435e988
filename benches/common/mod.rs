//! What more than one bench needs: the CPU time of the child processes a bench runs.

/// CPU seconds (user and system) of the children waited for so far.
#[cfg(unix)]
pub fn children_cpu() -> f64 {
    // SAFETY: getrusage writes into the zeroed struct it is given and reads nothing else.
    let usage = unsafe {
        let mut usage: libc::rusage = std::mem::zeroed();
        libc::getrusage(libc::RUSAGE_CHILDREN, &mut usage);
        usage
    };
    let seconds = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
    seconds(usage.ru_utime) + seconds(usage.ru_stime)
}

/// Elsewhere no CPU time is measured (tables show NaN), only wall time.
#[cfg(not(unix))]
pub fn children_cpu() -> f64 {
    f64::NAN
}
