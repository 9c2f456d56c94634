//! Exit statuses: one meaning per number, the same in every command.
//! [`HELP`] lists them in `dojo --help`; docs/guide.md repeats it.

use std::process::ExitCode;

/// Done: the command did what was asked (a rerun came out identical,
/// `compare` passed NEW).
pub const SUCCESS: u8 = 0;
/// A negative answer: `replay --rerun` differs, `compare` finds NEW worse,
/// a league finished with games that failed and stay pending, `merge`
/// left the league incomplete (without `--partial`), `play`'s
/// input ended before the game did, or `rules tichu` judges a play illegal.
pub const NEGATIVE: u8 = 1;
/// `compare` only: inconclusive at the game limit.
pub const INCONCLUSIVE: u8 = 2;
/// Nothing was decided: a usage error (an unknown, missing or conflicting
/// flag), bad input (a deck, board, malformed or corrupt record, league
/// directory or bot spec), a bot that cannot be found or built, a bot
/// whose program cannot be run at all (`cannot start`: missing, not
/// executable, refused for want of a process), a bot that fails its
/// smoke start before a league or `compare`, or a `compare` with no
/// verdict because NEW or BASE is broken. (`check` says what it found
/// of each game in its report and exits 1 instead.)
pub const ERROR: u8 = 3;
/// `match` only: the game was played, but a bot faulted in it: its
/// program ran, then crashed (also on every prompt without answering,
/// which the match reports as `could not start`), timed out, answered
/// with something that is not a move, or ran into a limit: a bot author
/// running `dojo match` first notices, and a script can tell it from a
/// sound game. Royale's
/// illegal moves (well-formed, refused by the rules, played as a pass)
/// are the game's business and do not count.
pub const FAULTED: u8 = 4;
/// Interrupted with Ctrl-C (SIGINT). A SIGTERM or SIGHUP, handled alike,
/// gives 128 + its number (143, 129): `crate::bots::interrupted_status`.
pub const INTERRUPTED: u8 = 130;

/// The exit statuses, as `dojo --help` shows them.
pub const HELP: &str = "Exit status (every command):
  0    done (replay --rerun: identical; compare: NEW passes)
  1    a negative answer (replay --rerun: differs; compare: NEW is worse;
       league: some games failed and stay pending; merge: the league is
       incomplete, without --partial; play: the input ended before the
       game did; rules tichu: the play is illegal; check: the bot is not
       ready, it faulted in a game or its program could not be run)
  2    compare: inconclusive at the game limit
  3    usage error, bad input (flag, deck, board, record, league directory,
       bot spec), a bot that cannot be found or built, whose program
       cannot be run at all (missing, not executable, no process left
       under --limit-processes), or that fails its smoke start (league,
       compare), compare: no verdict, NEW or BASE is broken, or an output
       that cannot be written (a full disk; a closed pipe is quiet) or
       that is an input or another output
  4    match: a bot faulted: its program ran, then crashed (on every
       prompt without answering: `could not start`), timed out, answered
       with something that is not a move, or hit a limit; each faulty
       seat's reason and the last lines of its stderr are printed
  130  interrupted (Ctrl-C); 143 by SIGTERM, 129 by SIGHUP (a league
       writes its report first and resumes with --resume)";

/// `code` as an [`ExitCode`].
pub fn code(code: u8) -> ExitCode {
    ExitCode::from(code)
}

/// Exits after a command-line parse error with [`ERROR`] (clap's own 2
/// would read as `compare`'s "inconclusive"); help and version exit 0,
/// or [`ERROR`] when stdout cannot take them (`> /dev/full`), as every
/// command does (a closed pipe, `| head -1`, is no error).
pub fn on_usage_error(err: clap::Error) -> ! {
    use std::io::Write;
    // A flag the command does not take, said as such (not as clap's tip
    // to pass it as a value).
    if let Some(message) = crate::usage::unknown_flag(&err) {
        let _ = writeln!(std::io::stderr(), "error: {message}");
        std::process::exit(i32::from(ERROR));
    }
    if err.use_stderr() {
        let _ = err.print();
        std::process::exit(i32::from(ERROR));
    }
    match err.print().and_then(|()| std::io::stdout().flush()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
            let _ = writeln!(std::io::stderr(), "error: cannot write to stdout: {e}");
            std::process::exit(i32::from(ERROR));
        }
        _ => std::process::exit(i32::from(SUCCESS)),
    }
}
