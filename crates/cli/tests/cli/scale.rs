//! Width: leagues of many games in flight. Bots that think by sleeping (a
//! bot waiting on a GPU or a remote search) cost the machine nothing, so
//! a league plays hundreds of their games at once: every game must be
//! played, none lost to a seat user, a process or a descriptor the
//! machine could not give, and none to a timeout the harness caused.
//! What the machine cannot hold lowers `--jobs` with a note before play.
//! Limits per move are generous: these tests are about width, not speed.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use dojo_testkit::cli::{GENEROUS, stderr_of};
use dojo_testkit::paths::root;
use serde_json::Value;

/// `bench/echo.c` built into `dir` (mode 0755, so a seat user reaches
/// it): a C bot that sleeps `ms` before each answer. `None` without a C
/// compiler.
fn sleeping_bot(dir: &Path) -> Option<PathBuf> {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o755)).unwrap();
    let out = dir.join("echo");
    let built = Command::new("cc")
        .args(["-O2", "-o"])
        .arg(&out)
        .arg(root().join("bench/echo.c"))
        .status()
        .is_ok_and(|s| s.success());
    built.then_some(out)
}

/// `dojo league cardjitsu` of two bots sleeping `ms` a move: `games`
/// games, `--jobs jobs`, into `out`, through `sh -c` after `prefix`
/// (which may move the shell into a control group or lower a limit).
fn sleepers_league(echo: &Path, ms: u32, games: u32, jobs: u32, out: &Path) -> Command {
    let mut cmd = Command::new(assert_cmd::cargo::cargo_bin("dojo"));
    cmd.current_dir(root()).args(["league", "cardjitsu"]);
    for name in ["a", "b"] {
        cmd.arg(format!("{name}={} sleep {ms}", echo.display()));
    }
    cmd.args(["--games", &games.to_string(), "--jobs", &jobs.to_string()])
        .args(GENEROUS)
        .args(SMALL_BOTS)
        .arg("--out")
        .arg(out);
    cmd
}

/// Limits these tests' bots (a C echo loop, a shell loop) never come
/// near: with the defaults (1,024 MiB, 256 processes of 1,024 open files),
/// 256 games of two bots at once would fit neither the machine's memory
/// nor its open-file table, and dojo would play fewer at once.
const SMALL_BOTS: [&str; 6] = [
    "--limit-memory-mib",
    "16",
    "--limit-processes",
    "16",
    "--limit-files",
    "64",
];

/// The league's report, after checking that it played every game with
/// no failed game and no fault of any kind.
fn all_played_cleanly(out: &Output, league: &Path, games: u64) -> Value {
    let err = stderr_of(out);
    assert!(out.status.success(), "{err}");
    assert!(!err.contains("failed"), "{err}");
    let report = dojo_testkit::json::read_json(&league.join("report.json"));
    assert_eq!(report["games_played"], games, "{err}");
    assert_eq!(report["timing"]["failed"], serde_json::json!([]), "{err}");
    for bot in report["standings"].as_array().unwrap() {
        for (kind, n) in bot["faults"].as_object().unwrap() {
            assert_eq!(n, 0, "{} had {kind} faults: {err}", bot["name"]);
        }
    }
    report
}

#[test]
fn a_league_256_games_wide_of_sleeping_bots_plays_every_game_with_no_fault() {
    // 512 boxes in flight at once: twice the seat users a dojo process
    // had before (255), where 1,909 of 2,048 games failed to start.
    let tmp = tempfile::tempdir().unwrap();
    let Some(echo) = sleeping_bot(tmp.path()) else {
        eprintln!("skipped: no C compiler (cc)");
        return;
    };
    let league = tmp.path().join("wide");
    let out = sleepers_league(&echo, 5, 256, 256, &league)
        .output()
        .unwrap();
    let err = stderr_of(&out);
    assert!(err.contains("with 2 bots, 256 jobs"), "{err}");
    all_played_cleanly(&out, &league, 256);
}

