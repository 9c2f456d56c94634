//! What a skeptical user tries at the edges: every command's stdout closed
//! early or on a full disk, output paths that are not regular files or
//! cannot be written, inputs that never end, a low descriptor limit,
//! SIGTERM and SIGHUP, an inline bot of two files, a bot that forgets to
//! flush.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use dojo_testkit::cli::{dojo, random_league, stderr_of, stdout_of, stdout_ok};
use dojo_testkit::paths::root;

/// `dojo` as a plain process (its stdio set by the test), from the
/// workspace root.
fn dojo_process() -> Command {
    let mut cmd = Command::new(assert_cmd::cargo::cargo_bin("dojo"));
    cmd.current_dir(root());
    cmd
}

/// A league directory and a game record for the commands that read them.
struct Inputs {
    _tmp: tempfile::TempDir,
    dir: PathBuf,
    league: String,
    record: String,
}

fn inputs() -> Inputs {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().to_owned();
    let league = dir.join("league");
    random_league(&league, 2, &[]);
    let record = dir.join("game.json");
    stdout_ok(
        dojo()
            .args([
                "match",
                "cardjitsu",
                "random-sh",
                "random-py",
                "--seed",
                "1",
            ])
            .arg("--json")
            .arg(&record),
    );
    Inputs {
        _tmp: tmp,
        league: league.display().to_string(),
        record: record.display().to_string(),
        dir,
    }
}

/// Every command, with its arguments and the exit status it gives when
/// nobody reads its output (`play`, whose stdin is empty, ends at its
/// first write then: the reader that went away is not an error).
fn every_command(i: &Inputs, case: &str) -> Vec<(Vec<String>, i32)> {
    let out = |name: &str| i.dir.join(format!("{case}-{name}")).display().to_string();
    let words = |s: &str| s.split(' ').map(str::to_owned).collect::<Vec<_>>();
    let with = |s: &str, extra: &[String]| {
        let mut w = words(s);
        w.extend(extra.iter().cloned());
        w
    };
    vec![
        (words("--help"), 0),
        (words("help league"), 0),
        (words("league --help"), 0),
        (words("--version"), 0),
        (words("doctor"), 0),
        (words("bots"), 0),
        (words("rules skat JC JS JH JD AC 0C KC QC 9C 8C"), 0),
        (words("rules tichu 6 J"), 0),
        (with("replay", std::slice::from_ref(&i.record)), 0),
        (with("report", std::slice::from_ref(&i.league)), 0),
        (
            with("merge", &[i.league.clone(), "--out".into(), out("merged")]),
            0,
        ),
        (words("match cardjitsu random-sh random-py --seed 2"), 0),
        (
            words(
                "match royale --board boards/arena.txt --rock royale-random-py --paper royale-random-py --scissors royale-random-py --seed 2",
            ),
            0,
        ),
        (
            with(
                "league cardjitsu random-sh random-py --games 2 --out",
                &[out("league")],
            ),
            0,
        ),
        (
            words("compare cardjitsu random-sh random-py --games 2 --seed 3"),
            2,
        ),
        // The JSON on stdout: a reader that went away changes not the
        // verdict's status.
        (
            words("compare cardjitsu random-sh random-py --games 2 --seed 3 --json -"),
            2,
        ),
        (words("play cardjitsu --seed 1 --plain"), 0),
    ]
}

/// A pipe whose reading end is already closed: every write to it fails
/// with EPIPE, as after `| head -1` has read its line.
fn closed_pipe() -> Stdio {
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    writer.into()
}

#[test]
#[ignore = "long tier: run by .ci/run and `just test-long`"]
fn every_command_exits_quietly_when_the_reader_of_stdout_goes_away() {
    let i = inputs();
    for (args, code) in every_command(&i, "pipe") {
        let out = dojo_process()
            .args(&args)
            .stdin(Stdio::null())
            .stdout(closed_pipe())
            .stderr(Stdio::piped())
            .output()
            .unwrap();
        let err = stderr_of(&out);
        assert!(!err.contains("panicked"), "dojo {args:?}: {err}");
        assert!(!err.contains("error:"), "dojo {args:?}: {err}");
        assert_eq!(out.status.code(), Some(code), "dojo {args:?}: {err}");
    }
}

#[test]
#[ignore = "long tier: run by .ci/run and `just test-long`"]
fn every_command_fails_with_status_3_when_stdout_cannot_be_written() {
    if !Path::new("/dev/full").exists() {
        eprintln!("skipped: no /dev/full here");
        return;
    }
    let i = inputs();
    for (args, _) in every_command(&i, "full") {
        let out = dojo_process()
            .args(&args)
            .stdin(Stdio::null())
            .stdout(std::fs::File::create("/dev/full").unwrap())
            .stderr(Stdio::piped())
            .output()
            .unwrap();
        let err = stderr_of(&out);
        assert!(!err.contains("panicked"), "dojo {args:?}: {err}");
        assert!(
            err.contains("No space left on device"),
            "dojo {args:?}: {err}"
        );
        assert_eq!(out.status.code(), Some(3), "dojo {args:?}: {err}");
    }
}

fn match_with(extra: &[&str]) -> std::process::Output {
    dojo()
        .args([
            "match",
            "cardjitsu",
            "random-sh",
            "random-py",
            "--seed",
            "5",
        ])
        .args(extra)
        .output()
        .unwrap()
}

