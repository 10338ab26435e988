//! The `goconform` command: see `goconform --help`.

fn main() -> std::process::ExitCode {
    goconform::cli::main()
}
