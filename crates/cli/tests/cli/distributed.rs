//! The batch-system templates of `docs/distributed.md`, run as written: each
//! template's shard command runs once per shard as its own `dojo` process
//! (all at once, with the index the batch system would give it), then its
//! merge command; the merged report must equal a single machine's run of
//! the same league. Also: what `dojo merge` refuses.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Mutex;

use dojo_testkit::bots::copy_bundled;
use dojo_testkit::cli::{dojo, random_league, stderr_of, stdout_ok};
use dojo_testkit::json::{json_without_timing, read_json};
use dojo_testkit::paths::{copy_files, root};

/// The shell commands of one template: its `dojo league` line (with its
/// continuation lines joined) and its `dojo merge` line.
#[derive(Debug)]
struct Template {
    name: &'static str,
    league: String,
    merge: String,
}

fn code_blocks() -> Vec<String> {
    dojo_testkit::docs::code_blocks("docs/distributed.md")
}

fn commands(block: &str) -> Vec<String> {
    dojo_testkit::docs::dojo_commands(block)
}

/// The template whose shard command mentions `marker`, and the merge
/// command of the same section (the next `dojo merge` after it).
fn template(name: &'static str, marker: &str) -> Template {
    let blocks = code_blocks();
    let start = blocks
        .iter()
        .position(|b| b.contains(marker) && b.contains("dojo league"))
        .unwrap_or_else(|| panic!("no {name} template using {marker} in docs/distributed.md"));
    // Played as documented, with generous time limits: the shards and
    // the one-machine run are compared, and on a loaded machine a Python
    // bot can miss the default second a move in one run and not the other.
    let league = commands(&blocks[start])
        .into_iter()
        .find(|c| c.starts_with("dojo league"))
        .unwrap()
        .replacen(
            "dojo league",
            &format!("dojo league {}", dojo_testkit::cli::GENEROUS.join(" ")),
            1,
        );
    let merge = blocks[start..]
        .iter()
        .flat_map(|b| commands(b))
        .find(|c| c.starts_with("dojo merge"))
        .unwrap_or_else(|| panic!("the {name} template has no merge"));
    Template {
        name,
        league,
        merge,
    }
}

/// `sh -c CMD` in `dir`, with the `dojo` under test first on `PATH` and
/// the checkout as `DOJO_HOME` (as a batch node would have dojo installed
/// and the bots beside it).
fn sh(dir: &Path, cmd: &str) -> Command {
    let bin = assert_cmd::cargo::cargo_bin("dojo");
    let path = std::env::join_paths(std::iter::once(bin.parent().unwrap().to_path_buf()).chain(
        std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default()),
    ))
    .unwrap();
    let mut c = Command::new("sh");
    c.arg("-c")
        .arg(cmd)
        .current_dir(dir)
        .env("PATH", path)
        .env("DOJO_HOME", root())
        .stdin(Stdio::null());
    c
}

/// `dojo merge DIRS --out OUT`, run to its end.
fn merge(dirs: &[&PathBuf], out: &Path) -> std::process::Output {
    dojo()
        .arg("merge")
        .args(dirs)
        .arg("--out")
        .arg(out)
        .output()
        .unwrap()
}