#[test]
fn a_league_of_few_games_plays_no_more_at_once_than_it_has() {
    // At --jobs 64 the default memory caps (1,024 MiB a bot) would lower
    // the jobs with a note on most machines: for 4 games, neither the
    // note nor 64 jobs' seat users mean anything.
    let tmp = tempfile::tempdir().unwrap();
    let league = tmp.path().join("few");
    let out = Command::new(assert_cmd::cargo::cargo_bin("dojo"))
        .current_dir(root())
        .args(["league", "cardjitsu", "random-sh", "random-py"])
        .args(["--games", "4", "--jobs", "64"])
        .args(GENEROUS)
        .arg("--out")
        .arg(&league)
        .output()
        .unwrap();
    let err = stderr_of(&out);
    assert!(err.contains("with 2 bots, 4 jobs"), "{err}");
    assert!(!err.contains("note: playing"), "{err}");
    all_played_cleanly(&out, &league, 4);
}

/// The machine's open-file table: (`fs.file-max`, files open now).
fn file_table() -> (u64, u64) {
    let read = |name: &str| std::fs::read_to_string(format!("/proc/sys/fs/{name}")).unwrap();
    let max = read("file-max").trim().parse().unwrap();
    let open = read("file-nr")
        .split_whitespace()
        .next()
        .unwrap()
        .parse()
        .unwrap();
    (max, open)
}

#[test]
fn more_open_files_than_the_machines_table_holds_is_refused_or_lowers_the_jobs() {
    // A bot of 256 processes may hold 256 times --limit-files open: a
    // red-team bot's 250 children filled 255,000 of this machine's table
    // of 2.4 million at once; ten such bots in flight would leave every
    // other bot (and program without CAP_SYS_ADMIN) unable to open a file.
    let (max, open) = file_table();
    if max > 1 << 40 {
        eprintln!("skipped: this machine's open-file table (fs.file-max {max}) is unbounded");
        return;
    }
    // More than the whole table for one bot: refused before play.
    let processes = (max / 1024 + 1).to_string();
    let out = Command::new(assert_cmd::cargo::cargo_bin("dojo"))
        .current_dir(root())
        .args([
            "league",
            "cardjitsu",
            "random-sh",
            "random-py",
            "--games",
            "2",
        ])
        .args(["--limit-processes", &processes, "--limit-files", "1024"])
        .output()
        .unwrap();
    let err = stderr_of(&out);
    assert!(!out.status.success(), "{err}");
    assert!(
        err.contains("too few open files for even one game of 2 bots"),
        "{err}"
    );
    assert!(err.contains("fs.file-max"), "{err}");
    // The defaults (256 processes of 1,024 files): as many games as the
    // table holds, with a note, when that is fewer than 8.
    let fit = max.saturating_sub(open + (max / 10).max(1 << 16)) / (2 * 256 * 1024);
    let tmp = tempfile::tempdir().unwrap();
    let league = tmp.path().join("l");
    let out = Command::new(assert_cmd::cargo::cargo_bin("dojo"))
        .current_dir(root())
        .args(["league", "cardjitsu", "random-sh", "random-py"])
        .args(["--games", "8", "--jobs", "8", "--limit-memory-mib", "64"])
        .args(GENEROUS)
        .arg("--out")
        .arg(&league)
        .output()
        .unwrap();
    let err = stderr_of(&out);
    if fit < 8 {
        assert!(
            err.contains("at once, not 8: each bot may hold up to 262144 open files"),
            "{err}"
        );
    } else {
        assert!(err.contains("with 2 bots, 8 jobs"), "{err}");
    }
    all_played_cleanly(&out, &league, 8);
}

