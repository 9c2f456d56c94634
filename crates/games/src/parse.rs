//! Reading a record into its game's typed record in one pass, from the
//! text it was stored as: a record file (`dojo match --json`), or a line
//! of a league's `games.jsonl`, which keeps the record's `timing` beside
//! it rather than inside ([`Stored`]). No intermediate JSON tree is built
//! for the record: a stored record is read from its own slice of the line
//! with the line's `timing` read in as the record's last field
//! (`WithTiming`).

use std::fmt;

use serde::Deserialize;
use serde::de::value::{BorrowedStrDeserializer, StringDeserializer};
use serde::de::{self, DeserializeOwned, DeserializeSeed, Deserializer, MapAccess, Visitor};
use serde_json::value::RawValue;

/// The text (or, for a league's report, the values) a typed record is
/// read from; the game's `GameDef::parse_record` picks the type.
pub trait RecordInput {
    /// The record as `R`.
    fn typed<R: DeserializeOwned>(&self) -> Result<R, serde_json::Error>;
}

/// A whole record in one piece of text (a `dojo match --json` file).
#[derive(Debug, Clone, Copy)]
pub struct Whole<'a>(pub &'a str);

impl RecordInput for Whole<'_> {
    fn typed<R: DeserializeOwned>(&self) -> Result<R, serde_json::Error> {
        serde_json::from_str(self.0)
    }
}

/// A stored record: the `record` and `timing` texts of a `games.jsonl`
/// line.
#[derive(Debug, Clone, Copy)]
pub struct Stored<'a> {
    pub record: &'a str,
    pub timing: &'a str,
}

impl RecordInput for Stored<'_> {
    fn typed<R: DeserializeOwned>(&self) -> Result<R, serde_json::Error> {
        let mut record = serde_json::Deserializer::from_str(self.record);
        let mut timing = serde_json::Deserializer::from_str(self.timing);
        let rec = R::deserialize(WithTiming {
            record: &mut record,
            timing: &mut timing,
        })?;
        record.end()?;
        timing.end()?;
        Ok(rec)
    }
}

/// A stored record already read as JSON values (the league's games, as
/// its report holds them).
#[derive(Debug, Clone, Copy)]
pub struct StoredValues<'a> {
    pub record: &'a serde_json::Value,
    pub timing: &'a serde_json::Value,
}

impl RecordInput for StoredValues<'_> {
    fn typed<R: DeserializeOwned>(&self) -> Result<R, serde_json::Error> {
        R::deserialize(WithTiming {
            record: self.record,
            timing: self.timing,
        })
    }
}

/// Any of the inputs above, as one type, so a game's
/// [`crate::game::GameDef::parse_record`] (a trait object's method, which
/// cannot be generic) takes each of them.
#[derive(Debug, Clone, Copy)]
pub enum RecordText<'a> {
    Whole(Whole<'a>),
    Stored(Stored<'a>),
    Values(StoredValues<'a>),
}

impl RecordInput for RecordText<'_> {
    fn typed<R: DeserializeOwned>(&self) -> Result<R, serde_json::Error> {
        match self {
            RecordText::Whole(w) => w.typed(),
            RecordText::Stored(s) => s.typed(),
            RecordText::Values(v) => v.typed(),
        }
    }
}

/// The two fields of a record read before its type is known: which game
/// it is and its format version, each kept as raw text so that a wrong
/// type (a number for `game`) is told as the game it names, not as bad
/// JSON.
#[derive(Debug, Default, Deserialize)]
pub(crate) struct Head<'a> {
    #[serde(borrow, default)]
    game: Option<&'a RawValue>,
    #[serde(borrow, default)]
    version: Option<&'a RawValue>,
}