fn run_ok(mut cmd: Command, what: &str) {
    let out = cmd.output().unwrap();
    assert!(
        out.status.success(),
        "{what} failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Runs `t` with `shards` shards at once, shard `i` (1-based) as
/// `index(i)` says (an environment variable to set, the command), then its
/// merge, and checks the merged report against one machine's run.
fn play(t: &Template, shards: u64, index: impl Fn(u64) -> (Option<(String, String)>, String)) {
    // One template at a time: each starts several leagues of Python bots
    // at once, and three times that on a loaded machine can exceed a
    // bot's start-up allowance.
    static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());
    let _turn = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let dir = tempfile::tempdir().unwrap();
    let children: Vec<_> = (1..=shards)
        .map(|i| {
            let (env, cmd) = index(i);
            let mut c = sh(dir.path(), &cmd);
            if let Some((k, v)) = env {
                c.env(k, v);
            }
            c.stdout(Stdio::null()).stderr(Stdio::piped());
            (i, c.spawn().unwrap())
        })
        .collect();
    for (i, child) in children {
        let out = child.wait_with_output().unwrap();
        assert!(
            out.status.success(),
            "{} shard {i} failed:\n{}",
            t.name,
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let shard_dirs: Vec<PathBuf> = std::fs::read_dir(dir.path().join("shards"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(shard_dirs.len() as u64, shards, "{}", t.name);
    run_ok(sh(dir.path(), &t.merge), &t.merge);

    // The same league on one machine: the shard command without its shard.
    // (Only the dropped values are quoted or hold variables.)
    let mut single: Vec<String> = Vec::new();
    let mut it = words(&t.league).into_iter().skip(1);
    while let Some(w) = it.next() {
        if w == "--shard" || w == "--out" || w == "--jobs" {
            it.next();
        } else {
            single.push(w);
        }
    }
    let whole = dir.path().join("whole");
    let out = dojo()
        .args(&single)
        .arg("--out")
        .arg(&whole)
        .env("DOJO_HOME", root())
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr_of(&out));

    let merged = dir.path().join("merged");
    assert_eq!(
        json_without_timing(&merged.join("report.json")),
        json_without_timing(&whole.join("report.json")),
        "{}: merged shards differ from one machine's league",
        t.name
    );
    let report = read_json(&merged.join("report.json"));
    assert_eq!(report["complete"], true);
    assert_eq!(report["games_played"], 12);
    // Every shard recorded its provenance, and the merge kept it.
    let league = read_json(&merged.join("league.json"));
    let fp = &league["provenance"]["fingerprints"];
    assert!(
        fp["random-py"].as_str().unwrap().starts_with("fnv1a64:"),
        "{league}"
    );
    assert!(league.get("shard").is_none_or(|s| s.is_null()));
}

#[test]
fn slurm_array_template_merges_into_the_single_machine_report() {
    let t = template("Slurm", "SLURM_ARRAY_TASK_ID");
    play(&t, 3, |i| {
        (
            Some(("SLURM_ARRAY_TASK_ID".into(), i.to_string())),
            t.league.clone(),
        )
    });
}

#[test]
fn kubernetes_indexed_job_template_merges_into_the_single_machine_report() {
    let t = template("Kubernetes", "JOB_COMPLETION_INDEX");
    play(&t, 3, |i| {
        (
            Some(("JOB_COMPLETION_INDEX".into(), (i - 1).to_string())),
            t.league.clone(),
        )
    });
}

#[test]
fn github_actions_matrix_template_merges_into_the_single_machine_report() {
    let t = template("GitHub Actions", "matrix.shard");
    play(&t, 3, |i| {
        (
            None,
            t.league.replace("${{ matrix.shard }}", &i.to_string()),
        )
    });
}

/// A shard of a small league played by `dojo league` (random bots).
fn shard(dir: &Path, name: &str, shard: &str, extra: &[&str]) -> PathBuf {
    let out = dir.join(name);
    random_league(
        &out,
        4,
        &[&["--seed", "3", "--shard", shard], extra].concat(),
    );
    out
}

#[test]
fn merge_refuses_shards_of_other_bots_naming_the_key() {
    let dir = tempfile::tempdir().unwrap();
    let a = shard(dir.path(), "a", "1/2", &[]);
    let b = shard(dir.path(), "b", "2/2", &[]);
    // The same league, but a bot's files changed between the shards.
    let path = b.join("league.json");
    let mut league = read_json(&path);
    league["provenance"]["fingerprints"]["random-sh"] = "fnv1a64:0000000000000000".into();
    std::fs::write(&path, league.to_string()).unwrap();
    let merged = dir.path().join("merged");
    let out = merge(&[&a, &b], &merged);
    assert!(!out.status.success());
    let err = stderr_of(&out);
    assert!(
        err.contains("provenance.fingerprints.random-sh"),
        "names the key: {err}"
    );
    assert!(!merged.exists(), "nothing written on refusal");

    // Another dojo version is refused the same way.
    league["provenance"]["fingerprints"]["random-sh"] =
        read_json(&a.join("league.json"))["provenance"]["fingerprints"]["random-sh"].clone();
    league["provenance"]["dojo_version"] = "0.0.0-other".into();
    std::fs::write(&path, league.to_string()).unwrap();
    let out = merge(&[&a, &b], &merged);
    assert!(!out.status.success());
    assert!(
        stderr_of(&out).contains("provenance.dojo_version"),
        "{}",
        stderr_of(&out)
    );
}

#[test]
fn merge_refuses_other_settings_naming_the_key() {
    let dir = tempfile::tempdir().unwrap();
    // Both with the default start-up time: only the move time differs.
    let a = shard(dir.path(), "a", "1/2", &["--timeout-ms", "20000"]);
    let b = shard(dir.path(), "b", "2/2", &["--timeout-ms", "19000"]);
    let out = merge(&[&a, &b], &dir.path().join("m"));
    assert!(!out.status.success());
    assert!(
        stderr_of(&out).contains("differs in: controls.timeout_ms"),
        "{}",
        stderr_of(&out)
    );
}

#[test]
fn merge_counts_a_game_found_twice_once_and_never_writes_its_inputs() {
    let dir = tempfile::tempdir().unwrap();
    let a = shard(dir.path(), "a", "1/2", &[]);
    let b = shard(dir.path(), "b", "2/2", &[]);
    // The first shard played again elsewhere: the same games twice.
    let again = dir.path().join("again");
    copy_files(&a, &again);
    let before: Vec<Vec<u8>> = [&a, &b, &again]
        .iter()
        .flat_map(|d| ["league.json", "games.jsonl", "report.json"].map(|f| d.join(f)))
        .map(|p| std::fs::read(p).unwrap())
        .collect();
    let merged = dir.path().join("merged");
    stdout_ok(
        dojo()
            .arg("merge")
            .args([&a, &b, &again])
            .arg("--out")
            .arg(&merged),
    );
    let games = std::fs::read_to_string(merged.join("games.jsonl")).unwrap();
    assert_eq!(games.lines().count(), 4, "each game once");
    assert_eq!(read_json(&merged.join("report.json"))["games_played"], 4);
    let after: Vec<Vec<u8>> = [&a, &b, &again]
        .iter()
        .flat_map(|d| ["league.json", "games.jsonl", "report.json"].map(|f| d.join(f)))
        .map(|p| std::fs::read(p).unwrap())
        .collect();
    assert!(before == after, "an input was written to");
    // Merging into one of the inputs is refused.
    let out = merge(&[&a, &b], &b);
    assert!(!out.status.success());
    assert!(
        stderr_of(&out).contains("also an input"),
        "{}",
        stderr_of(&out)
    );
}

/// `cmd` split into words at spaces outside double quotes (quotes kept).
fn words(cmd: &str) -> Vec<String> {
    let mut out = vec![String::new()];
    let mut quoted = false;
    for c in cmd.chars() {
        match c {
            '"' => {
                quoted = !quoted;
                out.last_mut().unwrap().push(c);
            }
            ' ' if !quoted => out.push(String::new()),
            c => out.last_mut().unwrap().push(c),
        }
    }
    out.retain(|w| !w.is_empty());
    out
}

#[test]
fn a_league_is_not_resumed_with_a_changed_bot() {
    let dir = tempfile::tempdir().unwrap();
    let bots = dir.path().join("bots");
    for bot in ["random-sh", "random-py"] {
        copy_bundled(bot, &bots.join(bot));
    }
    let out = dir.path().join("league");
    let league = |extra: &[&str]| {
        dojo()
            .arg("--bots-dir")
            .arg(&bots)
            .args([
                "league",
                "cardjitsu",
                "random-sh",
                "random-py",
                "--games",
                "2",
            ])
            .args(["--seed", "5", "--out"])
            .arg(&out)
            .args(extra)
            .output()
            .unwrap()
    };
    let first = league(&[]);
    assert!(first.status.success(), "{}", stderr_of(&first));
    // Running it again with the same bots continues (nothing to play).
    let same = league(&[]);
    assert!(same.status.success(), "{}", stderr_of(&same));
    // The bot's script changed: its games would not be the same bot's.
    let script = bots.join("random-sh/bot.sh");
    let mut text = std::fs::read_to_string(&script).unwrap();
    text.push_str("\n# changed\n");
    std::fs::write(&script, text).unwrap();
    let changed = league(&[]);
    assert!(!changed.status.success());
    let err = stderr_of(&changed);
    assert!(err.contains("provenance.fingerprints.random-sh"), "{err}");
}

/// Two of three shards merge into an incomplete league: exit 1 with what
/// is missing (it used to exit 0), unless `--partial` accepts it. The
/// merged directory carries each shard's stderr logs (the report's
/// warnings point there), headed by the shard they came from.
#[test]
fn a_partial_merge_fails_unless_accepted_and_keeps_the_stderr_logs() {
    let dir = tempfile::tempdir().unwrap();
    let a = shard(dir.path(), "a", "1/3", &[]);
    let b = shard(dir.path(), "b", "2/3", &[]);
    // Something to carry: a line a bot wrote to stderr in each shard.
    for (d, text) in [(&a, "from shard a\n"), (&b, "from shard b\n")] {
        std::fs::create_dir_all(d.join("stderr")).unwrap();
        std::fs::write(d.join("stderr/random-py.log"), text).unwrap();
    }
    let merged = dir.path().join("merged");
    let out = merge(&[&a, &b], &merged);
    assert_eq!(out.status.code(), Some(1), "{}", stderr_of(&out));
    assert!(
        stderr_of(&out).contains("the merged league is incomplete"),
        "{}",
        stderr_of(&out)
    );
    assert_eq!(read_json(&merged.join("report.json"))["complete"], false);
    let log = std::fs::read_to_string(merged.join("stderr/random-py.log")).unwrap();
    for (d, text) in [(&a, "from shard a"), (&b, "from shard b")] {
        assert!(
            log.contains(&format!("=== from {} ===", d.display())),
            "{log}"
        );
        assert!(log.contains(text), "{log}");
    }
    dojo()
        .arg("merge")
        .args([&a, &b])
        .arg("--out")
        .arg(&merged)
        .arg("--partial")
        .assert()
        .code(0);
}
