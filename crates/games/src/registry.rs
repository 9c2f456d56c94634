//! What replay holds of a saved game, whatever the game: [`Saved`], the
//! game's typed record behind its [`SavedGame`] impl, and [`ReplayView`],
//! its replay page's data. Neither names a game: a game's record enters
//! through its [`crate::game::GameDef::parse_record`] (or a rerun) as
//! [`Saved::new`], and everything replay does with it is the record's
//! `SavedGame` impl in the game's module.

use std::any::Any;
use std::fmt;
use std::ops::Deref;

use serde::de::{MapAccess, Visitor};
use serde::ser::SerializeMap;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::value::RawValue;

use crate::game::Game;
use crate::replay::{Difference, ReplayError, SavedGame};

/// A saved game: the game's typed record. What replay does with it is the
/// record's [`SavedGame`] impl (in the game's module), reached through
/// `Deref`.
#[derive(Debug)]
pub struct Saved(Box<dyn SavedGame>);

impl Deref for Saved {
    type Target = dyn SavedGame;

    fn deref(&self) -> &(dyn SavedGame + 'static) {
        self.0.as_ref()
    }
}

impl Saved {
    /// A game's typed record as a saved game.
    pub fn new(record: Box<dyn SavedGame>) -> Saved {
        Saved(record)
    }

    /// Which game it is.
    pub fn game(&self) -> Game {
        self.0.game()
    }

    /// How `rerun` (this game played again) differs from it; `None` when
    /// it is the same game (timing and stderr aside). A rerun of another
    /// game is [`ReplayError::OtherGame`].
    pub fn compare(&self, rerun: &Saved) -> Result<Option<Difference>, ReplayError> {
        self.0.compare(rerun.0.as_ref())
    }

    /// The typed record, if it is an `R` (for a game's own code: the CLI's
    /// transcript of its records).
    pub fn record<R: Any>(&self) -> Option<&R> {
        // Through the box to the record: the box itself is `Any` too.
        (*self.0).as_any().downcast_ref()
    }

    /// [`Saved::record`], owned; `None` when it is not an `R`.
    pub fn into_record<R: Any>(self) -> Option<Box<R>> {
        // `into_any` takes the box: the record's own impl is called.
        self.0.into_any().downcast().ok()
    }
}

/// The record of `rerun` as the same type as `saved`'s, or the error that
/// a rerun of another game is: what each game's `SavedGame::compare`
/// starts with.
pub fn same_record<'a, R: Any>(
    saved: &dyn SavedGame,
    rerun: &'a dyn SavedGame,
) -> Result<&'a R, ReplayError> {
    rerun
        .as_any()
        .downcast_ref()
        .ok_or_else(|| ReplayError::OtherGame {
            saved: saved.game(),
            rerun: rerun.game(),
        })
}

/// What a replay page shows: the record and what its game's view derives
/// from it, as the JSON its game's view serialises to, field by field in
/// its order (so the page embeds exactly the view's text, and the page
/// can flatten it beside its own fields). Serialised as that object.
#[derive(Debug)]
pub struct ReplayView(Vec<(String, Box<RawValue>)>);

impl ReplayView {
    /// The view `data` of a game's replay page: it must serialise as a
    /// JSON object.
    pub fn new(data: &impl Serialize) -> Result<ReplayView, ReplayError> {
        let raw = serde_json::value::to_raw_value(data).map_err(ReplayError::View)?;
        let Fields(fields) = serde_json::from_str(raw.get()).map_err(ReplayError::View)?;
        Ok(ReplayView(fields))
    }
}

impl Serialize for ReplayView {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(self.0.len()))?;
        for (key, value) in &self.0 {
            map.serialize_entry(key, value)?;
        }
        map.end()
    }
}

/// A JSON object's fields in their order, each value kept as its text.
struct Fields(Vec<(String, Box<RawValue>)>);

impl<'de> Deserialize<'de> for Fields {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Fields, D::Error> {
        struct Visit;
        impl<'de> Visitor<'de> for Visit {
            type Value = Fields;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a JSON object")
            }

            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Fields, A::Error> {
                let mut fields = Vec::new();
                while let Some(entry) = map.next_entry()? {
                    fields.push(entry);
                }
                Ok(Fields(fields))
            }
        }
        d.deserialize_map(Visit)
    }
}

/// Why [`GameDef::parse_record`](crate::GameDef::parse_record) refused a record: not a record of the
/// game named `kind` (as messages name it).
#[derive(Debug)]
pub struct NotARecord {
    pub kind: &'static str,
    pub source: serde_json::Error,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cardjitsu::CardJitsuRecord;
    use crate::royale::RoyaleRecord;

    #[test]
    fn a_saved_game_is_its_games_and_compares_only_with_its_own() {
        let cj = Saved::new(Box::new(crate::cardjitsu::replay::tests::record(3)));
        let (royale, _) = crate::royale::replay::tests::record();
        let royale = Saved::new(Box::new(royale));
        assert_eq!(cj.game(), Game::CARDJITSU);
        assert_eq!(royale.game(), Game::ROYALE);
        assert_eq!(cj.seats().len(), 2);
        assert_eq!(royale.seats().len(), 3);
        assert!(cj.check().is_ok() && royale.check().is_ok());
        // The typed record comes out of the box (not the box itself).
        assert!(cj.record::<CardJitsuRecord>().is_some());
        assert!(cj.record::<RoyaleRecord>().is_none());
        assert!(royale.record::<RoyaleRecord>().is_some());
        assert_eq!(cj.compare(&cj).unwrap(), None);
        assert!(matches!(
            cj.compare(&royale),
            Err(ReplayError::OtherGame {
                saved,
                rerun
            }) if saved == Game::CARDJITSU && rerun == Game::ROYALE
        ));
        assert!(cj.record::<crate::CardJitsuRecord>().is_some());
        assert!(cj.record::<crate::RoyaleRecord>().is_none());
        assert!(royale.into_record::<crate::RoyaleRecord>().is_some());
    }

    /// A replay page embeds exactly the text its game's view serialises
    /// to, in the view's field order, and can flatten it.
    #[test]
    fn a_replay_view_is_its_games_view_unchanged() {
        let rec = crate::cardjitsu::replay::tests::record(3);
        let source = crate::view::RecordSource::File("g.json".into());
        let direct =
            serde_json::to_string(&crate::cardjitsu::view::view(&rec, &source, &[])).unwrap();
        let view = Saved::new(Box::new(rec.clone()))
            .view(&source, &[])
            .unwrap();
        assert_eq!(serde_json::to_string(&view).unwrap(), direct);
        let (royale, _) = crate::royale::replay::tests::record();
        let direct =
            serde_json::to_string(&crate::royale::view::view(&royale, &source, &[]).unwrap());
        let view = Saved::new(Box::new(royale)).view(&source, &[]).unwrap();
        assert_eq!(serde_json::to_string(&view).unwrap(), direct.unwrap());
        #[derive(Serialize)]
        struct Page<'a> {
            page: &'a str,
            #[serde(flatten)]
            view: &'a ReplayView,
        }
        let page = serde_json::to_string(&Page {
            page: "replay",
            view: &view,
        })
        .unwrap();
        assert!(page.starts_with(r#"{"page":"replay","#), "{page}");
        assert!(matches!(
            ReplayView::new(&[1, 2]),
            Err(ReplayError::View(_))
        ));
    }
}