#[test]
#[ignore = "long tier: run by .ci/run and `just test-long`"]
fn two_leagues_at_once_each_past_one_block_of_seat_users_fail_no_game() {
    // Each league needs 2 x 140 seat users (and 3 x 140 for idle boxes):
    // more than one block of 256, so each claims several and both must get
    // blocks of their own (as root; otherwise both play as dojo's user).
    let tmp = tempfile::tempdir().unwrap();
    let Some(echo) = sleeping_bot(tmp.path()) else {
        eprintln!("skipped: no C compiler (cc)");
        return;
    };
    let (one, two) = (tmp.path().join("one"), tmp.path().join("two"));
    let first = sleepers_league(&echo, 5, 140, 140, &one)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let second = sleepers_league(&echo, 5, 140, 140, &two).output().unwrap();
    let first = first.wait_with_output().unwrap();
    all_played_cleanly(&first, &one, 140);
    all_played_cleanly(&second, &two, 140);
}

#[test]
fn a_low_pids_limit_lowers_the_jobs_with_a_note_and_fails_no_game() {
    // A control group allowing 100 processes and threads: 16 games of two
    // boxed bots (13 tasks each, beside the 64 kept free) used to fail
    // their forks; now dojo plays as many as fit and says why.
    let Some(group) = pids_group(100) else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let Some(echo) = sleeping_bot(tmp.path()) else {
        eprintln!("skipped: no C compiler (cc)");
        return;
    };
    let league = tmp.path().join("l");
    let out = in_group(&group, &sleepers_league(&echo, 1, 20, 16, &league));
    let err = stderr_of(&out);
    // "1 game" or "N games", as dojo's own threads leave room.
    assert!(err.contains(" at once, not 16: "), "{err}");
    assert!(
        err.contains("pids.max allows 100 processes and threads"),
        "{err}"
    );
    all_played_cleanly(&out, &league, 20);
}

/// Runs `cmd` in the control group `group` (through `sh -c`, which moves
/// itself there before it becomes the command).
fn in_group(group: &Group, cmd: &Command) -> Output {
    let argv: Vec<String> = std::iter::once(cmd.get_program())
        .chain(cmd.get_args())
        .map(|a| format!("'{}'", a.to_string_lossy()))
        .collect();
    let script = format!(
        "echo $$ > '{}' && exec {}",
        group.0.join("cgroup.procs").display(),
        argv.join(" ")
    );
    Command::new("sh")
        .args(["-c", &script])
        .current_dir(root())
        .output()
        .unwrap()
}

/// `dojo league` of two sleeping bots capped at `cap_mib` each, 16 games
/// at once, in a memory control group of 1 GiB.
fn league_in_a_gib(cap_mib: u32, dir: &Path) -> Option<(Output, PathBuf)> {
    let group = memory_group(1 << 30)?;
    let Some(echo) = sleeping_bot(dir) else {
        eprintln!("skipped: no C compiler (cc)");
        return None;
    };
    let league = dir.join("l");
    let mut cmd = Command::new(assert_cmd::cargo::cargo_bin("dojo"));
    cmd.current_dir(root()).args(["league", "cardjitsu"]);
    for name in ["a", "b"] {
        cmd.arg(format!("{name}={} sleep 1", echo.display()));
    }
    cmd.args(["--games", "16", "--jobs", "16", "--limit-memory-mib"])
        .arg(cap_mib.to_string())
        // Memory is the bound under test: the open-file table must not
        // be tighter.
        .args(["--limit-processes", "16", "--limit-files", "64"])
        .args(GENEROUS)
        .arg("--out")
        .arg(&league);
    Some((in_group(&group, &cmd), league))
}

#[test]
fn more_bots_memory_than_the_memory_there_is_lowers_the_jobs_with_a_note() {
    // 16 games of two bots that may each hold 100 MiB would be 3,200 MiB
    // of caps in a group of 1 GiB: a bot filling its cap could get
    // another game's bot killed by the group's OOM killer. dojo plays as
    // many as fit (about 3) and says why.
    let tmp = tempfile::tempdir().unwrap();
    let Some((out, league)) = league_in_a_gib(100, tmp.path()) else {
        return;
    };
    let err = stderr_of(&out);
    assert!(err.contains("games at once, not 16: "), "{err}");
    assert!(err.contains("each bot may use up to 100 MiB"), "{err}");
    assert!(
        err.contains("memory.limit_in_bytes") || err.contains("memory.max"),
        "names the group's limit: {err}"
    );
    all_played_cleanly(&out, &league, 16);
}

