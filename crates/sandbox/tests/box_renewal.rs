//! A box's renewal between games as its next bot sees it: whether the
//! game's thread waited for the init's answer itself (`BotBox::reset`)
//! or gave the box back (`give_back`, then `take_idle`), the bot finds a
//! new scratch filesystem and the box's PID counter set back, as in a new
//! box: what a bot can see of its box never depends on how it was readied
//! (`docs/sandbox.md`, "Fresh for every game").

mod support;

use support::{TestBox, minimal_root_box, read_all};

#[test]
fn a_bot_finds_its_box_renewed_whether_reset_or_given_back_and_taken() {
    // Lists what the scratch directory holds, leaves a note in it, and
    // says its pid in the box.
    let Some(TestBox { mut made, .. }) = minimal_root_box("renewal", |real| {
        vec![
            "sh".to_string(),
            "-c".to_string(),
            format!(
                "ls -A {dir}; echo seen > {dir}/note; echo pid $$",
                dir = real.display()
            ),
        ]
    }) else {
        return;
    };
    let key = "renewal".to_string();

    // The first game, in the new box.
    let mut occupant = made.start(&[]).expect("the bot starts");
    let first = read_all(&mut occupant.stdout);
    assert!(
        first.starts_with("pid "),
        "a new box's scratch is empty: {first:?}"
    );
    drop(occupant);

    // The renewal awaited before the start.
    made.begin_reset();
    assert!(made.reset(), "the box is readied");
    let mut occupant = made.start(&[]).expect("the bot starts again");
    assert_eq!(read_all(&mut occupant.stdout), first);
    drop(occupant);

    // Given back, and taken again.
    made.begin_reset();
    dojo_sandbox::give_back(made);
    let mut made = dojo_sandbox::take_idle(&key).expect("the box was kept");
    let mut occupant = made.start(&[]).expect("the bot starts in the kept box");
    assert_eq!(read_all(&mut occupant.stdout), first);
    drop(occupant);

    drop(made);
}
