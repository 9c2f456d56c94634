//! `dojo check GAME BOT`: a sound bot is ready to submit; a bot that
//! crashes, one too slow for the move limit and one that answers with
//! something that is not a move are not, each named with its evidence.

use std::path::{Path, PathBuf};

use dojo_testkit::cli::{dojo, stderr_of, stdout_of};

/// A CardJitsu bot in POSIX sh, in its own directory with a `bot.toml`:
/// `on_hand` is the shell run for each hand line, with `$n` the hand's
/// number (from 1).
fn sh_bot(dir: &Path, name: &str, on_hand: &str) -> PathBuf {
    let bot = dir.join(name);
    std::fs::create_dir_all(&bot).unwrap();
    std::fs::write(
        bot.join("bot.sh"),
        format!(
            "n=0\nwhile IFS= read -r line; do\n  case \"$line\" in\n    *,*) n=$((n + 1)); {on_hand} ;;\n  esac\ndone\n"
        ),
    )
    .unwrap();
    std::fs::write(
        bot.join("bot.toml"),
        format!("name = \"{name}\"\ncommand = \"sh bot.sh\"\ngames = [\"cardjitsu\"]\n"),
    )
    .unwrap();
    bot
}

/// `dojo check cardjitsu BOT` with `extra` flags: its exit status and
/// stdout.
fn check(bot: &Path, extra: &[&str]) -> (Option<i32>, String) {
    let out = dojo()
        .args(["check", "cardjitsu"])
        .arg(bot)
        .args(extra)
        .output()
        .unwrap();
    (out.status.code(), stdout_of(&out))
}

#[test]
fn a_sound_bot_is_ready_and_its_times_are_set_against_the_limits() {
    let tmp = tempfile::tempdir().unwrap();
    let bot = sh_bot(tmp.path(), "steady", "echo 0");
    // Generous limits: the test is not about time.
    let (status, stdout) = check(&bot, &["--timeout-ms", "20000", "--startup-ms", "20000"]);
    assert_eq!(status, Some(0), "{stdout}");
    for line in [
        "checking steady (",
        "  ok    read and built as a league takes it",
        "  ok    tournament rules: 4 games without a fault",
        "  ok    classic rules: 4 games without a fault",
        "  ok    deterministic: tournament rules, seed 1, seat 1 against random-py played again identically",
        "of its 20000ms limit",
        "ready to submit",
    ] {
        assert!(stdout.contains(line), "no `{line}` in:\n{stdout}");
    }
}

/// A bot that plays the replayed game differently is told in words: the
/// game, the round, and what it answered the first time and the second
/// (not a line of the game's transcript).
#[test]
fn a_nondeterministic_bot_is_told_where_and_how_it_answered_differently() {
    let tmp = tempfile::tempdir().unwrap();
    let bot = dojo_testkit::bots::forgetful(tmp.path());
    let out = dojo()
        .args(["check", "cardjitsu", &bot, "--rules", "classic"])
        .args(["--timeout-ms", "20000", "--startup-ms", "20000"])
        .args(["--sandbox", "off"])
        .output()
        .unwrap();
    let stdout = stdout_of(&out);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    let note = stdout
        .lines()
        .find(|l| l.starts_with("  note  not deterministic: "))
        .unwrap_or_else(|| panic!("no determinism note in:\n{stdout}"));
    for part in [
        "classic rules, seed 1, seat 1 against random-py played again differently: ",
        "at round 1, the bot (seat 1) answered `0` (the card ",
        ") the first time and `1` (the card ",
        ") the second; fine for a bot that is random on purpose",
    ] {
        assert!(note.contains(part), "no `{part}` in:\n{note}");
    }
    assert!(!note.contains("piles"), "{note}");
}

/// An inline bot (`NAME=COMMAND`) is shown by its command, what the check
/// runs, not by the directory it happens to run in; a bot directory by
/// its directory.
#[test]
fn a_check_of_an_inline_bot_names_its_command() {
    let tmp = tempfile::tempdir().unwrap();
    let bot = sh_bot(tmp.path(), "steady", "echo 0");
    let out = dojo()
        .current_dir(&bot)
        .args(["check", "cardjitsu", "inl=sh bot.sh", "--rules", "classic"])
        .args(["--timeout-ms", "20000", "--startup-ms", "20000"])
        .output()
        .unwrap();
    let stdout = stdout_of(&out);
    assert_eq!(out.status.code(), Some(0), "{stdout}{}", stderr_of(&out));
    let header = stdout.lines().next().unwrap_or_default();
    assert!(
        header.starts_with("checking inl (`sh bot.sh`) for cardjitsu: "),
        "{stdout}"
    );
    assert!(!header.contains(&bot.display().to_string()), "{header}");
}

