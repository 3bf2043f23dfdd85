//! `tablescope-serve`: see `tablescope_serve` and `--help`.

fn main() -> std::process::ExitCode {
    tablescope_serve::main(std::env::args().skip(1))
}
