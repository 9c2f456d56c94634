//! A box maker that dies (killed, say) is not dojo's end: the next box is
//! made by another maker or by dojo itself, and works.

mod support;

use support::{TestBox, minimal_root_box, read_all};

#[test]
fn boxes_are_still_made_after_the_makers_are_killed() {
    if std::env::var("DOJO_BOX_MAKER").as_deref() == Ok("0") {
        eprintln!("skipped: DOJO_BOX_MAKER=0 turns the maker off");
        return;
    }
    let Some(TestBox { mut made, .. }) = minimal_root_box("first", |_| vec!["cat".to_string()])
    else {
        return;
    };
    let occupant = made.start(&[]).expect("the bot starts");
    drop(occupant);
    drop(made);
    // Every maker: this process's children named after their thread.
    let me = std::process::id();
    let children = std::fs::read_dir(format!("/proc/{me}/task"))
        .unwrap()
        .flatten()
        .filter_map(|t| std::fs::read_to_string(t.path().join("children")).ok())
        .flat_map(|text| {
            text.split_whitespace()
                .filter_map(|p| p.parse::<i32>().ok())
                .collect::<Vec<_>>()
        })
        .filter(|pid| {
            std::fs::read_to_string(format!("/proc/{pid}/comm"))
                .is_ok_and(|c| c.trim() == "dojo-box-maker")
        })
        .collect::<Vec<_>>();
    assert!(
        !children.is_empty(),
        "the makers are this process's children"
    );
    for pid in &children {
        rustix::process::kill_process(
            rustix::process::Pid::from_raw(*pid).unwrap(),
            rustix::process::Signal::KILL,
        )
        .unwrap();
    }
    for round in 0..3 {
        let Some(TestBox { mut made, .. }) = minimal_root_box("after", |_| {
            vec!["echo".to_string(), "still here".to_string()]
        }) else {
            return;
        };
        let mut occupant = made.start(&[]).expect("a bot starts in a box made after");
        assert_eq!(
            read_all(&mut occupant.stdout),
            "still here\n",
            "round {round}"
        );
    }
}