#[test]
fn a_crasher_is_not_ready_and_its_stderr_says_why() {
    let tmp = tempfile::tempdir().unwrap();
    let bot = sh_bot(
        tmp.path(),
        "crasher",
        "if [ $n -eq 3 ]; then echo 'lost my cards' >&2; exit 1; fi; echo 0",
    );
    let (status, stdout) = check(&bot, &["--timeout-ms", "20000", "--startup-ms", "20000"]);
    assert_eq!(status, Some(1), "{stdout}");
    assert!(
        stdout.contains("  FAIL  tournament rules: the bot faulted in 4 games of 4"),
        "{stdout}"
    );
    assert!(stdout.contains("crash (the first in round 3)"), "{stdout}");
    assert!(stdout.contains("| lost my cards"), "{stdout}");
    assert!(
        stdout.contains("not ready: 8 games with a fault"),
        "{stdout}"
    );
}

#[test]
#[ignore = "long tier: run by .ci/run and `just test-long`"]
fn a_bot_too_slow_for_the_limit_is_not_ready() {
    let tmp = tempfile::tempdir().unwrap();
    // Its second answer comes after 1.5 s, against a 300 ms move limit.
    let bot = sh_bot(
        tmp.path(),
        "sleeper",
        "if [ $n -eq 2 ]; then sleep 1.5; fi; echo 0",
    );
    let (status, stdout) = check(&bot, &["--timeout-ms", "300", "--startup-ms", "20000"]);
    assert_eq!(status, Some(1), "{stdout}");
    assert!(stdout.contains("FAIL  tournament rules"), "{stdout}");
    assert!(stdout.contains("timeout"), "{stdout}");
}

/// A first answer that timed out is graded as the timeout it was, not as
/// an answer that took 100% of the time allowed (which read as merely
/// close). The bot sleeps 2 s on its first hand against 500 ms allowed;
/// restarted after each timeout, it sleeps again, and the check stops
/// after that game.
#[test]
fn a_first_answer_that_timed_out_is_named_a_timeout() {
    let tmp = tempfile::tempdir().unwrap();
    let bot = sh_bot(
        tmp.path(),
        "late",
        "if [ $n -eq 1 ]; then sleep 2; fi; echo 0",
    );
    let (status, stdout) = check(
        &bot,
        &[
            "--rules",
            "classic",
            "--against",
            "random-sh",
            "--timeout-ms",
            "300",
            "--startup-ms",
            "200",
        ],
    );
    assert_eq!(status, Some(1), "{stdout}");
    let line = stdout
        .lines()
        .find(|l| l.contains("first answers (the bot's start included)"))
        .unwrap_or_else(|| panic!("no first answers line in:\n{stdout}"));
    assert!(line.starts_with("  FAIL  first answers"), "{line}");
    assert!(
        line.ends_with(": a timeout, the 500ms allowed ran out"),
        "{line}"
    );
    assert!(!line.contains('%'), "{line}");
}

#[test]
fn a_bot_that_answers_with_no_move_is_not_ready() {
    let tmp = tempfile::tempdir().unwrap();
    let bot = sh_bot(tmp.path(), "dreamer", "echo 7");
    let (status, stdout) = check(&bot, &["--timeout-ms", "20000", "--startup-ms", "20000"]);
    assert_eq!(status, Some(1), "{stdout}");
    assert!(stdout.contains("invalid answer"), "{stdout}");
    assert!(stdout.contains("FAIL  classic rules"), "{stdout}");
}

/// A bot that never answers leaves the same record each time a seed is
/// played again: it did not play, which is no sign of determinism, and
/// the check stops after the first such game. One crashes at once, the
/// other times out on every prompt (the deadlines short for that, which
/// decide no result here: it never answers).
#[test]
fn a_bot_that_never_answers_did_not_play_and_is_not_called_deterministic() {
    for (spec, deadlines) in [
        (
            "quitter=python3 bots/faulty/exit_immediately.py",
            ["--timeout-ms", "20000", "--startup-ms", "20000"],
        ),
        (
            "mute=python3 bots/faulty/silent.py",
            ["--timeout-ms", "100", "--startup-ms", "100"],
        ),
    ] {
        let out = dojo()
            .args(["check", "cardjitsu", spec, "--against", "random-sh"])
            .args(deadlines)
            .output()
            .unwrap();
        let stdout = stdout_of(&out);
        assert_eq!(out.status.code(), Some(1), "{spec}:\n{stdout}");
        assert!(
            !stdout.contains("deterministic:"),
            "{spec} called deterministic:\n{stdout}"
        );
        assert!(
            stdout.contains("  FAIL  the bot did not play: in every game each of its prompts met"),
            "{spec}:\n{stdout}"
        );
        // One such game says it: the rest are not played (a silent bot's
        // eight games took 84 s at the default deadlines).
        assert!(
            stdout.contains("faulted in 1 game of 1")
                && stdout.contains("note  stopped after that game"),
            "{spec}:\n{stdout}"
        );
    }
}