#[test]
fn a_symlinked_output_writes_its_target_and_stays_a_link() {
    let tmp = tempfile::tempdir().unwrap();
    let target = tmp.path().join("target.json");
    let link = tmp.path().join("link.json");
    std::fs::write(&target, "old").unwrap();
    std::os::unix::fs::symlink(&target, &link).unwrap();
    let page_target = tmp.path().join("page-target.html");
    let page_link = tmp.path().join("page.html");
    std::os::unix::fs::symlink(&page_target, &page_link).unwrap();
    let out = match_with(&[
        "--json",
        link.to_str().unwrap(),
        "--html",
        page_link.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", stderr_of(&out));
    for (link, target) in [(&link, &target), (&page_link, &page_target)] {
        assert!(link.symlink_metadata().unwrap().is_symlink());
        assert!(std::fs::read_to_string(target).unwrap().len() > 100);
    }
    serde_json::from_str::<serde_json::Value>(&std::fs::read_to_string(&target).unwrap()).unwrap();
}

/// A reader of the FIFO at `path`, there before dojo starts (dojo refuses
/// a FIFO that nobody reads): a descriptor open on it without waiting (to
/// keep until dojo is done), and a thread that reads everything written.
fn fifo_reader(path: &Path) -> (std::thread::JoinHandle<String>, std::fs::File) {
    use std::os::unix::fs::OpenOptionsExt;
    let keeper = std::fs::File::options()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(path)
        .unwrap();
    let path = path.to_owned();
    let reader = std::thread::spawn(move || {
        let mut text = String::new();
        // Waits for dojo to open the FIFO, then reads until it closes it.
        std::fs::File::open(&path)
            .unwrap()
            .read_to_string(&mut text)
            .unwrap();
        text
    });
    (reader, keeper)
}

#[test]
fn a_fifo_output_is_written_through() {
    let tmp = tempfile::tempdir().unwrap();
    let fifo = tmp.path().join("fifo");
    let made = Command::new("mkfifo").arg(&fifo).status();
    if !made.is_ok_and(|s| s.success()) {
        eprintln!("skipped: mkfifo is not available");
        return;
    }
    let (reader, _keeper) = fifo_reader(&fifo);
    let out = match_with(&["--json", fifo.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr_of(&out));
    let text = reader.join().unwrap();
    serde_json::from_str::<serde_json::Value>(&text).unwrap();
    use std::os::unix::fs::FileTypeExt;
    assert!(std::fs::metadata(&fifo).unwrap().file_type().is_fifo());
}

#[test]
fn json_to_stdout_leaves_stdout_to_the_json() {
    for path in ["-", "/dev/stdout"] {
        let out = match_with(&["--json", path]);
        assert!(out.status.success(), "{}", stderr_of(&out));
        let text = String::from_utf8(out.stdout.clone()).unwrap();
        assert_eq!(text.lines().count(), 1, "--json {path}: {text}");
        serde_json::from_str::<serde_json::Value>(&text).unwrap();
        assert!(
            stderr_of(&out).contains("round 1"),
            "the transcript goes to stderr"
        );
    }
}

#[test]
fn an_output_path_that_cannot_be_written_is_refused_before_any_game() {
    // Not named `.tmp...`: no temporary output file may be named.
    let tmp = tempfile::Builder::new().prefix("edges").tempdir().unwrap();
    let league = tmp.path().join("league");
    // A regular file where a directory of the path should be: no
    // directory can be made there, not even by root.
    let file = tmp.path().join("file");
    std::fs::write(&file, "mine").unwrap();
    let under = |name: &str| file.join("sub").join(name).display().to_string();
    let (c_json, c_html, g_json, l_html) = (
        under("c.json"),
        under("c.html"),
        under("g.json"),
        under("l.html"),
    );
    let compare = [
        "compare",
        "cardjitsu",
        "random-sh",
        "random-py",
        "--games",
        "2",
    ];
    let runs: [(Vec<&str>, String); 3] = [
        (
            [&compare[..], &["--json", &c_json]].concat(),
            format!("--json {c_json}"),
        ),
        (
            [&compare[..], &["--html", &c_html]].concat(),
            format!("--html {c_html}"),
        ),
        (
            vec![
                "match",
                "cardjitsu",
                "random-sh",
                "random-py",
                "--json",
                &g_json,
            ],
            format!("--json {g_json}"),
        ),
    ];
    for (args, said) in runs {
        let out = dojo().args(&args).output().unwrap();
        let err = stderr_of(&out);
        assert_eq!(out.status.code(), Some(3), "{args:?}: {err}");
        assert!(
            err.contains(&said) && err.contains(&format!("{} is not a directory", file.display())),
            "{err}"
        );
        assert!(!err.contains(".tmp"), "{err}");
        assert!(!err.contains("compare: cardjitsu"), "no game starts: {err}");
        assert!(out.stdout.is_empty(), "no game is played");
    }
    let out = dojo()
        .args([
            "league",
            "cardjitsu",
            "random-sh",
            "random-py",
            "--games",
            "2",
        ])
        .args(["--html", &l_html, "--out"])
        .arg(&league)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3), "{}", stderr_of(&out));
    assert!(stderr_of(&out).contains(&format!("--html {l_html}")));
    assert!(!league.exists(), "no game is played");
}

/// An output file's missing directories are made, as `--out` makes a
/// league's directory: `--html results/standings.html` (the README's
/// command) works in a fresh directory. A refused command makes none.
#[test]
fn an_output_files_missing_directories_are_made() {
    let tmp = tempfile::tempdir().unwrap();
    let out = dojo()
        .current_dir(tmp.path())
        .args([
            "league",
            "cardjitsu",
            "random-sh",
            "random-py",
            "--games",
            "2",
        ])
        .args(["--html", "results/standings.html", "--out", "results/l"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr_of(&out));
    let page = std::fs::read_to_string(tmp.path().join("results/standings.html")).unwrap();
    assert!(
        page.contains("<html"),
        "a page: {}",
        &page[..page.len().min(200)]
    );
    let out = dojo()
        .current_dir(tmp.path())
        .args([
            "match",
            "cardjitsu",
            "random-sh",
            "random-py",
            "--seed",
            "3",
        ])
        .args(["--json", "a/b/g.json", "--html", "c/g.html"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr_of(&out));
    assert!(tmp.path().join("a/b/g.json").is_file());
    assert!(tmp.path().join("c/g.html").is_file());
    // One output that cannot be written: the other's directory is not
    // made either.
    std::fs::write(tmp.path().join("file"), "mine").unwrap();
    let out = dojo()
        .current_dir(tmp.path())
        .args(["match", "cardjitsu", "random-sh", "random-py"])
        .args(["--json", "d/g.json", "--html", "file/g.html"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3), "{}", stderr_of(&out));
    assert!(
        stderr_of(&out).contains("--html file/g.html: cannot make the directory file"),
        "{}",
        stderr_of(&out)
    );
    assert!(!tmp.path().join("d").exists());
}

/// An `--out` directory whose path runs through a file is refused as an
/// output file's is, naming the file, before the league starts: nothing
/// printed, no other output's directory made.
#[test]
fn an_out_directory_under_a_file_is_refused_before_the_league_starts() {
    let tmp = tempfile::tempdir().unwrap();
    std::fs::create_dir(tmp.path().join("errs")).unwrap();
    std::fs::write(tmp.path().join("errs/afile"), "hi").unwrap();
    let out = dojo()
        .current_dir(tmp.path())
        .args([
            "league",
            "cardjitsu",
            "random-py",
            "random-sh",
            "--games",
            "2",
        ])
        .args(["--out", "errs/afile/sub", "--html", "errs/x/page.html"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3), "{}", stderr_of(&out));
    assert_eq!(stdout_of(&out), "", "no league header");
    assert_eq!(
        stderr_of(&out).trim_end(),
        "error: --out errs/afile/sub: cannot make the directory errs/afile/sub: errs/afile is not a directory"
    );
    assert!(!tmp.path().join("errs/x").exists());
}

#[test]
fn inputs_that_never_end_or_are_huge_are_refused_naming_the_file_and_the_cap() {
    let tmp = tempfile::tempdir().unwrap();
    let bot = tmp.path().join("huge-bot");
    std::fs::create_dir(&bot).unwrap();
    // Sparse: 8 GiB that take no disk.
    std::fs::File::create(bot.join("bot.toml"))
        .unwrap()
        .set_len(8 << 30)
        .unwrap();
    let league = tmp.path().join("league");
    random_league(&league, 2, &[]);
    std::fs::File::options()
        .write(true)
        .open(league.join("league.json"))
        .unwrap()
        .set_len(8 << 30)
        .unwrap();
    let bot_arg = bot.display().to_string();
    let league_arg = league.display().to_string();
    let league_json = league.join("league.json").display().to_string();
    let bot_toml = bot.join("bot.toml").display().to_string();
    let runs: Vec<(Vec<&str>, &str, &str)> = vec![
        (
            vec![
                "match",
                "cardjitsu",
                "random-sh",
                "random-py",
                "--deck1",
                "/dev/zero",
            ],
            "/dev/zero",
            "1 MiB",
        ),
        (
            vec![
                "league",
                "cardjitsu",
                "random-sh",
                "random-py",
                "--deck2",
                "/dev/zero",
            ],
            "/dev/zero",
            "1 MiB",
        ),
        (
            vec![
                "match",
                "royale",
                "--board",
                "/dev/zero",
                "--rock",
                "royale-random-py",
                "--paper",
                "royale-random-py",
                "--scissors",
                "royale-random-py",
            ],
            "/dev/zero",
            "16 MiB",
        ),
        (vec!["replay", "/dev/zero"], "/dev/zero", "256 MiB"),
        (
            vec!["match", "cardjitsu", &bot_arg, "random-sh"],
            &bot_toml,
            "1 MiB",
        ),
        (vec!["report", &league_arg], &league_json, "64 MiB"),
        (
            vec!["league", "--resume", &league_arg],
            &league_json,
            "64 MiB",
        ),
    ];
    for (args, file, cap) in runs {
        let started = Instant::now();
        let out = dojo().args(&args).output().unwrap();
        let err = stderr_of(&out);
        assert_eq!(out.status.code(), Some(3), "{args:?}: {err}");
        assert!(
            err.contains(&format!("{file}: larger than {cap}")),
            "{args:?}: {err}"
        );
        assert!(started.elapsed() < Duration::from_secs(60), "{args:?}");
    }
}

#[test]
fn a_low_hard_descriptor_limit_caps_the_bots_with_one_warning() {
    // Only a process without CAP_SYS_RESOURCE is held to its hard limit:
    // as root, drop it from the bounding set.
    let is_root = Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "0");
    let dojo_bin = assert_cmd::cargo::cargo_bin("dojo");
    let script = format!(
        "ulimit -n 256 && exec '{}' league cardjitsu random-sh random-py --games 2 --out \"$1\"",
        dojo_bin.display()
    );
    let tmp = tempfile::tempdir().unwrap();
    let mut cmd = if is_root {
        if !Command::new("setpriv")
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success())
        {
            eprintln!("skipped: running as root without setpriv to drop CAP_SYS_RESOURCE");
            return;
        }
        let mut cmd = Command::new("setpriv");
        cmd.args(["--bounding-set=-sys_resource", "sh", "-c", &script, "sh"]);
        cmd
    } else {
        let mut cmd = Command::new("sh");
        cmd.args(["-c", &script, "sh"]);
        cmd
    };
    let out = cmd
        .arg(tmp.path().join("l"))
        .current_dir(root())
        .output()
        .unwrap();
    let err = stderr_of(&out);
    assert!(out.status.success(), "{err}");
    assert_eq!(
        err.matches("--limit-files 1024 is above this process's hard limit on open files (256); bots get 256")
            .count(),
        1,
        "{err}"
    );
}

/// Sends `signal` (`TERM`, `HUP`) to `pid` with kill(1).
fn send(signal: &str, pid: u32) {
    let status = Command::new("kill")
        .args([&format!("-{signal}"), &pid.to_string()])
        .status()
        .unwrap();
    assert!(status.success());
}

/// Waits (generously) until `path` holds at least one line.
fn await_first_line(path: &Path, child: &mut std::process::Child) {
    let deadline = Instant::now() + Duration::from_secs(120);
    while !std::fs::read_to_string(path).is_ok_and(|t| t.contains('\n')) {
        assert!(child.try_wait().unwrap().is_none(), "dojo ended first");
        assert!(Instant::now() < deadline, "no game was stored in time");
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
#[ignore = "long tier: run by .ci/run and `just test-long`"]
fn sigterm_and_sighup_stop_a_league_with_its_report_and_it_resumes() {
    for (signal, code) in [("TERM", 143), ("HUP", 129)] {
        let tmp = tempfile::tempdir().unwrap();
        let out = tmp.path().join("l");
        let mut child = dojo_process()
            .args([
                "league",
                "cardjitsu",
                "random-sh",
                "random-py",
                "--games",
                "200",
                "--jobs",
                "1",
                "--out",
            ])
            .arg(&out)
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        await_first_line(&out.join("games.jsonl"), &mut child);
        send(signal, child.id());
        let result = child.wait_with_output().unwrap();
        let err = stderr_of(&result);
        assert_eq!(result.status.code(), Some(code), "SIG{signal}: {err}");
        let report: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(out.join("report.json")).unwrap())
                .unwrap();
        assert_eq!(report["timing"]["cancelled"], true, "SIG{signal}");
        let stored = std::fs::read_to_string(out.join("games.jsonl"))
            .unwrap()
            .lines()
            .count();
        assert!(
            stored < 400,
            "SIG{signal}: the league stopped early ({stored} games)"
        );
        if signal == "TERM" {
            stdout_ok(dojo().args(["league", "--resume"]).arg(&out));
            let stored = std::fs::read_to_string(out.join("games.jsonl"))
                .unwrap()
                .lines()
                .count();
            assert_eq!(stored, 200);
        }
    }
}

/// The seats' faults of every game stored in `out`'s `games.jsonl`.
fn stored_faults(out: &Path) -> Vec<serde_json::Value> {
    std::fs::read_to_string(out.join("games.jsonl"))
        .unwrap_or_default()
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()["faults"].clone())
        .collect()
}

/// `dojo league cardjitsu` of preempter.py (letting `skip` of its
/// processes play first) and random-py under `--sandbox off` (the
/// preempter's parent is then dojo), into `out`: its exit status and
/// stderr once preempted, and the seats' faults of every game stored
/// after a resume.
fn preempted_league(skip: u32) -> (Option<i32>, String, Vec<serde_json::Value>) {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("l");
    let mark = tmp.path().join("preempted");
    let preempter = format!(
        "preempter=python3 {} mark:{} {skip}",
        root().join("bots/hostile/preempter.py").display(),
        mark.display()
    );
    let stopped = dojo_process()
        .args([
            "league",
            "cardjitsu",
            &preempter,
            "random-py",
            "--games",
            "3",
        ])
        .args(["--jobs", "1", "--sandbox", "off", "--timeout-ms", "5000"])
        .arg("--out")
        .arg(&out)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .output()
        .unwrap();
    let err = stderr_of(&stopped);
    let mark_text = std::fs::read_to_string(&mark).unwrap_or_default();
    assert!(mark_text.contains("preempted"), "never preempted: {err}");
    for faults in stored_faults(&out) {
        assert!(
            faults.as_array().unwrap().iter().all(|f| f["crash"] == 0),
            "a crash of the stop was stored: {faults}"
        );
    }
    stdout_ok(dojo().args(["league", "--resume"]).arg(&out));
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("report.json")).unwrap()).unwrap();
    assert_eq!(report["complete"], true, "{report}");
    (stopped.status.code(), err, stored_faults(&out))
}

