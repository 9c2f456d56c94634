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
    // Builds take the same layers (every one marked yes, whatever
    // --sandbox), but the network only with --build-network off.
    outln!(
        "builds (a bot.toml's `build`): confined by the namespaces, private /proc, Landlock, \
         seccomp and cgroups marked yes above (not a seat user; with minimal-root, every mount \
         of the host read-only but the build's directory, cache and scratch directory and \
         cargo's download caches), with the network unless \
         --build-network off, which here {}",
        match dojo_runner::build_network_off_by() {
            Some(by) => format!("uses {by}"),
            None => "cannot be had: such builds are refused".to_string(),
        }
    );
    // What a dojo killed with `kill -9` left behind (also removed at the
    // start of every run).
    let left = dojo_runner::remove_leftovers();
    if left.scratch.is_empty() && left.groups.is_empty() {
        outln!("leftovers of dead dojo runs: none");
    } else {
        for path in left.scratch.iter().chain(&left.groups) {
            outln!("leftover of a dead dojo run, removed: {}", path.display());
        }
    }
    match dojo_runner::layers_in_force(dojo_runner::SandboxMode::Strict) {
        Ok(_) => outln!("--sandbox strict: can run here"),
        Err(e) => outln!("{e}"),
    }
    ExitCode::SUCCESS
}
