//! The deck example in docs/decks.md is a valid deck, and the encoding the
//! document states is the one the parser reads.

use dojo_engine::cardjitsu::{Card, Deck};

#[test]
fn the_documented_example_deck_parses() {
    let doc = include_str!("../../../../docs/decks.md");
    let after = doc
        .split("## Deck files")
        .nth(1)
        .expect("a Deck files section");
    let block = after.split("```").nth(1).expect("an example block");
    let deck = Deck::parse_dcfg(block, "docs/decks.md").unwrap();
    assert_eq!(deck.entries().len(), 10);
    assert_eq!(deck.entries()[0], deck.entries()[1], "Fp5 twice");
}

#[test]
fn the_documented_encoding_holds() {
    for (text, element, colour, number) in [
        ("Fp5", "Fire", "Purple", 5),
        ("WoA", "Water", "Orange", 10),
        ("SgC", "Snow", "Green", 12),
        ("Fbf", "Fire", "Blue", 15),
    ] {
        let card: Card = text.parse().unwrap();
        assert_eq!(card.element().name(), element);
        assert_eq!(card.colour().name(), colour);
        assert_eq!(card.number(), number);
        assert_eq!(card.is_power(), number == 10);
    }
    assert_eq!(Deck::standard().entries().len(), 198);
    assert!("FP5".parse::<Card>().is_err(), "colours are lowercase");
}