/// A scheduler stopping the whole job (`scancel --full`) sends SIGTERM to
/// dojo and to the bots at once: preempter.py does just that (to dojo,
/// its parent under `--sandbox off`, and to itself) in the league's first
/// game, and dies of it. Its game is interrupted, not stored as its
/// crash, and played on resume.
#[test]
fn a_bot_killed_by_the_stop_of_the_whole_job_is_not_charged_its_crash() {
    let (code, err, stored) = preempted_league(2);
    assert_eq!(code, Some(143), "{err}");
    assert!(!stored.is_empty());
    for faults in stored {
        assert!(
            faults.as_array().unwrap().iter().all(|f| f["crash"] == 0),
            "{faults}"
        );
    }
}

/// The same stop during the smoke start (the bot's first process): the
/// league stops as interrupted, and the bot is not said to have failed
/// its smoke start (in a league of a folder that would leave it out).
#[test]
fn a_stop_during_the_smoke_start_fails_no_bot() {
    let (code, err, _) = preempted_league(0);
    assert_eq!(code, Some(143), "{err}");
    assert!(!err.contains("smoke start"), "{err}");
}

#[test]
fn sigterm_stops_a_compare_with_status_143() {
    let mut child = dojo_process()
        .args([
            "compare",
            "cardjitsu",
            "random-sh",
            "random-py",
            "--games",
            "4000",
            "--jobs",
            "1",
            "-v",
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // -v says each finished block on stderr: wait for the first.
    let mut stderr = child.stderr.take().unwrap();
    let mut seen = Vec::new();
    let mut buf = [0u8; 4096];
    while !String::from_utf8_lossy(&seen).contains("compare:") {
        let n = stderr.read(&mut buf).unwrap();
        assert!(
            n > 0,
            "dojo ended first: {}",
            String::from_utf8_lossy(&seen)
        );
        seen.extend_from_slice(&buf[..n]);
    }
    send("TERM", child.id());
    let mut rest = String::new();
    stderr.read_to_string(&mut rest).unwrap();
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(143), "{rest}");
}

/// A Python bot of two files: `bot.py` imports `helper.py` beside it.
fn two_file_bot(dir: &Path, flush: bool) -> PathBuf {
    std::fs::create_dir_all(dir).unwrap();
    let flush = if flush { ", flush=True" } else { "" };
    std::fs::write(
        dir.join("bot.py"),
        format!(
            "import sys\nimport helper\nfor line in sys.stdin:\n    line = line.strip()\n    if ',' in line:\n        print(helper.pick(line){flush})\n    elif line.startswith('Player') or line == 'Draw!':\n        break\n"
        ),
    )
    .unwrap();
    std::fs::write(dir.join("helper.py"), "def pick(line):\n    return 0\n").unwrap();
    dir.join("bot.py")
}

fn python3() -> bool {
    let ok = Command::new("python3")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        eprintln!("skipped: python3 is not installed");
    }
    ok
}

