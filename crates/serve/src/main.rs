//! `tablescope-serve`: see `tablescope::serve` and `--help`.

fn main() -> std::process::ExitCode {
    tablescope::serve::main(std::env::args().skip(1))
}
