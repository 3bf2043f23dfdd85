//! `tablescope-serve`: see `tablescope_serve` and `--help`.

// mimalloc: a request allocates and frees dozens of small blocks (headers, the URL, the
// response), where glibc's allocator spent about a sixth of the server's CPU per point get.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    tablescope_serve::main(std::env::args().skip(1))
}