#[test]
fn the_ci_recipe_runs_an_inline_python_bot_of_two_files() {
    if !python3() {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let new = two_file_bot(&tmp.path().join("new"), true);
    let base = two_file_bot(&tmp.path().join("base"), true);
    // As docs/ci-compare.md runs it: absolute paths, from dojo's checkout.
    let out = dojo()
        .args(["compare", "cardjitsu", "--games", "4", "--seed", "1"])
        .arg(format!("new=python3 {}", new.display()))
        .arg(format!("base=env VAR=1 python3 {}", base.display()))
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(2), "{text}{}", stderr_of(&out));
    // No bot faulted (the fault policy's own line aside).
    assert!(!text.contains("faults of "), "{text}");
}

#[test]
#[ignore = "long tier: run by .ci/run and `just test-long`"]
fn a_bot_that_never_flushes_is_told_to() {
    if !python3() {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let bot = two_file_bot(&tmp.path().join("bot"), false);
    let spec = format!("lazy=python3 {}", bot.display());
    let out = dojo()
        .args([
            "match",
            "cardjitsu",
            &spec,
            "random-sh",
            "--seed",
            "1",
            "--timeout-ms",
            "200",
            "-q",
        ])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("wrote nothing to stdout: a bot must flush stdout after each answer"),
        "{text}"
    );
    let out = dojo()
        .args([
            "league",
            "cardjitsu",
            &spec,
            "random-sh",
            "--games",
            "2",
            "--timeout-ms",
            "200",
            "--out",
        ])
        .arg(tmp.path().join("l"))
        .output()
        .unwrap();
    let err = stderr_of(&out);
    assert_eq!(out.status.code(), Some(3), "{err}");
    assert!(
        err.contains("a bot must flush stdout after each answer"),
        "{err}"
    );
}