#[test]
fn a_memory_cap_no_game_fits_is_refused_before_play() {
    // Two bots of 1,024 MiB each do not fit a group of 1 GiB at all.
    let tmp = tempfile::tempdir().unwrap();
    let Some((out, league)) = league_in_a_gib(1024, tmp.path()) else {
        return;
    };
    let err = stderr_of(&out);
    assert!(!out.status.success(), "{err}");
    assert!(
        err.contains("too little memory for even one game of 2 bots"),
        "{err}"
    );
    assert!(err.contains("lower --limit-memory-mib to "), "{err}");
    assert!(!league.join("games.jsonl").exists(), "{err}");
    // And a match, the same.
    let Some(group) = memory_group(1 << 30) else {
        return;
    };
    let mut cmd = Command::new(assert_cmd::cargo::cargo_bin("dojo"));
    cmd.current_dir(root())
        .args(["match", "cardjitsu", "random-sh", "random-sh"])
        .args(["--limit-memory-mib", "1024"]);
    let out = in_group(&group, &cmd);
    let err = stderr_of(&out);
    assert!(!out.status.success(), "{err}");
    assert!(
        err.contains("too little memory for even one game of 2 bots"),
        "{err}"
    );
}

/// A pids control group of its own with `pids.max` = `max`, removed when
/// dropped; `None` (saying why) where none can be made (not root, no
/// pids controller).
fn pids_group(max: u32) -> Option<Group> {
    // cgroup v1's pids hierarchy, else the v2 root.
    limited_group(
        &[
            ("/sys/fs/cgroup/pids", "pids.max"),
            ("/sys/fs/cgroup", "pids.max"),
        ],
        max.into(),
    )
}

/// A memory control group of its own limited to `bytes`, removed when
/// dropped; `None` (saying why) where none can be made.
fn memory_group(bytes: u64) -> Option<Group> {
    limited_group(
        &[
            ("/sys/fs/cgroup/memory", "memory.limit_in_bytes"),
            ("/sys/fs/cgroup", "memory.max"),
        ],
        bytes,
    )
}

/// A control group of its own under the first of `places` (a hierarchy
/// and the file of the limit there) that exists, with the limit set to
/// `value`.
fn limited_group(places: &[(&str, &str)], value: u64) -> Option<Group> {
    let place = places
        .iter()
        .map(|&(base, file)| (Path::new(base), file))
        .find(|(b, _)| b.join("cgroup.procs").exists());
    let Some((base, file)) = place else {
        eprintln!("skipped: no control group hierarchy");
        return None;
    };
    let controller = file.split('.').next().unwrap_or(file);
    // A name of its own: tests run at once in one process, and one's
    // group removed under another's league failed it ("Directory
    // nonexistent"), or made it skip where its name was taken.
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = base.join(format!(
        "dojo-scale-test-{}-{n}-{controller}",
        std::process::id()
    ));
    if std::fs::create_dir(&dir).is_err()
        || std::fs::write(dir.join(file), value.to_string()).is_err()
    {
        let _ = std::fs::remove_dir(&dir);
        eprintln!(
            "skipped: cannot make a control group with {file} under {}",
            base.display()
        );
        return None;
    }
    Some(Group(dir))
}

struct Group(PathBuf);

impl Drop for Group {
    fn drop(&mut self) {
        dojo_testkit::procs::remove_cgroup(&self.0);
    }
}