impl<'a> Head<'a> {
    /// The head of a record's text; a text that is JSON but not an
    /// object has neither field.
    pub(crate) fn of(text: &'a str) -> Head<'a> {
        serde_json::from_str(text).unwrap_or_default()
    }

    /// The `game` field when it is a string, else empty.
    pub(crate) fn game(&self) -> String {
        self.game
            .and_then(|g| serde_json::from_str::<String>(g.get()).ok())
            .unwrap_or_default()
    }

    /// The `version` field: `None` when absent, `Some(0)` when it is not a
    /// whole number.
    pub(crate) fn version(&self) -> Option<u64> {
        self.version
            .map(|v| serde_json::from_str::<u64>(v.get()).unwrap_or(0))
    }
}

/// The top level of a record file: a record, or a `games.jsonl` line
/// (with `record` and `timing` keys) copied into a file.
#[derive(Debug, Deserialize)]
pub(crate) struct FileTop<'a> {
    #[serde(borrow, default)]
    pub record: Option<&'a RawValue>,
    #[serde(borrow, default)]
    pub timing: Option<&'a RawValue>,
}

/// serde_json's message without the position it appends (`at line 1
/// column 40`), for errors whose position is within a slice of a line and
/// would mislead.
pub(crate) fn without_position(err: &serde_json::Error) -> String {
    let mut text = err.to_string();
    loop {
        let Some(at) = text.rfind(" at line ") else {
            return text;
        };
        let tail = &text[at + " at line ".len()..];
        let is_position = tail.split_once(" column ").is_some_and(|(l, c)| {
            !l.is_empty()
                && !c.is_empty()
                && l.bytes().all(|b| b.is_ascii_digit())
                && c.bytes().all(|b| b.is_ascii_digit())
        });
        if !is_position {
            return text;
        }
        text.truncate(at);
    }
}

/// A record's deserializer with `timing` appended as its last field: the
/// record type reads the two as one object, so a stored record becomes its
/// typed record without the object being rebuilt in memory.
struct WithTiming<D, T> {
    record: D,
    timing: T,
}

impl<'de, D, T> Deserializer<'de> for WithTiming<D, T>
where
    D: Deserializer<'de, Error = serde_json::Error>,
    T: Deserializer<'de, Error = serde_json::Error>,
{
    type Error = serde_json::Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        self.record.deserialize_map(Appending {
            visitor,
            timing: self.timing,
        })
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf option unit unit_struct newtype_struct seq tuple
        tuple_struct map struct enum identifier ignored_any
    }
}

/// Hands the record's map to the record type's visitor with `timing` at
/// its end.
struct Appending<V, T> {
    visitor: V,
    timing: T,
}

impl<'de, V, T> Visitor<'de> for Appending<V, T>
where
    V: Visitor<'de>,
    T: Deserializer<'de, Error = serde_json::Error>,
{
    type Value = V::Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.visitor.expecting(f)
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<V::Value, A::Error> {
        self.visitor.visit_map(Appended {
            map,
            timing: Some(self.timing),
            value_next: None,
        })
    }
}

/// The record's entries, then `timing`.
struct Appended<A, T> {
    map: A,
    /// `timing`, until its key has been handed out.
    timing: Option<T>,
    /// `timing`, once its key has been handed out: its value comes next.
    value_next: Option<T>,
}

impl<'de, A, T> MapAccess<'de> for Appended<A, T>
where
    A: MapAccess<'de>,
    T: Deserializer<'de, Error = serde_json::Error>,
{
    type Error = A::Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, A::Error> {
        // Only the appended entry is left once the record's map is done.
        let Some(timing) = self.timing.take() else {
            return Ok(None);
        };
        // Keys are read as text first: a seed is used up by the call it is
        // given to, and the record's map, once exhausted, has no key left
        // to give it, while ours still needs one.
        if let Some(key) = self.map.next_key::<String>()? {
            self.timing = Some(timing);
            return seed.deserialize(StringDeserializer::new(key)).map(Some);
        }
        self.value_next = Some(timing);
        seed.deserialize(BorrowedStrDeserializer::new("timing"))
            .map(Some)
    }

    fn next_value_seed<S: DeserializeSeed<'de>>(&mut self, seed: S) -> Result<S::Value, A::Error> {
        match self.value_next.take() {
            Some(timing) => seed
                .deserialize(timing)
                .map_err(|e| de::Error::custom(format_args!("timing: {}", without_position(&e)))),
            None => self.map.next_value_seed(seed),
        }
    }
}