#[test]
fn a_bot_for_another_game_is_refused_as_a_league_would() {
    dojo()
        .args(["check", "cardjitsu", "general"])
        .assert()
        .code(3)
        .stderr(predicates::str::contains("plays royale, not cardjitsu"));
}

/// The contest's game options are the check's: `--rules` checks that rule
/// set alone, and `--max-rounds` ends every game there (capped at 3
/// rounds, each of the 4 games is 3 rounds: 2 moves after the first).
#[test]
fn a_cardjitsu_check_plays_under_the_rules_and_limits_given() {
    let tmp = tempfile::tempdir().unwrap();
    let bot = sh_bot(tmp.path(), "steady", "echo 0");
    let (status, stdout) = check(
        &bot,
        &[
            "--rules",
            "classic",
            "--max-rounds",
            "3",
            "--timeout-ms",
            "20000",
            "--startup-ms",
            "20000",
        ],
    );
    assert_eq!(status, Some(0), "{stdout}");
    for line in [
        "for cardjitsu: 4 games against random-py, random-sh",
        "  ok    classic rules: 4 games without a fault",
        "  ok    8 later moves: ",
        "ready to submit",
    ] {
        assert!(stdout.contains(line), "no `{line}` in:\n{stdout}");
    }
    assert!(!stdout.contains("tournament rules"), "{stdout}");
}

