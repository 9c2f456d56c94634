//! Containment seen from the command line: `dojo doctor`, `--sandbox`,
//! and nothing a bot started outliving `kill -9` of dojo.

use std::process::Stdio;
use std::time::Duration;

use dojo_testkit::cli::{dojo, random_league, stdout_ok};
use dojo_testkit::json::read_json;
use dojo_testkit::paths::root;
use dojo_testkit::procs::{eventually, tagged_gone_within, tagged_processes};

#[test]
fn doctor_lists_every_layer() {
    let out = stdout_ok(dojo().arg("doctor"));
    for layer in [
        "pid-namespace",
        "network-namespace",
        "rlimits",
        "landlock",
        "seccomp",
    ] {
        assert!(out.contains(layer), "{out}");
    }
    assert!(out.contains("--sandbox strict"), "{out}");
}

/// A bot that cannot start under `--limit-processes 1` was told only
/// "Resource temporarily unavailable (os error 11)"; the message names
/// the limit, as `--limit-memory-mib 1` names memory.
#[test]
fn a_start_refused_by_the_process_limit_names_the_flag() {
    let doctor = stdout_ok(dojo().arg("doctor"));
    if !doctor.contains("cgroup-pids        yes") {
        eprintln!("skipped: needs process cgroups:\n{doctor}");
        return;
    }
    let out = dojo()
        .args(["match", "cardjitsu", "random-py", "random-sh"])
        .args(["--limit-processes", "1"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(3), "{err}");
    assert!(
        err.contains("cannot start") && err.contains("--limit-processes 1"),
        "{err}"
    );
}

#[test]
fn an_unknown_sandbox_mode_is_refused() {
    let out = dojo()
        .args([
            "match",
            "cardjitsu",
            "sensei",
            "random-py",
            "--sandbox",
            "maybe",
        ])
        .output()
        .expect("dojo runs");
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("maybe"));
}

