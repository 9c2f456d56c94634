//! Tearing a box down touches nothing but the box: the program that made
//! it (dojo, or a program embedding the runner) keeps its own children,
//! even those in a process group of their own, which the subreaper's
//! sweep takes for escapees (`crate::reaper`). A box has a PID namespace,
//! so nothing of it can have escaped to be swept.

mod support;

use support::{TestBox, minimal_root_box, read_all};

#[test]
fn dropping_a_box_leaves_the_programs_own_children_alone() {
    let Some(TestBox { mut made, .. }) = minimal_root_box("teardown", |_| {
        vec!["sh".into(), "-c".into(), "echo up".into()]
    }) else {
        return;
    };
    let mut occupant = made.start(&[]).expect("the bot starts");
    assert_eq!(read_all(&mut occupant.stdout), "up\n");
    drop(occupant);
    // A child of this program's own, in a process group of its own: the
    // sweep's idea of an escapee.
    let mut own = {
        use std::os::unix::process::CommandExt;
        std::process::Command::new("sleep")
            .arg("60")
            .process_group(0)
            .spawn()
            .expect("sleep starts")
    };
    drop(made);
    // Nothing of the box is left as this program's child (its init, were
    // it adopted, reaped): only the box makers and the sleep.
    let left: Vec<(u32, String)> = children()
        .into_iter()
        .filter(|(pid, comm)| *pid != own.id() && comm != "dojo-box-maker")
        .collect();
    let ended = own.try_wait();
    let _ = own.kill();
    let _ = own.wait();
    assert!(
        matches!(ended, Ok(None)),
        "tearing the box down killed (and reaped) a child of the program's own: {ended:?}"
    );
    assert!(left.is_empty(), "left as this program's children: {left:?}");
}

/// This process's children (of every thread), with their names.
fn children() -> Vec<(u32, String)> {
    let mut out = Vec::new();
    for task in std::fs::read_dir("/proc/self/task").unwrap().flatten() {
        let text = std::fs::read_to_string(task.path().join("children")).unwrap_or_default();
        for pid in text
            .split_whitespace()
            .filter_map(|p| p.parse::<u32>().ok())
        {
            let comm = std::fs::read_to_string(format!("/proc/{pid}/comm")).unwrap_or_default();
            out.push((pid, comm.trim().to_owned()));
        }
    }
    out
}
