//! Fairness and stability of league schedules.

use crate::common;

use std::collections::{BTreeMap, BTreeSet};

use dojo_league::{Entrant, Game, Schedule};

use common::bots;

fn count<K: Ord>(items: impl IntoIterator<Item = K>) -> BTreeMap<K, u64> {
    let mut m = BTreeMap::new();
    for k in items {
        *m.entry(k).or_insert(0) += 1;
    }
    m
}

#[test]
fn cardjitsu_pairs_play_equally_with_seats_balanced() {
    let names = ["ant", "bee", "cat", "dog", "eel"];
    for games in [4, 5] {
        let s = Schedule::new(Game::CARDJITSU, &bots(&names), games, 9, &[]).unwrap();
        let per_pair = count(s.fixtures().iter().map(|f| {
            let mut p = f.seats.clone();
            p.sort();
            p
        }));
        assert_eq!(per_pair.len(), 10, "every unordered pair meets");
        let expected = games.div_ceil(2) * 2;
        assert!(per_pair.values().all(|&n| n == expected), "{per_pair:?}");
        // Every bot sits in seat 1 as often as in seat 2, against each opponent.
        let by_seat = count(
            s.fixtures()
                .iter()
                .map(|f| (f.seats[0].clone(), f.seats[1].clone())),
        );
        for ((a, b), n) in &by_seat {
            assert_eq!(by_seat.get(&(b.clone(), a.clone())), Some(n));
        }
        // Legs share a seed; different pairs and rounds do not.
        for chunk in s.fixtures().chunks(2) {
            assert_eq!(chunk[0].seed, chunk[1].seed);
            assert_eq!(chunk[0].pair, chunk[1].pair);
            assert_eq!((chunk[0].leg, chunk[1].leg), (0, 1));
        }
        let seeds: BTreeSet<u64> = s.fixtures().iter().map(|f| f.seed).collect();
        assert_eq!(seeds.len(), s.fixtures().len() / 2);
        assert!(
            s.fixtures()
                .iter()
                .enumerate()
                .all(|(i, f)| f.id == i as u64)
        );
    }
}

fn team_counts(s: &Schedule) -> BTreeMap<(String, String), u64> {
    count(s.fixtures().iter().flat_map(|f| {
        assert_eq!(f.teams, ["R", "P", "S"].map(dojo_games::Role::from));
        f.seats
            .iter()
            .cloned()
            .zip(f.teams.iter().map(|t| t.to_string()))
            .collect::<Vec<_>>()
    }))
}

#[test]
fn royale_triples_play_equally_and_bots_play_each_team_equally() {
    let names = ["ant", "bee", "cat", "dog"];
    let s = Schedule::new(Game::ROYALE, &bots(&names), 4, 3, &[]).unwrap();
    // 4 games per triple round up to 6; 4 triples.
    assert_eq!(s.fixtures().len(), 4 * 6);
    let per_triple = count(s.fixtures().iter().map(|f| {
        let mut t = f.seats.clone();
        t.sort();
        t.dedup();
        assert_eq!(t.len(), 3, "three distinct bots per game");
        t
    }));
    assert!(per_triple.values().all(|&n| n == 6));
    let teams = team_counts(&s);
    assert_eq!(teams.len(), 4 * 3);
    assert!(teams.values().all(|&n| n == 6), "{teams:?}");
    assert!(s.fixtures().iter().all(|f| f.board.is_none()));
}

#[test]
fn royale_with_two_bots_never_plays_a_bot_alone() {
    let s = Schedule::new(Game::ROYALE, &bots(&["x", "y"]), 3, 3, &[]).unwrap();
    assert_eq!(s.fixtures().len(), 6);
    for f in s.fixtures() {
        let distinct: BTreeSet<&String> = f.seats.iter().collect();
        assert_eq!(distinct.len(), 2);
    }
    let teams = team_counts(&s);
    assert_eq!(teams.len(), 6);
    assert!(teams.values().all(|&n| n == 3), "{teams:?}");
}