#[test]
#[ignore = "long tier: run by .ci/run and `just test-long`"]
fn a_wide_leagues_workers_keep_their_boxes_for_their_next_games() {
    // 512 games of two bots that think 20 ms a move, 256 at once: each
    // worker's two boxes serve its next games. With 16 idle boxes for the
    // whole process, a league this wide evicted nearly every box it gave
    // back and made new ones for the next game (907 boxes for these 1,024
    // bot starts; 512 now). Each box has control groups of its own, named
    // with a number dojo never reuses: the bot names its group at each
    // start.
    let tmp = tempfile::tempdir().unwrap();
    let script = group_naming_bot(tmp.path());
    let args = ["--games", "512", "--jobs", "256"];
    let Some(boxes) = boxes_of_league(&script, &["a", "b"], &args, 512, tmp.path()) else {
        return;
    };
    assert!(
        (2..=512).contains(&boxes),
        "{boxes} boxes made for 1,024 bot starts at 256 games wide (at most 2 per worker)"
    );
}

#[test]
fn with_more_bots_than_seats_the_descriptor_check_counts_the_idle_boxes() {
    // Three bots, two seats: a worker may keep the boxes of the bot not
    // in its game idle beside it, each holding descriptors of its own.
    let tmp = tempfile::tempdir().unwrap();
    let Some(echo) = sleeping_bot(tmp.path()) else {
        eprintln!("skipped: no C compiler (cc)");
        return;
    };
    let league = tmp.path().join("l");
    let mut argv = vec![format!(
        "'{}' league cardjitsu",
        assert_cmd::cargo::cargo_bin("dojo").display()
    )];
    for name in ["a", "b", "c"] {
        argv.push(format!("'{name}={} sleep 1'", echo.display()));
    }
    argv.push(format!(
        "--games 2 --jobs 8 {} {} --out '{}'",
        GENEROUS.join(" "),
        SMALL_BOTS.join(" "),
        league.display()
    ));
    let out = Command::new("sh")
        .args(["-c", &format!("ulimit -n 200 && exec {}", argv.join(" "))])
        .current_dir(root())
        .output()
        .unwrap();
    let err = stderr_of(&out);
    assert!(
        err.contains("and 8 for each of the 3 boxes its worker may keep idle"),
        "{err}"
    );
    assert!(!err.contains("Too many open files"), "{err}");
    all_played_cleanly(&out, &league, 6);
}

/// A shell bot in `dir` that thinks 20 ms a move. (It once named its
/// box's control group, which a box's cgroup namespace now hides: a
/// league's report counts the boxes it made, `timing.boxes_made`.)
fn group_naming_bot(dir: &Path) -> PathBuf {
    naming_bot(dir, "sleep 0.02; ")
}

/// [`group_naming_bot`], answering at once.
fn quick_group_naming_bot(dir: &Path) -> PathBuf {
    naming_bot(dir, "")
}

/// The group-naming bot, with `think` before each answer.
fn naming_bot(dir: &Path, think: &str) -> PathBuf {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o755)).unwrap();
    let script = dir.join("ns.sh");
    std::fs::write(
        &script,
        format!(
            "while read -r line; do\n\
               case \"$line\" in\n\
                 'Player '*|'Draw!') exit 0 ;;\n\
                 *' vs. '*) ;;\n\
                 *,*) {think}echo 0 ;;\n\
               esac\n\
             done\n"
        ),
    )
    .unwrap();
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    script
}