#[test]
#[ignore = "long tier: run by .ci/run and `just test-long`"]
fn a_bundled_rust_bot_is_built_in_the_users_cache_not_the_checkout() {
    let cache = tempfile::tempdir().unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let record = tmp.path().join("g.json");
    let out = dojo()
        .env("XDG_CACHE_HOME", cache.path())
        .args([
            "match",
            "cardjitsu",
            "sensei",
            "random-sh",
            "--seed",
            "4",
            "-q",
            "--json",
        ])
        .arg(&record)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr_of(&out));
    let record: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&record).unwrap()).unwrap();
    let program = record["seats"][0]["command"][0].as_str().unwrap();
    let built = cache.path().join("dojo/build");
    assert!(Path::new(program).starts_with(&built), "{program}");
    assert!(Path::new(program).is_file(), "{program}");
}

/// Runs `dojo args`, which must be refused as a usage error (status 3)
/// before any game, saying `said`; returns its stderr.
fn refused(args: &[&str], said: &str) -> String {
    let out = dojo().args(args).output().unwrap();
    let err = stderr_of(&out);
    assert_eq!(out.status.code(), Some(3), "{args:?}: {err}");
    assert!(err.contains(said), "{args:?}: expected {said:?} in: {err}");
    assert!(
        out.stdout.is_empty(),
        "{args:?}: nothing is played or written"
    );
    assert!(
        !err.contains("league: "),
        "{args:?}: no league starts: {err}"
    );
    err
}

