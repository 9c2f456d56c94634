//! The version of every file format dojo writes, in one place: a bump of
//! one is made (and reviewed) beside the others. Each reader refuses a
//! version it does not know (a record reads versions 1 to
//! [`RECORD_VERSION`]); the formats are described in `docs/records.md`
//! (game records) and `crates/league/FORMATS.md` (a league directory and
//! `dojo compare --json`).
//!
//! They live in `dojo-games`, the lowest crate that writes any of these
//! files (game records); the league's own formats are only numbers here
//! and are written and read by the league (which re-exports them where
//! they were defined before).

/// Game records (`dojo match --json`, a `games.jsonl` line's `record`).
/// Version 2 added each seat's `dir` and `fingerprint`; version 3, a
/// CardJitsu record's `draws` (how each seat's deck was drawn) and the
/// named deck `championship`. Versions 1 and 2 still load (their seats are
/// found by name under the bots directory; their decks were all drawn with
/// replacement).
pub const RECORD_VERSION: u32 = 3;

/// One line of a league's `games.jsonl`.
pub const GAMES_FORMAT_VERSION: u32 = 1;

/// A league's `league.json` (its settings and provenance). Version 2
/// gathers the time controls, limits and containment mode into
/// `controls`, moves `play.raises` to `raises` and adds `origin`; version
/// 3 stores `play` as the values of the game's flags (`{"rules":
/// "classic", "deck1": "/abs/x.dcfg"}`) instead of one struct for every
/// game; version 4, a CardJitsu league under the tournament rules draws
/// from the `championship` deck unless `deck1`/`deck2` say otherwise (it
/// was `standard`: an older league reads with `standard` written out).
/// Versions 1 to 3 still load (upgraded on reading).
pub const LEAGUE_FORMAT_VERSION: u32 = 4;

/// A league's `report.json`. Version 2: the settings as `league.json`
/// version 2 holds them, and `command`; version 3: as version 3 holds
/// them (`play`); version 4: as version 4 holds them (a tournament
/// league's default deck is `championship`); a royale bot seated twice in
/// one game counts the game once in `standings`; and each standing's
/// measured `moves` (count, wall and CPU times' p50, p95, max) and
/// `peak_memory_mib`. Older reports read with those `null`.
pub const REPORT_FORMAT_VERSION: u32 = 4;

/// `dojo compare --json`. Version 2: blocks (royale plays six games per
/// block), the overshoot correction, the median-unbiased estimate,
/// `model`, `note` and `trace`. Version 3: the fault policy
/// (`settings.faults`), each game's `faulty` seats, the faulty games of
/// NEW and BASE (`faults.new_faulty_games`, `faults.base_faulty_games`),
/// the verdict `broken` with `broken` saying why. Version 4: `figures`,
/// NEW's and BASE's move times and memory peaks. Version 5:
/// `settings.teams`, the royale team the third bot's bot.toml fixes, whose
/// blocks are then two games (`model.unit` `pair`).
pub const COMPARE_FORMAT_VERSION: u32 = 5;
