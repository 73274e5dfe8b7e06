//! `tasklists`: the command-line host. Everything lives in `cli/`; this
//! file only maps the outcome to an exit code.

mod cli;

fn main() -> std::process::ExitCode {
    cli::run()
}