#[test]
fn an_output_that_is_an_input_or_another_output_is_refused_before_any_work() {
    let tmp = tempfile::tempdir().unwrap();
    let at = |name: &str| tmp.path().join(name).display().to_string();
    let (record, league) = (at("g.json"), at("league"));
    match_with(&["--json", &record]);
    let recorded = std::fs::read_to_string(&record).unwrap();
    random_league(Path::new(&league), 2, &[]);
    let report = format!("{league}/report.json");
    let reported = std::fs::read_to_string(&report).unwrap();
    let deck = at("deck.dcfg");
    std::fs::copy(dojo_testkit::paths::data("small.dcfg"), &deck).unwrap();
    let cj = ["match", "cardjitsu", "random-sh", "random-py"];
    let x = at("x");
    // The same file by another spelling is the same file.
    let x_again = format!(
        "{}/../{}/x",
        tmp.path().display(),
        tmp.path().file_name().unwrap().to_string_lossy()
    );
    let (new, new_report) = (at("new"), at("new/report.json"));
    let (merged, games) = (at("merged"), format!("{league}/games.jsonl"));
    let runs: Vec<(Vec<&str>, String)> = vec![
        (
            vec!["replay", &record, "--html", &record],
            format!("--html {record} is RECORD {record}, which this command reads"),
        ),
        (
            [&cj[..], &["--json", &x, "--html", &x_again]].concat(),
            format!("--json {x} and --html {x_again} are the same file"),
        ),
        (
            [&cj[..], &["--json", "-", "--html", "-"]].concat(),
            "--json - and --html - both write to stdout".into(),
        ),
        (
            [&cj[..], &["--deck1", &deck, "--json", &deck]].concat(),
            format!("--json {deck} is --deck1 {deck}"),
        ),
        (
            vec![
                "compare",
                "cardjitsu",
                "random-sh",
                "random-py",
                "--games",
                "2",
                "--deck2",
                &deck,
                "--html",
                &deck,
            ],
            format!("--html {deck} is --deck2 {deck}"),
        ),
        (
            vec![
                "league",
                "cardjitsu",
                "random-sh",
                "random-py",
                "--out",
                &new,
                "--html",
                &new_report,
            ],
            format!(
                "--html {} is the league's report.json in --out {}",
                new_report, new
            ),
        ),
        (
            vec!["league", "--resume", &league, "--html", &report],
            format!("--html {report} is the league's report.json in --resume {league}"),
        ),
        (
            vec!["report", &league, "--html", &report],
            format!("--html {report} is the league's report.json"),
        ),
        (
            vec!["merge", &league, "--out", &merged, "--html", &games],
            "is the league's games.jsonl".into(),
        ),
    ];
    for (args, said) in runs {
        refused(&args, &said);
    }
    assert_eq!(std::fs::read_to_string(&record).unwrap(), recorded);
    assert_eq!(std::fs::read_to_string(&report).unwrap(), reported);
    assert!(!Path::new(&x).exists());
    assert!(!Path::new(&new).exists(), "no league starts");
    assert!(!Path::new(&merged).exists());
    // A device keeps nothing to overwrite: two outputs may share one.
    let out = match_with(&["--json", "/dev/null", "--html", "/dev/null"]);
    assert!(out.status.success(), "{}", stderr_of(&out));
}

#[test]
fn an_output_that_is_a_directory_or_takes_no_write_is_refused_before_any_game() {
    let tmp = tempfile::tempdir().unwrap();
    let at = |name: &str| tmp.path().join(name).display().to_string();
    let (record, league) = (at("g.json"), at("league"));
    match_with(&["--json", &record]);
    random_league(Path::new(&league), 2, &[]);
    let adir = at("adir");
    std::fs::create_dir(&adir).unwrap();
    let new = at("new");
    let merged = at("merged");
    let commands: Vec<Vec<&str>> = vec![
        vec![
            "league",
            "cardjitsu",
            "random-sh",
            "random-py",
            "--games",
            "2",
            "--out",
            &new,
            "--html",
        ],
        vec!["match", "cardjitsu", "random-sh", "random-py", "--html"],
        vec!["match", "cardjitsu", "random-sh", "random-py", "--json"],
        vec![
            "match",
            "royale",
            "--board",
            "boards/arena.txt",
            "--rock",
            "royale-random-py",
            "--paper",
            "royale-random-py",
            "--scissors",
            "royale-random-py",
            "--html",
        ],
        vec![
            "compare",
            "cardjitsu",
            "random-sh",
            "random-py",
            "--games",
            "2",
            "--json",
        ],
        vec!["replay", &record, "--html"],
        vec!["report", &league, "--html"],
        vec!["merge", &league, "--out", &merged, "--html"],
    ];
    for command in commands {
        let flag = command.last().unwrap();
        let (dir, proc) = (
            [&command[..], &[&adir]].concat(),
            [&command[..], &["/proc/version"]].concat(),
        );
        refused(
            &dir,
            &format!("{flag} {adir}: is a directory; expected a file"),
        );
        refused(&proc, &format!("{flag} /proc/version: cannot be written"));
    }
    assert!(!Path::new(&new).exists(), "no league starts");
    assert!(!Path::new(&merged).exists());
}

