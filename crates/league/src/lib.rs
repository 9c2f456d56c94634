//! Leagues: scheduling, ratings and reports.
