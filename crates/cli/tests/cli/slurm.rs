//! The Slurm templates of `docs/distributed.md` on a real single-node
//! Slurm: `munged`, `slurmctld` and `slurmd` started here with a generated
//! `slurm.conf` for `localhost`, the documented `league-shard.sh` (a job
//! array) and `league-merge.sh` submitted with the documented commands,
//! exactly as written; the merged report must equal one machine's. Then a
//! shard is preempted mid-run (SIGTERM, then requeued) and must resume to
//! the same games.
//!
//! Needs root and Debian's `slurm-wlm` and `munge`; without them it prints
//! why and passes, unless `DOJO_REQUIRE_SLURM=1` (as `.ci/run` sets after
//! installing them).

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use dojo_testkit::bots::copy_bundled;
use dojo_testkit::docs::{block_with, dojo_commands, write_script};
use dojo_testkit::json::{games, json_without_timing, read_json};

const DOC: &str = "docs/distributed.md";

/// How long a step may take on a loaded machine before the test gives up.
const PATIENCE: Duration = Duration::from_secs(300);

/// A single-node Slurm of our own, stopped (with every job cancelled)
/// when dropped.
struct Cluster {
    dir: tempfile::TempDir,
    conf: PathBuf,
    daemons: Vec<Child>,
}

impl Drop for Cluster {
    fn drop(&mut self) {
        let _ = self.command("scancel", &["--user=root"]).output();
        for d in &mut self.daemons {
            let _ = d.kill();
            let _ = d.wait();
        }
    }
}

