//! The sensei binary: the CardJitsu protocol on stdin and stdout.

use std::io::{self, BufWriter};
use std::process::ExitCode;

fn main() -> ExitCode {
    let stdin = io::stdin().lock();
    let stdout = BufWriter::new(io::stdout().lock());
    match dojo_bot_sensei::protocol::run(stdin, stdout) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("sensei: {e}");
            ExitCode::FAILURE
        }
    }
}