#[test]
fn nothing_a_bot_started_survives_kill_9_of_dojo() {
    let doctor = stdout_ok(dojo().arg("doctor"));
    if !doctor.contains("pid-namespace      yes") {
        eprintln!("skipped: no PID namespaces here:\n{doctor}");
        return;
    }
    let tag = format!("dojo-kill9-{}", std::process::id());
    // hang.py stops answering after two hands; with a minute per move the
    // match is certainly still running when dojo is killed.
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("dojo"))
        .current_dir(root())
        .args([
            "match",
            "cardjitsu",
            &format!("esc=python3 bots/hostile/escaper.py {tag}"),
            "hang=python3 bots/faulty/hang.py",
            "--timeout-ms",
            "60000",
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("dojo starts");
    // The bot, its setsid grandchild, its setpgid child, the daemon.
    let started = eventually(Duration::from_secs(15), || {
        tagged_processes(&tag).len() >= 4
    });
    let _ = child.kill();
    let _ = child.wait();
    assert!(
        started,
        "the escapers never started: {:?}",
        tagged_processes(&tag)
    );
    let (gone, left) = tagged_gone_within(&tag, Duration::from_secs(15));
    assert!(gone, "left running after kill -9 of dojo: {left:?}");
}

/// The box makers of the dojo process `dojo` (its children named after
/// the thread that forks them).
fn box_makers_of(dojo: u32) -> Vec<i32> {
    std::fs::read_dir("/proc")
        .expect("/proc")
        .flatten()
        .filter_map(|e| e.file_name().to_str()?.parse::<i32>().ok())
        .filter(|pid| {
            let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
            let (Some(open), Some(close)) = (stat.find('('), stat.rfind(')')) else {
                return false;
            };
            let ppid = stat[close + 1..].split_whitespace().nth(1);
            &stat[open + 1..close] == "dojo-box-maker" && ppid == Some(&dojo.to_string())
        })
        .collect()
}

/// A box torn down from outside (dojo's box maker killed, as an
/// administrator or the OOM killer might) is no bot's doing: the game in
/// play fails and stays for a resume, rather than being stored with both
/// bots charged a crash (a walk found game 0 stored as a draw of two
/// crashes, and one bot ranked first on a game won that way).
#[test]
fn a_box_lost_with_its_maker_fails_the_game_for_a_resume_not_the_bots() {
    let doctor = stdout_ok(dojo().arg("doctor"));
    if !doctor.contains("pid-namespace      yes") {
        eprintln!("skipped: no PID namespaces here:\n{doctor}");
        return;
    }
    let tag = dojo_testkit::procs::unique_tag("maker");
    let dir = tempfile::tempdir().expect("tempdir");
    let out = dir.path().join("league");
    // Two hands, then silence until a timeout: the first game is in play
    // when the makers are killed; each later game ends at round 3.
    let league = || {
        let mut cmd = std::process::Command::new(assert_cmd::cargo::cargo_bin("dojo"));
        cmd.current_dir(root())
            .args(["league", "cardjitsu"])
            .arg(format!("a=python3 bots/faulty/hang.py {tag}-a"))
            .arg(format!("b=python3 bots/faulty/hang.py {tag}-b"))
            .args([
                "--games",
                "2",
                "--jobs",
                "1",
                "--seed",
                "5",
                "--max-rounds",
                "3",
            ])
            .args(["--timeout-ms", "3000", "--startup-ms", "20000", "--out"])
            .arg(&out);
        cmd
    };
    let child = league()
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("dojo starts");
    // The league's first game, not a smoke start (each of those plays a
    // bot against itself, before league.json is written).
    // (dojo's own command line, its makers' and its waiters' name the
    // tags too.)
    let bots = |side: &str| {
        tagged_processes(&format!("{tag}-{side}"))
            .into_iter()
            .filter(|pid| {
                std::fs::read_to_string(format!("/proc/{pid}/comm"))
                    .is_ok_and(|c| c.trim_end() == "python3")
            })
            .count()
    };
    let playing = eventually(Duration::from_secs(60), || {
        out.join("league.json").exists() && bots("a") == 1 && bots("b") == 1
    });
    let makers = box_makers_of(child.id());
    for pid in &makers {
        let _ = std::process::Command::new("kill")
            .args(["-KILL", &pid.to_string()])
            .status();
    }
    let ended = child.wait_with_output().expect("dojo ends");
    let stderr = String::from_utf8_lossy(&ended.stderr);
    assert!(playing, "the bots never started: {stderr}");
    if makers.is_empty() {
        eprintln!("skipped: this dojo forked its boxes itself (no box maker): {stderr}");
        return;
    }
    assert!(
        stderr.contains("its box was torn down from outside"),
        "{stderr}"
    );
    let stored = || -> Vec<u64> {
        std::fs::read_to_string(out.join("games.jsonl"))
            .unwrap_or_default()
            .lines()
            .map(|l| {
                serde_json::from_str::<serde_json::Value>(l).unwrap()["id"]
                    .as_u64()
                    .unwrap()
            })
            .collect()
    };
    assert_eq!(stored(), [1], "game 0 failed, not stored: {stderr}");
    // The resume plays it.
    let again = std::process::Command::new(assert_cmd::cargo::cargo_bin("dojo"))
        .current_dir(root())
        .args(["league", "--resume"])
        .arg(&out)
        .output()
        .expect("dojo resumes");
    assert!(
        again.status.success(),
        "{}",
        String::from_utf8_lossy(&again.stderr)
    );
    let mut ids = stored();
    ids.sort_unstable();
    assert_eq!(ids, [0, 1]);
    let (gone, left) = tagged_gone_within(&tag, Duration::from_secs(15));
    assert!(gone, "left running: {left:?}");
}

#[test]
fn a_league_records_the_containment_it_had() {
    let dir = tempfile::tempdir().expect("tempdir");
    let out = dir.path().join("league");
    random_league(&out, 2, &["--sandbox", "off"]);
    let league = read_json(&out.join("league.json"));
    assert_eq!(league["containment"]["mode"], "off", "{league}");
    let layers = league["containment"]["layers"].as_array().expect("layers");
    assert!(!layers.iter().any(|l| l == "pid-namespace"), "{league}");
    assert!(layers.iter().any(|l| l == "clean-environment"), "{league}");
    let report = read_json(&out.join("report.json"));
    assert_eq!(report["timing"]["containment"], league["containment"]);
}

/// In a container, dojo's session and process-group leaders are often
/// outside its PID namespace, and the kernel reports their ids as 0: the
/// end-of-bot sweep once took those ids for impossible and panicked.
/// `unshare --pid --fork` makes the same situation here.
#[test]
fn dojo_runs_where_its_session_leader_is_outside_its_pid_namespace() {
    let unshare = ["unshare", "--user", "--map-root-user", "--pid", "--fork"];
    let probe = std::process::Command::new(unshare[0])
        .args(&unshare[1..])
        .args(["sh", "-c", "exit 0"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status();
    if !probe.is_ok_and(|status| status.success()) {
        eprintln!(
            "skipped: `unshare --user --pid` is not available here (util-linux, user namespaces)"
        );
        return;
    }
    let binary = assert_cmd::cargo::cargo_bin("dojo");
    for sandbox in ["off", "auto"] {
        let out = std::process::Command::new(unshare[0])
            .args(&unshare[1..])
            .arg(&binary)
            .args([
                "match",
                "cardjitsu",
                "random-sh",
                "random-py",
                "--seed",
                "5",
                "--sandbox",
                sandbox,
            ])
            .current_dir(root())
            .output()
            .expect("unshare runs");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            out.status.success(),
            "--sandbox {sandbox}: {:?}\n{stderr}",
            out.status
        );
        assert!(
            !stderr.contains("panicked"),
            "--sandbox {sandbox}: {stderr}"
        );
    }
}

/// A dojo in a PID namespace of its own (a container's, a CI run's under
/// `unshare --pid`) names its control groups after its PID there, which
/// means nothing to a dojo outside: this one, starting, took those live
/// groups for a dead dojo's and killed the bots in them (both seats
/// crashed). Groups now carry their PID namespace, and only a dojo of
/// the same namespace judges them.
#[test]
fn a_dojo_starting_elsewhere_leaves_a_dojo_in_another_pid_namespace_alone() {
    let doctor = stdout_ok(dojo().arg("doctor"));
    let root_user = std::fs::read_to_string("/proc/self/status")
        .is_ok_and(|s| s.lines().any(|l| l.starts_with("Uid:\t0\t")));
    let unshare = std::process::Command::new("unshare")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !root_user || !unshare || !doctor.contains("cgroup-pids        yes") {
        eprintln!("skipped: needs root, unshare(1) and process cgroups:\n{doctor}");
        return;
    }
    // Its dojo gets a PID no process has out here, as a dojo in another
    // namespace usually does.
    let pid_max: u32 = std::fs::read_to_string("/proc/sys/kernel/pid_max")
        .ok()
        .and_then(|s| s.trim().parse().ok())
        .unwrap_or(32768);
    let Some(start) = (1..20)
        .map(|k| pid_max - k * 500)
        .find(|s| (s + 1..s + 50).all(|p| !std::path::Path::new(&format!("/proc/{p}")).exists()))
    else {
        eprintln!("skipped: no free range of PIDs below {pid_max}");
        return;
    };
    let tag = dojo_testkit::procs::unique_tag("other-namespace");
    let script = format!(
        "echo {start} > /proc/sys/kernel/ns_last_pid && {dojo} match cardjitsu \
         'slow=python3 bots/hostile/thinker.py 0.4 {tag}' random-py \
         --timeout-ms 60000 --startup-ms 60000; true",
        dojo = assert_cmd::cargo::cargo_bin("dojo").display()
    );
    let child = std::process::Command::new("unshare")
        .current_dir(root())
        .args(["--pid", "--fork", "--mount-proc", "bash", "-c", &script])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("unshare runs");
    // The bot itself (the shell and dojo carry the tag in their command
    // lines too).
    let bot_runs = || {
        tagged_processes(&tag).iter().any(|pid| {
            std::fs::read_to_string(format!("/proc/{pid}/comm"))
                .is_ok_and(|c| c.starts_with("python"))
        })
    };
    assert!(
        eventually(Duration::from_secs(120), bot_runs),
        "the match in its namespace never started its bot"
    );
    // Another dojo starts out here and looks for what dead dojos left.
    let doctor = stdout_ok(dojo().arg("doctor"));
    let out = child.wait_with_output().expect("the match ends");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("result:"),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        !stdout.contains("crash"),
        "its bots were killed:\n{stdout}\n{doctor}"
    );
}

/// A CardJitsu bot in `lang`: its `bot.toml` and source in `dir`, the
/// same play in each language (the first card of every hand; it leaves
/// at the result line).
fn first_card_bot(dir: &std::path::Path, lang: &str) -> Option<std::path::PathBuf> {
    let have = |program: &str| {
        let found = std::process::Command::new("sh")
            .args(["-c", &format!("command -v {program}")])
            .stdout(Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        if !found {
            eprintln!("skipped {lang}: no {program} here");
        }
        found
    };
    let bot = dir.join(lang);
    std::fs::create_dir_all(&bot).unwrap();
    let (command, file, source) = match lang {
        "java" => (
            "java Bot.java",
            "Bot.java",
            "import java.io.*;\n\
             public class Bot { public static void main(String[] a) throws Exception {\n\
             BufferedReader in = new BufferedReader(new InputStreamReader(System.in));\n\
             String l; while ((l = in.readLine()) != null) {\n\
             if (l.startsWith(\"Player\") || l.equals(\"Draw!\")) return;\n\
             if (l.contains(\",\")) { System.out.println(\"0\"); System.out.flush(); } } } }\n",
        ),
        "node" => (
            "node bot.js",
            "bot.js",
            "const rl = require('readline').createInterface({ input: process.stdin });\n\
             rl.on('line', (l) => {\n\
             if (l.startsWith('Player') || l === 'Draw!') process.exit(0);\n\
             if (l.includes(',')) console.log('0'); });\n",
        ),
        "c" => (
            "./bot",
            "bot.c",
            "#include <stdio.h>\n#include <string.h>\n\
             int main(void) { char l[4096];\n\
             while (fgets(l, sizeof l, stdin)) {\n\
             if (!strncmp(l, \"Player\", 6) || !strncmp(l, \"Draw!\", 5)) return 0;\n\
             if (strchr(l, ',')) { puts(\"0\"); fflush(stdout); } }\n return 0; }\n",
        ),
        other => panic!("no {other} bot"),
    };
    let tool = match lang {
        "c" => "cc",
        other => other,
    };
    if !have(tool) {
        return None;
    }
    std::fs::write(bot.join(file), source).unwrap();
    if lang == "c" {
        let built = std::process::Command::new("cc")
            .args(["-O2", "-o"])
            .arg(bot.join("bot"))
            .arg(bot.join(file))
            .status()
            .unwrap();
        assert!(built.success());
    }
    std::fs::write(
        bot.join("bot.toml"),
        format!("name = \"first-{lang}\"\ncommand = \"{command}\"\ngames = [\"cardjitsu\"]\n"),
    )
    .unwrap();
    Some(bot)
}

/// The seccomp filter allows a list of calls: bots in the languages the
/// shell and Python tests do not cover (a JVM, Node, a C binary) still run
/// under it, in a box, and play a clean game.
#[test]
fn bots_in_java_node_and_c_play_clean_games_in_a_box() {
    let tmp = tempfile::tempdir().unwrap();
    for lang in ["java", "node", "c"] {
        let Some(bot) = first_card_bot(tmp.path(), lang) else {
            continue;
        };
        let record = tmp.path().join(format!("{lang}.json"));
        let out = dojo()
            .args(["match", "cardjitsu"])
            .arg(&bot)
            .args(["random-sh", "--seed", "3"])
            .args(dojo_testkit::cli::GENEROUS)
            .arg("--json")
            .arg(&record)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{lang}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let record = read_json(&record);
        let conduct = &record["conduct"][0];
        for key in ["timeout", "crash", "invalid", "restart"] {
            assert_eq!(conduct[key], 0, "{lang}: {conduct}");
        }
        assert_eq!(conduct["spawns"], 1, "{lang}: {conduct}");
    }
}

/// A Java bot as `crates/runner/MANIFEST.md` has it: its build compiles
/// into its build cache (`javac -d $DOJO_CACHE/classes`), its command
/// names that directory, no file. Its box shows it its own cache: it
/// played no move before (`Could not find or load main class Bot` on
/// every one, the program being `java`, the only thing it was shown).
#[test]
fn a_java_bot_runs_the_classes_its_build_left_in_its_cache() {
    let tmp = tempfile::tempdir().unwrap();
    let Some(bot) = first_card_bot(tmp.path(), "java") else {
        return;
    };
    std::fs::write(
        bot.join("bot.toml"),
        "build = \"javac -d $DOJO_CACHE/classes Bot.java\"\n\
         command = \"java -cp $DOJO_CACHE/classes Bot\"\n\
         games = [\"cardjitsu\"]\n",
    )
    .unwrap();
    let record = tmp.path().join("java.json");
    let out = dojo()
        .env("XDG_CACHE_HOME", tmp.path().join("cache"))
        .args(["match", "cardjitsu"])
        .arg(&bot)
        .args(["random-sh", "--seed", "3"])
        .args(dojo_testkit::cli::GENEROUS)
        .arg("--json")
        .arg(&record)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let record = read_json(&record);
    let conduct = &record["conduct"][0];
    for key in ["timeout", "crash", "invalid", "restart"] {
        assert_eq!(conduct[key], 0, "{conduct}\n{stderr}");
    }
}

/// An inline bot whose program is a script given by its path from another
/// directory (as a CI job gives a checkout's `bot.py`) may read the
/// modules beside it under the default sandbox, as the same script run by
/// its interpreter may: it had the file alone, and its `import` failed.
#[test]
fn an_inline_script_run_by_its_hashbang_imports_the_modules_beside_it() {
    use std::os::unix::fs::PermissionsExt;
    let tmp = tempfile::tempdir().unwrap();
    let checkout = tmp.path().join("checkout");
    std::fs::create_dir(&checkout).unwrap();
    std::fs::copy(
        root().join("bots/random-py/bot.py"),
        checkout.join("player.py"),
    )
    .unwrap();
    let bot = checkout.join("bot.py");
    std::fs::write(
        &bot,
        "#!/usr/bin/env python3\nimport player\nplayer.main()\n",
    )
    .unwrap();
    std::fs::set_permissions(&bot, std::fs::Permissions::from_mode(0o755)).unwrap();
    let out = dojo()
        .args(["match", "cardjitsu", "--seed", "1", "--sandbox", "auto"])
        .arg(format!("mine={}", bot.display()))
        .arg("random-py")
        .args(dojo_testkit::cli::GENEROUS)
        .output()
        .unwrap();
    let text = format!(
        "{}{}",
        dojo_testkit::cli::stdout_of(&out),
        dojo_testkit::cli::stderr_of(&out)
    );
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(!text.contains("ModuleNotFoundError"), "{text}");
}
