//! Boxes are forked by the box maker, not by dojo (`crate::box_maker`):
//! a box's waiter is the maker's child and the maker is this process's,
//! and the maker holds none of this process's descriptors.

mod support;

use support::{TestBox, minimal_root_box};

/// The parent and name of process `pid`, from `/proc/PID/stat`.
fn parent_and_name(pid: i32) -> (i32, String) {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).expect("a live process");
    let open = stat.find('(').unwrap();
    let close = stat.rfind(')').unwrap();
    let name = stat[open + 1..close].to_string();
    let ppid = stat[close + 1..]
        .split_whitespace()
        .nth(1)
        .unwrap()
        .parse()
        .unwrap();
    (ppid, name)
}

#[test]
fn a_box_is_forked_by_the_maker_which_holds_nothing_of_this_process() {
    if std::env::var("DOJO_BOX_MAKER").as_deref() == Ok("0") {
        eprintln!("skipped: DOJO_BOX_MAKER=0 turns the maker off");
        return;
    }
    // A pipe open while the maker is forked (by the first box).
    let (reader, writer) = std::io::pipe().unwrap();
    let Some(TestBox { mut made, .. }) = minimal_root_box("made", |_| vec!["cat".to_string()])
    else {
        return;
    };
    let occupant = made.start(&[]).expect("the bot starts");
    let bot = occupant.occupancy.host_pid();
    assert!(bot > 0, "the bot's pid is seen");
    let (init, _) = parent_and_name(bot);
    let (waiter, _) = parent_and_name(init);
    let (maker, _) = parent_and_name(waiter);
    let (maker_parent, maker_name) = parent_and_name(maker);
    let me = std::process::id() as i32;
    assert_ne!(maker, me, "the box's waiter is not this process's child");
    assert_eq!(maker_parent, me, "its parent, the maker, is");
    assert_eq!(maker_name, "dojo-box-maker");

    // The write end's only holder is this process: dropping it ends the
    // pipe (a maker that kept its copy would keep the reader waiting).
    drop(writer);
    let mut fds = [rustix::event::PollFd::new(
        &reader,
        rustix::event::PollFlags::IN,
    )];
    let wait = rustix::event::Timespec {
        tv_sec: 30,
        tv_nsec: 0,
    };
    rustix::event::poll(&mut fds, Some(&wait)).expect("poll");
    assert!(
        fds[0].revents().contains(rustix::event::PollFlags::HUP),
        "the pipe ended: no other process holds its write end"
    );
    drop(occupant);
    drop(made);
}