#[test]
fn a_fifo_that_nobody_reads_is_refused_at_once_and_one_with_a_reader_gets_the_page() {
    let tmp = tempfile::tempdir().unwrap();
    let fifo = tmp.path().join("fifo");
    let made = Command::new("mkfifo").arg(&fifo).status();
    if !made.is_ok_and(|s| s.success()) {
        eprintln!("skipped: mkfifo is not available");
        return;
    }
    let league = tmp.path().join("league");
    let args = |out: &Path| {
        let mut cmd = dojo_process();
        cmd.args([
            "league",
            "cardjitsu",
            "random-sh",
            "random-py",
            "--games",
            "2",
        ])
        .arg("--html")
        .arg(&fifo)
        .arg("--out")
        .arg(out)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
        cmd
    };
    // Nobody reads it: refused before any game, without waiting.
    let mut child = args(&league).spawn().unwrap();
    let ended = dojo_testkit::procs::eventually(Duration::from_secs(60), || {
        child.try_wait().unwrap().is_some()
    });
    if !ended {
        child.kill().unwrap();
    }
    let out = child.wait_with_output().unwrap();
    assert!(ended, "dojo waited for a reader of the FIFO");
    let err = stderr_of(&out);
    assert_eq!(out.status.code(), Some(3), "{err}");
    assert!(err.contains("a FIFO that nobody reads"), "{err}");
    assert!(!league.exists(), "no league starts");
    // With a reader: the final page, once.
    let (reader, keeper) = fifo_reader(&fifo);
    let out = args(&league).output().unwrap();
    assert!(out.status.success(), "{}", stderr_of(&out));
    drop(keeper);
    let page = reader.join().unwrap();
    assert_eq!(page.matches("<html").count(), 1, "one page");
    assert!(page.trim_end().ends_with("</html>"));
}

#[test]
fn an_out_directory_that_is_a_file_is_refused_naming_the_flag() {
    let tmp = tempfile::tempdir().unwrap();
    let real = tmp.path().join("real.html");
    std::fs::write(&real, "mine").unwrap();
    let real = real.display().to_string();
    let league = tmp.path().join("league");
    random_league(&league, 2, &[]);
    let said = format!(
        "--out {real}: is a file; expected a directory (a new one, or an existing league's)"
    );
    let err = refused(
        &[
            "league",
            "cardjitsu",
            "random-sh",
            "random-py",
            "--out",
            &real,
        ],
        &said,
    );
    assert!(!err.contains("os error"), "{err}");
    refused(&["merge", league.to_str().unwrap(), "--out", &real], &said);
    assert_eq!(std::fs::read_to_string(&real).unwrap(), "mine");
}

#[test]
fn an_out_directory_holding_files_but_no_league_is_refused_and_left_alone() {
    let tmp = tempfile::tempdir().unwrap();
    // A folder of submissions given as --out by mistake.
    let folder = tmp.path().join("submissions");
    std::fs::create_dir(&folder).unwrap();
    std::fs::write(folder.join("notes.txt"), "hi\n").unwrap();
    let folder = folder.display().to_string();
    let said = format!(
        "--out {folder}: the directory holds \"notes.txt\" but no league.json, so it is no league's; expected a new or empty directory, or a league's"
    );
    let league = tmp.path().join("league");
    random_league(&league, 2, &[]);
    let cases: [&[&str]; 3] = [
        &[
            "league",
            "cardjitsu",
            "random-sh",
            "random-py",
            "--games",
            "2",
        ],
        &[
            "league",
            "cardjitsu",
            "random-sh",
            "--gauntlet",
            "random-py",
        ],
        &["merge", league.to_str().unwrap()],
    ];
    for args in cases {
        let args: Vec<&str> = args.iter().copied().chain(["--out", &folder]).collect();
        refused(&args, &said);
    }
    let names: Vec<_> = std::fs::read_dir(&folder)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names, ["notes.txt"], "nothing written beside it");
    // An empty directory takes a new league, or a merge.
    let empty = tmp.path().join("empty");
    std::fs::create_dir(&empty).unwrap();
    random_league(&empty, 2, &[]);
    let merged = tmp.path().join("merged");
    std::fs::create_dir(&merged).unwrap();
    stdout_ok(dojo().arg("merge").arg(&league).arg("--out").arg(&merged));
    assert!(merged.join("games.jsonl").exists());
}

/// `dojo league` of the two random bots, 10 games, `--jobs 8`, into `out`,
/// under `ulimit -n files`.
fn league_under_ulimit(files: u32, out: &Path) -> std::process::Output {
    let dojo_bin = assert_cmd::cargo::cargo_bin("dojo");
    let script = format!(
        "ulimit -n {files} && exec '{}' league cardjitsu random-sh random-py --games 10 --jobs 8 {} --out \"$1\"",
        dojo_bin.display(),
        dojo_testkit::cli::GENEROUS.join(" ")
    );
    Command::new("sh")
        .args(["-c", &script, "sh"])
        .arg(out)
        .current_dir(root())
        .output()
        .unwrap()
}