#[test]
fn fixed_teams_are_honoured_and_free_bots_stay_balanced() {
    let mut b = bots(&["ant", "bee", "cat", "dog"]);
    b[0].fixed_team = Some(dojo_games::Role::from("R"));
    let s = Schedule::new(Game::ROYALE, &b, 3, 3, &[]).unwrap();
    let teams = team_counts(&s);
    // Three triples with ant, two seatings each.
    assert_eq!(teams.get(&("ant".into(), "R".into())), Some(&6));
    assert_eq!(teams.get(&("ant".into(), "P".into())), None);
    assert_eq!(teams.get(&("ant".into(), "S".into())), None);
    for free in ["bee", "cat", "dog"] {
        let on = |t: &str| teams.get(&(free.to_string(), t.to_string())).copied();
        // Two triples with ant (P and S once each) and one without (each
        // team once).
        assert_eq!((on("R"), on("P"), on("S")), (Some(1), Some(3), Some(3)));
    }
    // Same with a fixed bot among two.
    let mut two = bots(&["x", "y"]);
    two[1].fixed_team = Some(dojo_games::Role::from("S"));
    let s = Schedule::new(Game::ROYALE, &two, 3, 3, &[]).unwrap();
    assert!(
        s.fixtures()
            .iter()
            .all(|f| f.seats.iter().filter(|n| *n == "y").count() == 1 && f.seats[2] == "y")
    );
}

fn by_seats(s: &Schedule) -> BTreeMap<(Vec<String>, u8, u64), u64> {
    s.fixtures()
        .iter()
        .map(|f| ((f.seats.clone(), f.leg, f.pair), f.seed))
        .collect()
}

#[test]
fn seeds_do_not_depend_on_bot_order() {
    for game in [Game::CARDJITSU, Game::ROYALE] {
        let names = ["ant", "bee", "cat", "dog"];
        let a = Schedule::new(game, &bots(&names), 4, 77, &[]).unwrap();
        let mut reversed: Vec<Entrant> = bots(&names);
        reversed.reverse();
        let b = Schedule::new(game, &reversed, 4, 77, &[]).unwrap();
        assert_eq!(a, b);
        let other_seed = Schedule::new(game, &bots(&names), 4, 78, &[]).unwrap();
        assert_ne!(by_seats(&a), by_seats(&other_seed));
    }
}

#[test]
fn adding_a_bot_keeps_existing_pairings_seeds() {
    let seeds_of = |names: &[&str], game| {
        let s = Schedule::new(game, &bots(names), 6, 5, &[]).unwrap();
        s.fixtures()
            .iter()
            .filter(|f| {
                f.seats
                    .iter()
                    .all(|n| ["ant", "bee", "cat"].contains(&n.as_str()))
            })
            .map(|f| (f.seats.clone(), f.seed))
            .collect::<BTreeSet<_>>()
    };
    for game in [Game::CARDJITSU, Game::ROYALE] {
        let small = seeds_of(&["ant", "bee", "cat"], game);
        let big = seeds_of(&["ant", "bee", "cat", "aardvark", "zebra"], game);
        assert!(!small.is_empty());
        assert_eq!(small, big);
    }
}

#[test]
fn shards_partition_the_schedule() {
    let s = Schedule::new(Game::CARDJITSU, &bots(&["a", "b", "c"]), 5, 1, &[]).unwrap();
    let mut ids: Vec<u64> = (1..=3)
        .flat_map(|i| s.shard(i, 3).unwrap())
        .map(|f| f.id)
        .collect();
    ids.sort_unstable();
    assert_eq!(ids, (0..s.fixtures().len() as u64).collect::<Vec<_>>());
    let err = s.shard(4, 3).unwrap_err().to_string();
    assert!(err.contains("1 <= I <= N"), "{err}");
}
