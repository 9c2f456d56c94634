//! `dojo doctor`: which containment layers this machine gives bots.

use std::process::ExitCode;

pub fn run() -> ExitCode {
    outln!("bot containment on this machine (--sandbox auto uses every layer marked yes):");
    for layer in dojo_runner::probe() {
        outln!(
            "  {:<18} {:<3}  {}",
            layer.name,
            if layer.available { "yes" } else { "no" },
            layer.detail
        );
    }
    match dojo_runner::layers_in_force(dojo_runner::SandboxMode::Strict) {
        Ok(_) => outln!("--sandbox strict: can run here"),
        Err(e) => outln!("{e}"),
    }
    ExitCode::SUCCESS
}