/// Royale is checked on each board given, in every seat, with the round
/// limit given (2 rounds: one move after the first in each game).
#[test]
fn a_royale_check_plays_on_each_board_given_under_its_limits() {
    let tmp = tempfile::tempdir().unwrap();
    let tiny = dojo_testkit::paths::data("tiny.txt");
    let other = tmp.path().join("other.txt");
    std::fs::copy(&tiny, &other).unwrap();
    let other = other.display().to_string();
    let passer = |name: &str| {
        format!(r#"{name}=sh -c 'while read l && [ -n "$l" ]; do :; done; read x; read y; echo P'"#)
    };
    let out = dojo()
        .args([
            "check",
            "royale",
            &passer("mine"),
            "--against",
            &passer("them"),
        ])
        .args(["--board", &tiny, "--board", &other, "--max-rounds", "2"])
        .args(["--timeout-ms", "20000", "--startup-ms", "20000"])
        .output()
        .unwrap();
    let stdout = stdout_of(&out);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    for line in [
        "for royale: 6 games against them".to_owned(),
        format!("  ok    board {tiny}: 3 games without a fault"),
        format!("  ok    board {other}: 3 games without a fault"),
        "  ok    6 later moves: ".to_owned(),
        "ready to submit".to_owned(),
    ] {
        assert!(stdout.contains(&line), "no `{line}` in:\n{stdout}");
    }
}

/// A game option or board the game does not take, or a board that does
/// not read, is refused before the bot is built, naming it, as a league
/// refuses it.
#[test]
fn a_check_refuses_options_of_another_game_and_a_bad_board() {
    for (args, expected) in [
        (
            &["cardjitsu", "random-py", "--board", "boards/arena.txt"][..],
            "--board only applies to royale, not cardjitsu",
        ),
        (
            &["royale", "general", "--rules", "classic"][..],
            "--rules only applies to cardjitsu, not royale",
        ),
        (
            &["royale", "general", "--board", "no/such/board.txt"][..],
            "cannot read no/such/board.txt",
        ),
    ] {
        dojo()
            .arg("check")
            .args(args)
            .assert()
            .code(3)
            .stderr(predicates::str::contains(expected));
    }
}

/// Opponents that cannot be found are a setup error before any game, not
/// the checked bot's faults: the bundled ones with where dojo looked and
/// how to point it at them, naming no `--bots-dir` that was not given;
/// one given with `--against` as given.
#[test]
fn opponents_not_found_are_a_setup_error_not_the_bots_fault() {
    let tmp = tempfile::tempdir().unwrap();
    let bot = sh_bot(tmp.path(), "steady", "echo 0");
    // A directory of one's own whose bots/ (found first) lacks dojo's.
    std::fs::create_dir(tmp.path().join("bots")).unwrap();
    let run = |args: &[&str]| {
        let out = dojo()
            .current_dir(tmp.path())
            .args(args)
            .args(["check", "cardjitsu"])
            .arg(&bot)
            .output()
            .unwrap();
        (out.status.code(), stdout_of(&out), stderr_of(&out))
    };
    let (status, stdout, stderr) = run(&[]);
    assert_eq!(status, Some(3), "{stdout}{stderr}");
    assert_eq!(stdout, "", "nothing is checked or played");
    assert_eq!(
        stderr.trim_end(),
        "error: dojo check plays the bundled bots random-py, random-sh against the bot, \
         and random-py was not found: bots holds no bot random-py; set DOJO_HOME to a \
         directory holding dojo's bots/ (a bots/ in the current directory comes first), \
         or name the opponents with --against BOT"
    );

    let (status, stdout, stderr) = run(&["--bots-dir", "nowhere"]);
    assert_eq!(status, Some(3), "{stdout}{stderr}");
    assert!(
        stderr.contains(
            "random-py was not found: --bots-dir nowhere: does not exist; give a --bots-dir that holds them"
        ),
        "{stderr}"
    );

    let out = dojo()
        .current_dir(tmp.path())
        .args(["check", "cardjitsu"])
        .arg(&bot)
        .args(["--against", "nosuch"])
        .output()
        .unwrap();
    let stderr = stderr_of(&out);
    assert_eq!(out.status.code(), Some(3), "{stderr}");
    assert!(
        stderr.starts_with("error: --against nosuch: no bot \"nosuch\""),
        "{stderr}"
    );
    assert_eq!(stdout_of(&out), "");
}

/// On a terminal, a check says which game it is playing while it plays
/// it (a royale check against per-turn Python bots is silent for tens of
/// seconds otherwise, and looks hung); in a log, which is no terminal,
/// none of that is written. The terminal is `script`'s pseudo-terminal.
#[test]
fn a_check_on_a_terminal_says_which_game_it_is_playing() {
    let tmp = tempfile::tempdir().unwrap();
    // Long enough a first answer that the note is drawn at least once.
    let bot = sh_bot(tmp.path(), "steady", "[ $n = 1 ] && sleep 0.5; echo 0");
    let Some(terminal) = dojo_testkit::cli::on_a_terminal(&format!(
        "check cardjitsu {} --against random-py --timeout-ms 20000 --startup-ms 20000",
        bot.display()
    )) else {
        return;
    };
    assert!(terminal.contains("ready to submit"), "{terminal}");
    for note in [
        "game 1 of 4: tournament rules, seed 1, seat 1 against random-py",
        "playing it again to check determinism",
    ] {
        assert!(
            terminal.contains(note),
            "no `{note}` on the terminal:\n{terminal}"
        );
    }
    // Not a terminal: the results alone.
    let out = dojo()
        .args(["check", "cardjitsu"])
        .arg(&bot)
        .args([
            "--against",
            "random-py",
            "--timeout-ms",
            "20000",
            "--startup-ms",
            "20000",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stdout_of(&out));
    assert!(
        !stderr_of(&out).contains("game 1 of"),
        "{}",
        stderr_of(&out)
    );
}

/// Under `--time cpu` the move limit holds CPU time: a bot that waits
/// most of its move on the wall clock is not near its limit (before, the
/// check warned it over half of it), and the limit is shown beside the
/// CPU times.
#[test]
fn under_the_cpu_clock_a_bot_that_waits_is_graded_by_its_cpu_time() {
    let tmp = tempfile::tempdir().unwrap();
    // Waits 0.6 s of its 1 s on its second hand (a later move), and 1.2 s
    // of its 2 s (the move time and the start-up allowance) on its first.
    let bot = sh_bot(
        tmp.path(),
        "waiter",
        "[ $n = 1 ] && sleep 1.2; [ $n = 2 ] && sleep 0.6; echo 0",
    );
    let (status, stdout) = check(
        &bot,
        &[
            "--time",
            "cpu",
            "--timeout-ms",
            "1000",
            "--startup-ms",
            "1000",
            "--rules",
            "tournament",
            "--against",
            "random-sh",
        ],
    );
    assert_eq!(status, Some(0), "{stdout}");
    assert!(!stdout.contains("warn"), "{stdout}");
    assert!(
        stdout.contains("later moves: cpu p50") && stdout.contains("(the CPU clock); wall"),
        "{stdout}"
    );
    assert!(
        stdout.contains("first answers (the bot's start included): slowest ")
            && stdout.contains(" allowed (")
            && stdout.contains("%) (the CPU clock); wall slowest 1"),
        "{stdout}"
    );
}
