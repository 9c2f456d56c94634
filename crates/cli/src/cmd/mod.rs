//! One module per subcommand.

pub mod bots;
pub mod check;
pub mod compare;
pub mod doctor;
pub mod fit;
pub mod league;
pub mod new;
pub mod play;
pub mod replay;
pub mod report;
pub mod rules;

use anyhow::{Result, bail};
use dojo_league::{Game, PlayOptions};

use crate::args::{BoardsArg, ControlArgs, GameOptionsArgs};
use crate::games;

/// The control flags given that contradict a stored league's (each as
/// `--flag VALUE (the league has STORED)`): a league's time controls,
/// limits and containment are fixed when it starts, for `--resume` and for
/// a rerun of one of its games alike. Flags left out are not conflicts.
pub fn control_conflicts(given: &ControlArgs, settings: &dojo_league::Settings) -> Vec<String> {
    dojo_runner::Controls::resolve(&given.0, Some(&settings.controls))
        .1
        .iter()
        .map(ToString::to_string)
        .collect()
}

/// The files the game option flags and `--board` read (decks, boards),
/// as inputs no output may overwrite (`crate::outpaths::check`).
pub fn game_inputs<'a>(
    play: &'a GameOptionsArgs,
    boards: &'a BoardsArg,
) -> Vec<Option<crate::outpaths::Named<'a>>> {
    let mut inputs = play.inputs();
    inputs.extend(boards.inputs());
    inputs
}

/// `err` (a board error), saying where the boards came from when none
/// was given: every playable board found (`crate::home::default_boards`),
/// which `--board` narrows.
pub fn boards_found(err: impl std::fmt::Display, given: &crate::args::BoardsArg) -> anyhow::Error {
    if given.given.is_empty() {
        anyhow::anyhow!(
            "{err} (no --board was given, so the boards are every playable one found; choose some with --board FILE)"
        )
    } else {
        anyhow::anyhow!("{err}")
    }
}

/// Refuses `--board` for a game not played on boards (it would be
/// ignored), naming the games that are.
pub fn refuse_boards(game: Game, boards: &BoardsArg) -> Result<()> {
    if !games::cli(game).boards() && !boards.given.is_empty() {
        bail!(
            "--board only applies to {}, not {game}",
            games::board_games().join(" or ")
        );
    }
    Ok(())
}

/// Refuses the game option flags given that `game` does not take
/// (another game's: they would be silently ignored), naming them and the
/// games they apply to. Cheap: a league checks it before its bots are
/// looked at or built.
pub fn refuse_other_games_flags(game: Game, a: &GameOptionsArgs) -> Result<()> {
    let takes = games::options::flags(Some(game));
    let not_here: Vec<String> = (a.given().iter())
        .filter(|flag| !takes.contains(flag))
        .cloned()
        .collect();
    if not_here.is_empty() {
        return Ok(());
    }
    let verb = if not_here.len() == 1 {
        "applies"
    } else {
        "apply"
    };
    bail!(
        "{} only {verb} to {}, not {game}",
        not_here.join(", "),
        games::games_taking(&not_here, game).join(" or ")
    )
}

/// The stored form of the game option flags for `game`: refuses the flags
/// `game` does not take ([`refuse_other_games_flags`]), then asks the game
/// for the stored form over `base` (`GameCli::play_options`) and checks it
/// resolves (`GameCli::executor_options`: a deck that does not parse is
/// refused here).
pub fn play_options(game: Game, a: &GameOptionsArgs, base: &PlayOptions) -> Result<PlayOptions> {
    refuse_other_games_flags(game, a)?;
    let play = games::cli(game).play_options(a, base)?;
    // Resolve the game's options now: a bad deck is an error before any
    // game.
    games::cli(game).executor_options(&play)?;
    Ok(play)
}

/// Gives each of `bots` (labelled as messages name them) a smoke start
/// ([`dojo_games::smoke`]), all at once, with `exec`'s run options (and
/// its first board, for royale); prints each failure with the head of the
/// bot's stderr and returns the labels of those that failed. `dojo
/// league` and `dojo compare` both start here.
pub fn smoke_start<'a>(
    game: Game,
    bots: impl IntoIterator<Item = (String, &'a std::sync::Arc<dojo_runner::BotSpec>)>,
    exec: &dojo_games::BotExecutor,
) -> Vec<String> {
    let failures = smoke_failures(game, bots, exec);
    print_smoke_failures(&failures);
    failures.into_iter().map(|(label, _)| label).collect()
}

/// [`smoke_start`] without printing: each failed bot's label and why.
pub fn smoke_failures<'a>(
    game: Game,
    bots: impl IntoIterator<Item = (String, &'a std::sync::Arc<dojo_runner::BotSpec>)>,
    exec: &dojo_games::BotExecutor,
) -> Vec<(String, dojo_games::smoke::SmokeFailure)> {
    let board = exec.boards.values().next().map(String::as_str);
    let bots: Vec<_> = bots.into_iter().collect();
    let mut failures = Vec::new();
    let needs = fit::bot_needs(&exec.run, bots.iter().map(|(_, b)| b.as_ref()));
    let mut rest = &bots[..];
    while !rest.is_empty() {
        // As many at once as the limits on open descriptors, tasks,
        // memory and the machine's open files take now (a folder of many bots under a low `ulimit -n`
        // would otherwise fail them all with "Too many open files"), and
        // at least one.
        let at_once = fit::games_that_fit_now(game.shape().seats(), &needs).clamp(1, rest.len());
        let (batch, later) = rest.split_at(at_once);
        rest = later;
        std::thread::scope(|scope| {
            let checks: Vec<_> = batch
                .iter()
                .map(|(label, bot)| {
                    let check = scope
                        .spawn(move || dojo_games::smoke::smoke_start(game, bot, board, &exec.run));
                    (label, check)
                })
                .collect();
            failures.extend(checks.into_iter().filter_map(|(label, c)| {
                c.join()
                    .ok()
                    .and_then(Result::err)
                    .map(|f| (label.clone(), f))
            }));
        });
        // The batch's boxes go: their descriptors make room for the next
        // batch (those the box maker forked could serve the league's
        // games, but a folder of many bots would keep one box per bot
        // open through the smoke start).
        dojo_runner::drop_idle_boxes();
    }
    // A stop (Ctrl-C, or a scheduler's SIGTERM to the whole job, which
    // reaches the bots too) cancels the smoke games and may kill their
    // bots: that is no bot's failure. The command then stops as it does
    // for a stop at any other time.
    if exec
        .run
        .cancel
        .as_ref()
        .is_some_and(|c| c.load(std::sync::atomic::Ordering::SeqCst))
    {
        return Vec::new();
    }
    failures
}

/// Prints each smoke start failure with the head of the bot's stderr
/// (control characters escaped: the bot wrote it).
pub fn print_smoke_failures(failures: &[(String, dojo_games::smoke::SmokeFailure)]) {
    use crate::render::untrusted;
    for (label, f) in failures {
        errln!(
            "bot {label} failed its smoke start: it {}",
            untrusted::line(&f.problem)
        );
        if !f.played {
            // It never ran: there is no stderr to speak of.
        } else if f.stderr_head.is_empty() {
            errln!("  (it wrote nothing to stderr)");
        } else {
            errln!("  head of its stderr:");
            for line in f.stderr_head.lines() {
                errln!("  | {}", untrusted::line(line));
            }
        }
    }
}

pub use crate::output::absolute;
