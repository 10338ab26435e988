//! The static Linux binary (`.ci/static-build`) as a new user meets it: one file copied to an
//! empty folder, run with nothing on the PATH (no Rust toolchain, no checkout), checks the
//! embedded suite and GNU Go through plain GTP with its claims, exactly as the ordinary build
//! does. The binary is GOCONFORM_STATIC_BINARY, else the musl build under target/; without it
//! the test says SKIPPED (a failure under CI, which builds it first).

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use common::{gnugo, root, skip};

fn static_binary() -> Option<PathBuf> {
    let path = std::env::var_os("GOCONFORM_STATIC_BINARY")
        .map(PathBuf::from)
        .unwrap_or_else(|| root().join("target/x86_64-unknown-linux-musl/release/goconform"));
    path.is_file().then_some(path)
}

/// Whether an ELF file asks for a program interpreter (PT_INTERP), i.e. is linked dynamically.
fn has_interpreter(elf: &[u8]) -> bool {
    assert_eq!(&elf[..4], b"\x7fELF", "not an ELF file");
    assert_eq!(elf[4], 2, "not a 64-bit ELF file");
    let u16_at = |at: usize| u16::from_le_bytes([elf[at], elf[at + 1]]) as usize;
    let phoff = u64::from_le_bytes(elf[0x20..0x28].try_into().unwrap()) as usize;
    let (size, count) = (u16_at(0x36), u16_at(0x38));
    (0..count).any(|i| {
        let at = phoff + i * size;
        u32::from_le_bytes(elf[at..at + 4].try_into().unwrap()) == 3
    })
}

/// Runs the binary in `dir` with an empty environment but for a PATH of one empty folder.
fn bare(binary: &Path, dir: &Path, args: &[&str]) -> Output {
    let empty = dir.join("empty-path");
    std::fs::create_dir_all(&empty).unwrap();
    Command::new(binary)
        .args(args)
        .current_dir(dir)
        .env_clear()
        .env("PATH", &empty)
        .output()
        .expect("the static binary runs")
}

fn tally(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .last()
        .unwrap_or_default()
        .to_string()
}

#[test]
fn the_static_binary_alone_checks_the_suite_and_gnu_go_as_the_ordinary_build_does() {
    let Some(binary) = static_binary() else {
        return skip("no static binary (build it with .ci/static-build, or name it in GOCONFORM_STATIC_BINARY)",
        );
    };
    let bytes = std::fs::read(&binary).unwrap();
    assert!(
        !has_interpreter(&bytes),
        "{} is linked dynamically",
        binary.display()
    );
    let ordinary = std::fs::read(env!("CARGO_BIN_EXE_goconform")).unwrap();
    assert!(
        has_interpreter(&ordinary),
        "the ELF reading finds the ordinary build's loader"
    );
    let dir = tempfile::tempdir().unwrap();
    let copy = dir.path().join("goconform");
    std::fs::copy(&binary, &copy).unwrap();
    let alone = bare(&copy, dir.path(), &["check"]);
    assert_eq!(
        alone.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&alone.stderr)
    );
    let reference = common::goconform(&["check"]);
    assert_eq!(tally(&alone), tally(&reference));
    let Some(gnugo) = gnugo() else {
        return skip("GNU Go is not installed (apt-get install gnugo)");
    };
    let engine = format!("gtp:{} --mode gtp", gnugo.display());
    let args = [
        "check",
        "--engine",
        engine.as_str(),
        "--claim",
        "ko=simple",
        "--claim",
        "suicide=forbidden",
    ];
    let theirs = bare(&copy, dir.path(), &args);
    assert_eq!(
        theirs.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&theirs.stdout)
    );
    assert_eq!(tally(&theirs), tally(&common::goconform(&args)));
    assert!(!tally(&theirs).contains("failed"), "{}", tally(&theirs));
}