/// Why the test cannot run here, or `None` when it can.
fn missing() -> Option<String> {
    let uid = Command::new("id").arg("-u").output().ok();
    if uid.is_none_or(|o| String::from_utf8_lossy(&o.stdout).trim() != "0") {
        return Some("not root (slurmd starts each job as its user)".into());
    }
    for bin in [
        "munged",
        "munge",
        "slurmctld",
        "slurmd",
        "sbatch",
        "squeue",
        "scancel",
        "scontrol",
        "sinfo",
    ] {
        let found = Command::new("sh")
            .args(["-c", &format!("command -v {bin}")])
            .stdout(Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        if !found {
            return Some(format!(
                "{bin} is not installed (Debian's slurm-wlm and munge packages)"
            ));
        }
    }
    None
}

/// Polls `done` every 50 ms until it holds, failing the test with `what`
/// after [`PATIENCE`]. (Slurm says nothing when a node comes up or a
/// task's state changes: there is nothing to wait on but its answers.)
fn wait_for(what: &str, mut done: impl FnMut() -> bool) {
    let deadline = Instant::now() + PATIENCE;
    while !done() {
        assert!(Instant::now() < deadline, "gave up waiting for {what}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

fn ok(out: Output, what: &str) -> String {
    assert!(
        out.status.success(),
        "{what} failed ({}):\n{}{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

impl Cluster {
    /// Starts munge (unless one already answers), slurmctld and slurmd.
    fn start() -> Option<Cluster> {
        if let Some(why) = missing() {
            if std::env::var("DOJO_REQUIRE_SLURM").as_deref() == Ok("1") {
                panic!("DOJO_REQUIRE_SLURM=1, but {why}");
            }
            eprintln!("skipping the real-Slurm test: {why}");
            return None;
        }
        let dir = tempfile::tempdir().unwrap();
        let mut daemons = Vec::new();
        let munge_ok = || {
            Command::new("sh")
                .args(["-c", "munge -n | unmunge"])
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .status()
                .is_ok_and(|s| s.success())
        };
        if !munge_ok() {
            // munged runs as its own user, with its socket under /run/munge.
            std::fs::create_dir_all("/run/munge").unwrap();
            ok(
                Command::new("chown")
                    .args(["munge:munge", "/run/munge"])
                    .output()
                    .unwrap(),
                "chown /run/munge",
            );
            daemons.push(
                Command::new("runuser")
                    .args(["-u", "munge", "--", "munged", "--foreground"])
                    .stdout(Stdio::null())
                    .stderr(Stdio::null())
                    .spawn()
                    .unwrap(),
            );
            wait_for("munged to answer", munge_ok);
        }
        // Ports of our own, so a machine's own Slurm (or another run of
        // this test) is not disturbed.
        let port = 20_000 + (std::process::id() % 10_000) * 2;
        let d = dir.path();
        for sub in ["state", "spool", "log"] {
            std::fs::create_dir_all(d.join(sub)).unwrap();
        }
        let cpus = std::thread::available_parallelism().map_or(1, |n| n.get());
        let conf = d.join("slurm.conf");
        std::fs::write(
            &conf,
            format!(
                "ClusterName=dojotest\n\
                 SlurmctldHost=localhost\n\
                 SlurmctldPort={port}\n\
                 SlurmdPort={}\n\
                 SlurmUser=root\n\
                 SlurmdUser=root\n\
                 AuthType=auth/munge\n\
                 StateSaveLocation={d}/state\n\
                 SlurmdSpoolDir={d}/spool\n\
                 SlurmctldPidFile={d}/slurmctld.pid\n\
                 SlurmdPidFile={d}/slurmd.pid\n\
                 SlurmctldLogFile={d}/log/slurmctld.log\n\
                 SlurmdLogFile={d}/log/slurmd.log\n\
                 ProctrackType=proctrack/linuxproc\n\
                 TaskPlugin=task/none\n\
                 MpiDefault=none\n\
                 SchedulerType=sched/builtin\n\
                 SchedulerParameters=kill_invalid_depend\n\
                 SelectType=select/cons_tres\n\
                 SelectTypeParameters=CR_CPU\n\
                 ReturnToService=2\n\
                 JobRequeue=1\n\
                 KillWait=10\n\
                 JobCompType=jobcomp/none\n\
                 AccountingStorageType=accounting_storage/none\n\
                 NodeName=localhost CPUs={cpus} State=UNKNOWN\n\
                 PartitionName=debug Nodes=localhost Default=YES MaxTime=INFINITE State=UP\n",
                port + 1,
                d = d.display()
            ),
        )
        .unwrap();
        let mut cluster = Cluster { dir, conf, daemons };
        for (daemon, extra) in [("slurmctld", &[][..]), ("slurmd", &["-N", "localhost"][..])] {
            let log = std::fs::File::create(cluster.dir.path().join(format!("log/{daemon}.out")))
                .unwrap();
            let child = Command::new(daemon)
                .arg("-D")
                .arg("-f")
                .arg(&cluster.conf)
                .args(extra)
                .env("SLURM_CONF", &cluster.conf)
                .stdout(log.try_clone().unwrap())
                .stderr(log)
                .spawn()
                .unwrap();
            cluster.daemons.push(child);
        }
        wait_for("the Slurm node to be idle", || {
            cluster
                .command("sinfo", &["-h", "-o", "%t"])
                .output()
                .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "idle")
        });
        Some(cluster)
    }

    /// A Slurm client command for this cluster.
    fn command(&self, program: &str, args: &[&str]) -> Command {
        let mut c = Command::new(program);
        c.args(args)
            .env("SLURM_CONF", &self.conf)
            .stdin(Stdio::null());
        c
    }

    /// A directory to submit from, holding `bots/` with the bundled bots
    /// the templates name, as the doc says to submit.
    fn job_dir(&self, name: &str) -> PathBuf {
        let dir = self.dir.path().join(name);
        for bot in ["random-py", "random-sh"] {
            copy_bundled(bot, &dir.join("bots").join(bot));
        }
        dir
    }

    /// `sh -c script` in `dir`, with the `dojo` under test first on `PATH`
    /// (Slurm hands the submitting environment to the jobs).
    fn sh(&self, dir: &Path, script: &str) -> Command {
        let bin = assert_cmd::cargo::cargo_bin("dojo");
        let path =
            std::env::join_paths(std::iter::once(bin.parent().unwrap().to_path_buf()).chain(
                std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default()),
            ))
            .unwrap();
        let mut c = self.command("sh", &["-c", script]);
        c.current_dir(dir).env("PATH", path).env_remove("DOJO_HOME");
        c
    }

    /// Waits until every task of `job` has left the queue.
    fn wait_job(&self, job: &str) {
        wait_for(&format!("job {job} to end"), || {
            self.command("squeue", &["-h", "-j", job])
                .output()
                .is_ok_and(|o| o.status.success() && o.stdout.is_empty())
        });
    }

    /// The state of one task (`RUNNING`, `PENDING`, ...; empty once it
    /// has left the queue).
    fn state(&self, task: &str) -> String {
        let out = self
            .command("squeue", &["-h", "-j", task, "-o", "%T"])
            .output()
            .unwrap();
        String::from_utf8_lossy(&out.stdout).trim().to_owned()
    }

    /// The logs of the daemons and jobs, for a failure message.
    fn logs(&self, job_dir: &Path) -> String {
        let mut text = String::new();
        for dir in [self.dir.path().join("log"), job_dir.to_owned()] {
            for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
                let p = entry.path();
                if p.extension().is_some_and(|e| e == "log" || e == "out") {
                    let body = std::fs::read_to_string(&p).unwrap_or_default();
                    let tail: Vec<&str> = body.lines().rev().take(15).collect();
                    text.push_str(&format!("--- {}\n", p.display()));
                    for line in tail.into_iter().rev() {
                        text.push_str(line);
                        text.push('\n');
                    }
                }
            }
        }
        text
    }
}

/// The documented shard and merge scripts, as written, into `dir`.
fn write_templates(dir: &Path) -> String {
    let shard = block_with(DOC, &["#SBATCH --array", "dojo league"]);
    write_script(dir, "league-shard.sh", &shard);
    write_script(
        dir,
        "league-merge.sh",
        &block_with(DOC, &["#SBATCH", "dojo merge"]),
    );
    shard
}

/// The template's league on one machine (its `dojo league` line without
/// `--shard`, `--out` and `--jobs`, whose values are the only quoted ones),
/// plus `extra`, into `dir/out`.
fn single_machine(cluster: &Cluster, dir: &Path, shard_script: &str, extra: &str, out: &str) {
    let line = dojo_commands(shard_script)
        .into_iter()
        .find(|c| c.starts_with("dojo league"))
        .expect("the shard script runs dojo league");
    let mut words = line.split_whitespace();
    let mut kept = Vec::new();
    while let Some(w) = words.next() {
        if ["--shard", "--out", "--jobs"].contains(&w) {
            words.next();
        } else {
            kept.push(w);
        }
    }
    let cmd = format!("{} {extra} --jobs 2 --out {out}", kept.join(" "));
    ok(cluster.sh(dir, &cmd).output().unwrap(), &cmd);
}

/// Makes `random-sh` in `dir/bots` take 0.2 s a move (the same moves), so
/// a shard runs long enough to be preempted in the middle.
fn slow_down_random_sh(dir: &Path) {
    let script = dir.join("bots/random-sh/bot.sh");
    let text = std::fs::read_to_string(&script).unwrap();
    let slowed = text.replacen("            echo $((", "            sleep 0.2; echo $((", 1);
    assert_ne!(slowed, text, "random-sh's answer line moved");
    std::fs::write(&script, slowed).unwrap();
}

#[test]
#[ignore = "long tier: run by .ci/run and `just test-long`"]
fn the_documented_slurm_templates_run_and_a_preempted_shard_resumes() {
    let Some(cluster) = Cluster::start() else {
        return;
    };

    // 1. The templates and the submit commands exactly as documented.
    let dir = cluster.job_dir("templates");
    let shard_script = write_templates(&dir);
    let submit = block_with(DOC, &["sbatch --parsable league-shard.sh"]);
    let said = ok(cluster.sh(&dir, &submit).output().unwrap(), &submit);
    let merge_job = said
        .split_whitespace()
        .last()
        .unwrap_or_else(|| panic!("no job id in {said:?}"))
        .to_owned();
    cluster.wait_job(&merge_job);
    let merged = dir.join("merged/report.json");
    assert!(
        merged.is_file(),
        "the merge job wrote no report:\n{}",
        cluster.logs(&dir)
    );
    single_machine(&cluster, &dir, &shard_script, "", "whole");
    assert_eq!(
        json_without_timing(&merged),
        json_without_timing(&dir.join("whole/report.json")),
        "the merged shards differ from one machine's league"
    );
    assert_eq!(read_json(&merged)["complete"], true);

    // 2. A shard preempted in the middle: SIGTERM, then requeued; its
    // script runs again and must continue the shard to the same games.
    let dir = cluster.job_dir("preempted");
    slow_down_random_sh(&dir);
    write_templates(&dir);
    let job = ok(
        cluster
            .sh(&dir, "sbatch --parsable league-shard.sh")
            .output()
            .unwrap(),
        "sbatch league-shard.sh",
    );
    let job = job.trim().to_owned();
    let task = format!("{job}_2");
    let shard = dir.join("shards/2");
    wait_for("shard 2 to store its first game", || {
        std::fs::read_to_string(shard.join("games.jsonl")).is_ok_and(|t| t.lines().count() >= 1)
    });
    ok(
        cluster
            .command("scancel", &["--signal=TERM", "--full", &task])
            .output()
            .unwrap(),
        "scancel --signal=TERM",
    );
    wait_for("the signalled task to stop", || {
        !matches!(cluster.state(&task).as_str(), "RUNNING" | "COMPLETING")
    });
    let before = games(&shard).len();
    let per_shard = 4;
    assert!(
        (1..per_shard).contains(&before),
        "{before} of {per_shard} games were stored when the task stopped: not mid-run"
    );
    ok(
        cluster
            .command("scontrol", &["requeue", &task])
            .output()
            .unwrap(),
        "scontrol requeue",
    );
    // Slurm holds a requeued task for two minutes before it is eligible
    // again; let it go now.
    let id = format!("JobId={task}");
    ok(
        cluster
            .command("scontrol", &["update", &id, "StartTime=now"])
            .output()
            .unwrap(),
        "scontrol update StartTime=now",
    );
    // (Once requeued, the task is listed under its own name only.)
    cluster.wait_job(&task);
    cluster.wait_job(&job);
    assert!(
        shard.join("report.json").is_file(),
        "the requeued shard wrote no report:\n{}",
        cluster.logs(&dir)
    );
    let report = read_json(&shard.join("report.json"));
    assert_eq!(report["complete"], true, "{}", cluster.logs(&dir));
    assert_eq!(
        report["timing"]["games_this_run"].as_u64(),
        Some((per_shard - before) as u64),
        "the requeued task plays only the missing games"
    );

    // The same shard on one machine, uninterrupted: the same games.
    single_machine(&cluster, &dir, &shard_script, "--shard 2/3", "single-2");
    let strip = |mut g: serde_json::Value| {
        g.as_object_mut().unwrap().remove("timing");
        g
    };
    let mut resumed: Vec<_> = games(&shard).into_iter().map(strip).collect();
    let mut single: Vec<_> = games(&dir.join("single-2"))
        .into_iter()
        .map(strip)
        .collect();
    resumed.sort_by_key(|g| g["id"].as_u64());
    single.sort_by_key(|g| g["id"].as_u64());
    assert_eq!(resumed, single, "the resumed shard played other games");

    // 3. A sequential test in waves (docs/sprt-waves.sh): waves of array
    // tasks until the test decides, with the verdict of one machine's run.
    let dir = cluster.job_dir("waves");
    let script =
        std::fs::read_to_string(dojo_testkit::paths::root().join("docs/sprt-waves.sh")).unwrap();
    write_script(&dir, "sprt-waves.sh", &script);
    // Wide bounds, so the test decides after a few pairs.
    let league = "cardjitsu random-sh --gauntlet random-py \
                  --sprt elo0=-400,elo1=-300,alpha=0.2,beta=0.2 --seed 7";
    let mut waves = cluster.sh(&dir, "sh sprt-waves.sh");
    waves
        .env("SHARDS", "2")
        .env("WAVE", "4")
        .env("MAX", "40")
        .env("LEAGUE", league);
    let said = ok(waves.output().unwrap(), "sprt-waves.sh");
    let lines: Vec<&str> = said.lines().filter(|l| l.starts_with("wave ")).collect();
    assert!(
        !lines.is_empty() && lines.len() < 10,
        "the waves should stop once decided, before the limit: {said}"
    );
    assert!(lines.last().unwrap().ends_with(" 0 undecided"), "{said}");
    let merged = read_json(&dir.join("merged/report.json"));
    let cmd = format!("dojo league {league} --games 40 --out single");
    ok(cluster.sh(&dir, &cmd).output().unwrap(), &cmd);
    let single = read_json(&dir.join("single/report.json"));
    assert_eq!(
        merged["sprt"], single["sprt"],
        "the waves' verdict differs from one machine's"
    );
}
