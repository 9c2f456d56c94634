//! The line protocol end to end, on scripted transcripts.

use dojo_bot_sensei::protocol::run;

/// Runs sensei on `input` and returns its output lines.
fn answers(input: &str) -> Vec<String> {
    let mut out = Vec::new();
    run(input.as_bytes(), &mut out).expect("in-memory I/O cannot fail");
    String::from_utf8(out)
        .expect("sensei writes UTF-8")
        .lines()
        .map(str::to_owned)
        .collect()
}

/// The seed's example game as player 1 sees it. The result lines are the
/// server's, whatever sensei answers.
const AS_PLAYER_1: &str = "1
FyA,WoA,Wo5,SgA,Fg8
WoA vs. Fr6: 1 wins!
*FyA,Wo5,SgA,Fg8,Fb3
Fb3 vs. FyA: 1 wins!
FyA,Wo5,SgA,Fg8,Wp4
SgA vs. Wo5: 1 wins!
Player 1 wins!
";

#[test]
fn seed_example_from_player_1() {
    // Round 2 is reversed, so the low Fb3 is the strongest card; in round
    // 3 the pile holds WoA and Fb3 (as the results said), and SgA is the
    // only card completing a triple.
    assert_eq!(answers(AS_PLAYER_1), ["0", "4", "2"]);
}

/// The same game from player 2's side (its hands made up to match the
/// cards it played: Fr6, FyA, Wo5).
const AS_PLAYER_2: &str = "2
Fr6,FyA,Wo5,Sb3,Wg7
WoA vs. Fr6: 1 wins!
*FyA,Wo5,Sb3,Wg7,Sp9
Fb3 vs. FyA: 1 wins!
Wo5,Sb3,Wg7,Sp9,Fo2
SgA vs. Wo5: 1 wins!
Player 1 wins!
";

#[test]
fn seed_example_from_player_2() {
    // Round 2 is reversed: Sb3 is the lowest card. In round 3 player 1
    // needs a Snow card (not blue or orange) to win, so Water cards, which
    // lose to every Snow, are out; Sp9 wins often and only loses to the
    // three highest Snows.
    assert_eq!(answers(AS_PLAYER_2), ["1", "2", "3"]);
}

#[test]
fn results_are_read_from_the_right_side() {
    // As player 2, sensei has won WoA and Fb3 (player 2's cards), so SgA
    // completes its triple; as player 1 those cards were the opponent's.
    let p2 = "2\nFr6 vs. WoA: 2 wins!\nFr2 vs. Fb3: 2 wins!\nFyC,Wo5,SgA,Fg8,Wp4\n";
    assert_eq!(answers(p2), ["2"]);
    let p1 = "1\nFr6 vs. WoA: 2 wins!\nFr2 vs. Fb3: 2 wins!\nFyC,Wo5,SgA,Fg8,Wp4\n";
    assert_ne!(answers(p1), ["2"]);
}

#[test]
fn restarted_mid_game_answers_a_valid_index() {
    let out = answers("2\n*FyA,Wo5,SgA,Fg8,Fb3\n");
    assert_eq!(out.len(), 1);
    let index: usize = out[0].parse().expect("an index");
    assert!(index < 5);
}

#[test]
fn odd_input_never_breaks_it() {
    let input = "hello\n\nFyA vs. ???: 1 wins!\n2\nFyA,Wo5,XXX,Fg8,Fb3\n\
                 Player 1 wins!\nFyA,Wo5\r\nDraw!\n\u{0}\u{ff}\n";
    // The unreadable hand gets 0; the two-card hand a real choice; the
    // rest is ignored.
    let out = answers(input);
    assert_eq!(out.len(), 2, "{out:?}");
    assert_eq!(out[0], "0");
    assert!(out[1] == "0" || out[1] == "1");
    let long = format!("{}\n1\nSr2,Sr3,SrC,Sr4,Sr5\n", "Fr2,".repeat(10_000));
    let out = answers(&long);
    assert_eq!(out.last().map(String::as_str), Some("2"), "{out:?}");
}