#[test]
fn a_low_descriptor_limit_lowers_the_jobs_with_a_note_and_fails_no_game() {
    // 64 descriptors: room for one game at once beside what dojo keeps,
    // where 8 (about 30 descriptors each) used to fail most games with
    // "Too many open files".
    let tmp = tempfile::tempdir().unwrap();
    let league = tmp.path().join("l");
    let out = league_under_ulimit(64, &league);
    let err = stderr_of(&out);
    assert!(out.status.success(), "{err}");
    assert!(
        err.contains(
            "note: playing 1 game at once, not 8: this process may open 64 files (ulimit -n) and each game in flight needs about 32"
        ),
        "{err}"
    );
    assert!(!err.contains("Too many open files"), "{err}");
    assert!(!err.contains("failed"), "{err}");
    let report = dojo_testkit::json::read_json(&league.join("report.json"));
    assert_eq!(report["games_played"], 10, "{report}");
    assert_eq!(
        report["timing"]["failed"],
        serde_json::json!([]),
        "{report}"
    );
    // Too few for even one game: refused before any, saying so.
    let league = tmp.path().join("m");
    let out = league_under_ulimit(40, &league);
    let err = stderr_of(&out);
    assert_eq!(out.status.code(), Some(3), "{err}");
    assert!(
        err.contains("this process may open 40 files (ulimit -n), too few for even one game"),
        "{err}"
    );
    assert!(!err.contains("Too many open files"), "{err}");
    assert!(!league.exists(), "no game is played");
}

#[test]
fn a_live_page_that_cannot_be_written_mid_league_is_a_warning_as_it_happens() {
    use std::io::BufRead;
    let tmp = tempfile::tempdir().unwrap();
    let pages = tmp.path().join("pages");
    std::fs::create_dir(&pages).unwrap();
    let page = pages.join("page.html");
    let out = tmp.path().join("l");
    let mut child = dojo_process()
        .args([
            "league",
            "cardjitsu",
            "random-sh",
            "random-py",
            "--games",
            "2000",
            "--jobs",
            "1",
        ])
        .args(dojo_testkit::cli::GENEROUS)
        .arg("--html")
        .arg(&page)
        .arg("--out")
        .arg(&out)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let (said, lines) = std::sync::mpsc::channel();
    let stderr = child.stderr.take().unwrap();
    let reader = std::thread::spawn(move || {
        for line in std::io::BufReader::new(stderr)
            .lines()
            .map_while(Result::ok)
        {
            let _ = said.send(line);
        }
    });
    // The page is written when the league starts; then its directory goes.
    await_first_line(&out.join("games.jsonl"), &mut child);
    assert!(
        page.exists(),
        "the live page is written as the league starts"
    );
    std::fs::remove_dir_all(&pages).unwrap();
    let warning = format!(
        "warning: cannot write the page {} while the league runs",
        page.display()
    );
    let deadline = Instant::now() + Duration::from_secs(120);
    let mut seen = Vec::new();
    let warned = loop {
        let left = deadline.saturating_duration_since(Instant::now());
        match lines.recv_timeout(left) {
            Ok(line) if line.contains(&warning) => break true,
            Ok(line) => seen.push(line),
            Err(_) => break false,
        }
    };
    let running = child.try_wait().unwrap().is_none();
    send("TERM", child.id());
    child.wait().unwrap();
    reader.join().unwrap();
    assert!(warned, "no warning: {seen:?}");
    assert!(running, "the warning comes while the league runs");
    assert!(out.join("report.json").exists(), "the league went on");
}

#[test]
fn another_users_file_in_a_sticky_directory_is_refused_before_any_game() {
    use std::os::unix::fs::PermissionsExt;
    // Root's file, written as another user: only root can set that up.
    let is_root = Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "0");
    let setpriv = Command::new("setpriv")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !is_root || !setpriv {
        eprintln!("skipped: needs root and setpriv to run dojo as another user");
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    std::fs::set_permissions(tmp.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    let sticky = tmp.path().join("sticky");
    std::fs::create_dir(&sticky).unwrap();
    std::fs::set_permissions(&sticky, std::fs::Permissions::from_mode(0o1777)).unwrap();
    let page = sticky.join("page.html");
    std::fs::write(&page, "root's").unwrap();
    let out = Command::new("setpriv")
        .args(["--reuid=65534", "--regid=65534", "--clear-groups"])
        .arg(assert_cmd::cargo::cargo_bin("dojo"))
        .args(["match", "cardjitsu", "random-sh", "random-py", "--html"])
        .arg(&page)
        .current_dir(root())
        .output()
        .unwrap();
    let err = stderr_of(&out);
    assert_eq!(out.status.code(), Some(3), "{err}");
    assert!(
        err.contains(&format!(
            "--html {}: cannot be replaced: it belongs to another user (uid 0) in the sticky directory",
            page.display()
        )),
        "{err}"
    );
    assert!(out.stdout.is_empty(), "no game is played");
    assert_eq!(std::fs::read_to_string(&page).unwrap(), "root's");
}