/// Plays a league in `dir` of `names`, each running the group-naming
/// `bot`, with `args`, and checks it played `games` cleanly: the boxes its
/// games made (its report's `timing.boxes_made`), or `None` (the reason
/// printed) without PID namespaces or control groups.
fn boxes_of_league(
    bot: &Path,
    names: &[&str],
    args: &[&str],
    games: u64,
    dir: &Path,
) -> Option<usize> {
    let league = dir.join("l");
    let mut cmd = Command::new(assert_cmd::cargo::cargo_bin("dojo"));
    cmd.current_dir(root()).args(["league", "cardjitsu"]);
    for name in names {
        cmd.arg(format!("{name}=sh {}", bot.display()));
    }
    let out = cmd
        .args(args)
        .args(GENEROUS)
        .args(SMALL_BOTS)
        .arg("--out")
        .arg(&league)
        .output()
        .unwrap();
    let report = all_played_cleanly(&out, &league, games);
    let layers = report["timing"]["containment"]["layers"].to_string();
    if !layers.contains("pid-namespace") || !layers.contains("cgroup-") {
        eprintln!("skipped: no PID namespaces or control groups");
        return None;
    }
    let made = report["timing"]["boxes_made"].as_u64().unwrap_or(0);
    Some(usize::try_from(made).unwrap())
}

#[test]
#[ignore = "long tier: run by .ci/run and `just test-long`"]
fn a_league_of_70_bots_on_2_workers_makes_about_two_boxes_per_bot() {
    // Past the 64 idle boxes a worker once kept: each worker then evicted
    // its oldest, in round-robin order the box a next game wanted (325
    // boxes for 70 bots' 4,830 games, in the speed bench; 275 here). The
    // bound is now the process's, two per bot in play (64 bots: the play
    // order's tiles of blocks of 32, `schedule/play_order.rs`) and each
    // worker's 3. With the play order's rounds a bot is mostly in one game
    // at a time: 77 boxes (140 before it; 651 in id order with the bound
    // of 64 bots in play). The smoke start's boxes are not in the
    // league's logs.
    let Some(boxes) = boxes_of_round_robin(70, 2) else {
        return;
    };
    assert!(boxes <= 70 * 5 / 2, "{boxes} boxes");
}

#[test]
#[ignore = "long tier: run by .ci/run and `just test-long`"]
fn a_league_of_40_bots_16_games_wide_spreads_each_bots_games_over_time() {
    // In id order the games of one bot come one after another: at 16
    // games at once a bot was in up to 16 of them, each needing a box of
    // its own, and the next bot's games then needed as many new ones
    // (542 boxes for these 1,560 games). The play order's rounds put each
    // bot in one game of a round (`schedule/play_order.rs`): 175.
    let Some(boxes) = boxes_of_round_robin(40, 16) else {
        return;
    };
    assert!(boxes <= 40 * 6, "{boxes} boxes");
}

/// The boxes made for a round robin of `bots` quick group-naming bots
/// (one game per pairing and seat order) at `jobs` games at once, as
/// [`boxes_of_league`] counts them, and printed.
fn boxes_of_round_robin(bots: usize, jobs: usize) -> Option<usize> {
    let tmp = tempfile::tempdir().unwrap();
    let script = quick_group_naming_bot(tmp.path());
    let names: Vec<String> = (0..bots).map(|i| format!("b{i}")).collect();
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    let jobs = jobs.to_string();
    let args = ["--games", "1", "--jobs", &jobs];
    let games = (bots * (bots - 1)) as u64;
    let boxes = boxes_of_league(&script, &names, &args, games, tmp.path())?;
    eprintln!("{boxes} boxes made for {bots} bots at {jobs} games at once");
    Some(boxes)
}

#[test]
#[ignore = "long tier: run by .ci/run and `just test-long`"]
fn a_league_of_more_bots_than_seats_keeps_a_box_per_bot_where_there_is_room() {
    // Six bots, one worker: with 3 idle boxes a worker's next game often
    // needed a box it had evicted; with room for one per bot, the six
    // boxes made first serve all 60 games.
    let tmp = tempfile::tempdir().unwrap();
    let script = group_naming_bot(tmp.path());
    let bots = ["a", "b", "c", "d", "e", "f"];
    let args = ["--games", "4", "--jobs", "1"];
    let Some(boxes) = boxes_of_league(&script, &bots, &args, 60, tmp.path()) else {
        return;
    };
    assert_eq!(boxes, 6, "one box per bot");
}
