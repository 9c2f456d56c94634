//! `dojo match royale`: one game between three teams of bots.

use std::io::IsTerminal;
use std::path::Path;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::Result;
use dojo_engine::royale::{Royale, Settings, Team};
use dojo_games::{RoyaleSetup, play_royale};

use dojo_runner::RunOptions;

use crate::args::RoyaleMatchArgs;
use crate::{bots, render};

pub fn run(bots_dir: &Path, a: RoyaleMatchArgs) -> Result<ExitCode> {
    let board = crate::home::load_board(&a.board)?;
    let mut specs = Vec::new();
    let mut teams = Vec::new();
    for (team, flag, names) in [
        (Team::Rock, "--rock", &a.rock),
        (Team::Paper, "--paper", &a.paper),
        (Team::Scissors, "--scissors", &a.scissors),
    ] {
        // An empty list item would otherwise be reported as `no bot ""`.
        if names.iter().any(|n| n.trim().is_empty()) {
            anyhow::bail!(
                "{flag} {}: an empty bot name; expected BOT[,BOT..] with no empty items",
                names.join(",")
            );
        }
        for name in names {
            specs.push(name.clone());
            teams.push(team);
        }
    }
    let loaded = bots::load(&specs, bots_dir, "royale")?;
    let seed = a.seed.unwrap_or_else(|| {
        let s = bots::fresh_seed();
        errln!("seed: {s} (replay with --seed {s})");
        s
    });
    bots::on_ctrl_c(false);
    let players: Vec<_> = loaded.into_iter().zip(teams).collect();
    let setup = RoyaleSetup {
        seed,
        board,
        board_file: a.board.display().to_string(),
        settings: Settings {
            max_rounds: a.max_rounds,
            stall_rounds: a.stall_rounds,
        },
    };
    let ansi = std::io::stdout().is_terminal();
    let delay = Duration::from_millis(a.delay_ms);
    let mut watch = |game: &Royale| {
        if !a.watch {
            return;
        }
        let clear = if ansi { "\x1b[H\x1b[2J" } else { "" };
        out!(
            "{clear}round {}  {}\n{}",
            game.round(),
            render::royale::counts(game.counts()),
            render::royale::board(game.board(), game.positions(), ansi)
        );
        std::thread::sleep(delay);
    };
    let record = play_royale(
        &players,
        &setup,
        &RunOptions {
            keep_stderr: a.keep_stderr,
            ..super::run_options(&a.time)
        },
        &mut watch,
    )?;
    outln!(
        "Royale on {} (seed {}), {}x{}",
        record.board_file,
        record.play.seed,
        setup.board.width(),
        setup.board.height()
    );
    out!("{}", render::royale::summary(&record));
    if let Some(path) = &a.json {
        super::write_json(path, &record)?;
    }
    if let Some(path) = &a.html {
        let source = super::record_source(a.json.as_deref());
        crate::html::write(path, &crate::html::replay(&record, &source)?)?;
        outln!("replay page: {}", path.display());
    }
    Ok(ExitCode::SUCCESS)
}
