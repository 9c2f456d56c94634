//! What a box costs to make: makes `--boxes N` boxes (default 40), each
//! for a bot of its own (a directory and a key of its own, as a league's
//! bots get), with every layer this machine has, times each
//! `BotBox::create`, starts `cat` in each once, and prints the median,
//! the quartiles and the total. `--ballast-mib M` first fills M MiB of
//! this process's heap and `--threads T` starts T idle threads, so that
//! the forks a box's making does copy a process about the size of a
//! league's dojo. For `strace -c -f` and `perf record -g` of box making
//! alone (see `docs/performance.md`). With `BOX_COST_PERF_CTL` naming
//! a `perf record --control fifo:...` control file, the profile is
//! enabled around the making of the boxes only (not their starts or
//! teardown).
//!
//! ```sh
//! cargo run --release -p dojo-sandbox --example box_cost -- --boxes 40 --ballast-mib 64 --threads 4
//! ```

use std::time::{Duration, Instant};

use dojo_sandbox::plan::{Limits, SandboxMode};

fn main() {
    let mut boxes = 40usize;
    let mut ballast_mib = 0usize;
    let mut threads = 0usize;
    let mut rounds = 1usize;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value = || {
            args.next()
                .and_then(|v| v.parse::<usize>().ok())
                .unwrap_or_else(|| {
                    eprintln!("{arg} takes a number");
                    std::process::exit(2)
                })
        };
        match arg.as_str() {
            "--boxes" => boxes = value(),
            "--ballast-mib" => ballast_mib = value(),
            "--threads" => threads = value(),
            "--rounds" => rounds = value(),
            other => {
                eprintln!(
                    "unknown argument {other:?}; takes --boxes N, --ballast-mib M, --threads T, --rounds R"
                );
                std::process::exit(2);
            }
        }
    }
    dojo_sandbox::sys::raise_open_files_limit();
    // A heap of dojo's size, touched so its pages are mapped.
    let ballast: Vec<u8> = vec![1; ballast_mib << 20];
    let (stop_tx, stop_rx) = std::sync::mpsc::channel::<()>();
    let stop_rx = std::sync::Arc::new(std::sync::Mutex::new(stop_rx));
    let idle: Vec<_> = (0..threads)
        .map(|_| {
            let rx = stop_rx.clone();
            std::thread::spawn(move || {
                let _ = rx.lock().map(|rx| rx.recv());
            })
        })
        .collect();
    let limits = Limits {
        memory_bytes: Some(dojo_sandbox::plan::DEFAULT_MEMORY_MIB << 20),
        processes: Some(dojo_sandbox::plan::DEFAULT_PROCESSES),
        ..Limits::default()
    };
    let mut containment = dojo_sandbox::plan::plan(SandboxMode::Auto, &limits);
    containment.group_limits.account_cpu = dojo_sandbox::plan::layer_available("cgroup-cpu");
    if !dojo_sandbox::bot_box::wanted(&containment) {
        eprintln!("no boxes on this machine (no PID namespace, or DOJO_BOX=0)");
        std::process::exit(1);
    }
    let own_user = dojo_sandbox::plan::seat_users(SandboxMode::Auto);
    let top = tempfile::tempdir().expect("a temporary directory");
    let command = vec!["cat".to_string()];
    let mut times: Vec<Duration> = Vec::new();
    let perf = |what: &str| {
        if let Some(ctl) = std::env::var_os("BOX_COST_PERF_CTL") {
            let _ = std::fs::write(ctl, format!("{what}\n"));
        }
    };
    for round in 0..rounds {
        let mut made = Vec::new();
        perf("enable");
        for i in 0..boxes {
            let dir = top.path().join(format!("bot-{i}"));
            std::fs::create_dir_all(&dir).expect("a bot directory");
            let scratch =
                dojo_sandbox::plan::scratch_dir(&format!("bot-{i}"), own_user).expect("scratch");
            let mut containment = containment;
            containment.seat_id = scratch.seat_id();
            let path = scratch.path().to_path_buf();
            let launch = dojo_sandbox::Launch {
                command: &command,
                dir: &dir,
                scratch: Some(&path),
                env: &[],
                containment,
                extra_read: &[],
                manifest: None,
                clean_env: true,
                cpu: None,
            };
            let t = Instant::now();
            let b = dojo_sandbox::BotBox::create(format!("bot-{i} {round}"), &launch, scratch)
                .unwrap_or_else(|e| {
                    eprintln!("cannot make box {i}: {e}");
                    std::process::exit(1)
                });
            times.push(t.elapsed());
            made.push(b);
        }
        perf("disable");
        for b in &mut made {
            let occupant = b.start(&[]).expect("cat starts");
            drop(occupant);
        }
    }
    times.sort();
    let at = |q: usize| times[(times.len() - 1) * q / 100];
    let total: Duration = times.iter().sum();
    println!(
        "{} boxes: median {:.2} ms, quartiles {:.2} / {:.2} ms, min {:.2}, max {:.2}, total {:.1} ms (ballast {ballast_mib} MiB, {threads} threads)",
        times.len(),
        at(50).as_secs_f64() * 1e3,
        at(25).as_secs_f64() * 1e3,
        at(75).as_secs_f64() * 1e3,
        at(0).as_secs_f64() * 1e3,
        at(100).as_secs_f64() * 1e3,
        total.as_secs_f64() * 1e3,
    );
    drop(stop_tx);
    for t in idle {
        let _ = t.join();
    }
    std::hint::black_box(&ballast);
}
