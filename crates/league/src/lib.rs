//! Leagues: scheduling, ratings and reports.

pub mod rating;
pub mod sprt;
