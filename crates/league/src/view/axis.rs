//! The value axes of the comparison page's charts: round ticks, and a
//! range that shows everything drawn, or says what it leaves out.

use serde::Serialize;

use crate::compare::{Bounds, TracePoint};
use crate::sprt::{EloEstimate, SprtParams};

/// A chart's value axis: from `min` to `max`, with `ticks` between
/// (both ends included).
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Axis {
    pub min: f64,
    pub max: f64,
    pub ticks: Vec<Tick>,
}

/// A tick of an [`Axis`]: its value and the text it is labelled with.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Tick {
    pub value: f64,
    pub label: String,
}

/// About how many ticks an axis has (it gets 4 to 7 or so).
const TICKS: f64 = 5.0;

impl Axis {
    /// The axis of round ticks that covers `lo` to `hi`, with both ends
    /// on a tick: the ticks are 1, 2 or 5 times a power of ten apart, and
    /// labelled with as many decimals as that step has, but zero as "0";
    /// `signed` puts a "+" before positive labels (Elo
    /// differences). Bounds that are not finite are the caller's to
    /// leave out; here they give the axis of -1 to 1.
    pub fn covering(lo: f64, hi: f64, signed: bool) -> Axis {
        let (mut lo, mut hi) = if lo.is_finite() && hi.is_finite() {
            (lo.min(hi), lo.max(hi))
        } else {
            (-1.0, 1.0)
        };
        if hi - lo < f64::EPSILON * lo.abs().max(1.0) {
            // A single value: a unit either side (or a tenth of it).
            let half = (lo.abs() / 10.0).max(1.0);
            (lo, hi) = (lo - half, hi + half);
        }
        // The step as `mantissa * 10^exponent` with an integer mantissa,
        // so every tick is an integer times it, computed without the
        // drift of adding steps (0.1 + 0.2).
        let raw = (hi - lo) / (TICKS - 1.0);
        let mut exponent = raw.log10().floor() as i32;
        let mut mantissa = [1, 2, 5, 10]
            .into_iter()
            .find(|m| *m as f64 * 10f64.powi(exponent) >= raw * (1.0 - 1e-9))
            .unwrap_or(10);
        if mantissa == 10 {
            (mantissa, exponent) = (1, exponent + 1);
        }
        let value = |k: i64| -> f64 {
            let units = (k * mantissa) as f64;
            if exponent >= 0 {
                units * 10f64.powi(exponent)
            } else {
                units / 10f64.powi(-exponent)
            }
        };
        let step = value(1);
        // A bound a hair past a tick (from float noise) stays on it.
        let first = (lo / step + 1e-9).floor() as i64;
        let last = (hi / step - 1e-9).ceil() as i64;
        let decimals = (-exponent).max(0) as usize;
        let ticks = (first..=last)
            .map(|k| {
                let v = value(k);
                let label = match k {
                    0 => "0".to_owned(),
                    _ if signed && k > 0 => format!("+{v:.decimals$}"),
                    _ => format!("{v:.decimals$}"),
                };
                Tick { value: v, label }
            })
            .collect();
        Axis {
            min: value(first),
            max: value(last),
            ticks,
        }
    }
}

/// The LLR chart's axis: the LLR after every block (0 before the first),
/// the bounds in force after each and Wald's, with a margin.
pub fn llr_axis(b: &Bounds, trace: &[TracePoint]) -> Axis {
    let values = [0.0, b.lower, b.upper, b.wald_lower, b.wald_upper]
        .into_iter()
        .chain(trace.iter().flat_map(|t| [t.llr, t.lower, t.upper]))
        .filter(|v| v.is_finite());
    let (lo, hi) = values.fold((0.0f64, 0.0f64), |(lo, hi), v| (lo.min(v), hi.max(v)));
    let pad = (hi - lo) * 0.08;
    Axis::covering(lo - pad, hi + pad, false)
}

/// The Elo chart's axis, and where the intervals drawn on it reach past
/// it.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct EloAxis {
    pub axis: Axis,
    /// Each run of blocks whose interval goes past the axis on one side.
    pub clipped: Vec<Clip>,
}

/// A run of consecutive trace points whose interval reaches past one end
/// of the Elo axis, where the page draws an arrow and prints `bound`.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Clip {
    /// Past the top (`hi` above the axis) or the bottom.
    pub above: bool,
    /// The blocks played at the run's first and last points.
    pub from: u64,
    pub to: u64,
    /// The blocks played where the interval reaches furthest, and that
    /// end of the interval (`null` in JSON if it is not finite).
    pub at: u64,
    pub bound: f64,
}

/// How far, in multiples of the interesting range, the Elo axis goes to
/// show a whole interval before it clips the rest.
pub const ELO_REACH: f64 = 3.0;

/// The Elo chart's axis: it covers each interval of the `trace`, elo0,
/// elo1 and 0, so long as that stays within [`ELO_REACH`] times the
/// interesting range (four times the larger hypothesis, at least 40 Elo,
/// and the `last` interval, the comparison's final one) either side of 0. The first blocks' intervals
/// can be far wider (hundreds of Elo after one pair), and an axis that
/// held them would flatten the rest into a line; what is cut off is then
/// listed in [`EloAxis::clipped`] rather than cut silently.
pub fn elo_axis(p: &SprtParams, last: &EloEstimate, trace: &[TracePoint]) -> EloAxis {
    let finite_abs = |v: f64| if v.is_finite() { v.abs() } else { 0.0 };
    let interesting = (4.0 * p.elo0.abs().max(p.elo1.abs()).max(10.0))
        .max(finite_abs(last.lo))
        .max(finite_abs(last.hi));
    let reach = ELO_REACH * interesting;
    let (lo, hi) = trace
        .iter()
        .flat_map(|t| [t.elo.lo, t.elo.hi])
        .chain([p.elo0, p.elo1, 0.0])
        .filter(|v| v.is_finite())
        .fold((0.0f64, 0.0f64), |(lo, hi), v| (lo.min(v), hi.max(v)));
    let axis = Axis::covering(lo.max(-reach), hi.min(reach), true);
    let mut clipped = Vec::new();
    for above in [true, false] {
        // A bound that is not a number cannot be drawn either.
        let past = |v: f64| v.is_nan() || if above { v > axis.max } else { v < axis.min };
        // Further out: higher above, lower below (a bound that is not
        // finite is the furthest there is).
        let further = |v: f64, than: f64| !v.is_finite() || if above { v > than } else { v < than };
        let mut run: Option<Clip> = None;
        for t in trace {
            let bound = if above { t.elo.hi } else { t.elo.lo };
            if !past(bound) {
                clipped.extend(run.take());
                continue;
            }
            let clip = run.get_or_insert(Clip {
                above,
                from: t.blocks,
                to: t.blocks,
                at: t.blocks,
                bound,
            });
            clip.to = t.blocks;
            if clip.bound.is_finite() && further(bound, clip.bound) {
                (clip.at, clip.bound) = (t.blocks, bound);
            }
        }
        clipped.extend(run);
    }
    EloAxis { axis, clipped }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn values(axis: &Axis) -> Vec<f64> {
        axis.ticks.iter().map(|t| t.value).collect()
    }

    fn labels(axis: &Axis) -> Vec<&str> {
        axis.ticks.iter().map(|t| t.label.as_str()).collect()
    }

    /// The LLR chart's range, ±2.94 bounds with their margin: before, its
    /// three ticks were the range's ends and middle, labelled "-3.42",
    /// "0.00", "3.42" (or "0.01" once the LLR ran past a bound).
    #[test]
    fn ticks_are_round_and_zero_reads_0() {
        let axis = Axis::covering(-3.42, 3.44, false);
        assert_eq!(values(&axis), [-4.0, -2.0, 0.0, 2.0, 4.0]);
        assert_eq!(labels(&axis), ["-4", "-2", "0", "2", "4"]);
        assert_eq!((axis.min, axis.max), (-4.0, 4.0));

        // A step below 1: its decimals, but zero still reads "0".
        let axis = Axis::covering(-0.31, 0.42, false);
        assert_eq!(labels(&axis), ["-0.4", "-0.2", "0", "0.2", "0.4", "0.6"]);
        assert_eq!(axis.ticks[4].value, 0.4, "no 0.4000000000000001");

        // Elo: signed, and the step of a wide range.
        let axis = Axis::covering(-241.0, 420.0, true);
        assert_eq!(labels(&axis), ["-400", "-200", "0", "+200", "+400", "+600"]);
    }

    /// A trace point after `blocks` whose fixed-sample interval is `lo`
    /// to `hi`.
    fn point(blocks: u64, lo: f64, hi: f64) -> TracePoint {
        TracePoint {
            blocks,
            llr: 0.0,
            lower: -2.9,
            upper: 2.9,
            elo: EloEstimate {
                elo: (lo + hi) / 2.0,
                lo,
                hi,
            },
        }
    }

    fn final_interval(lo: f64, hi: f64) -> EloEstimate {
        EloEstimate {
            elo: (lo + hi) / 2.0,
            lo,
            hi,
        }
    }

    /// Early intervals wider than the final one but within reach: the
    /// axis holds them whole (before, the chart cut the band at 1.1 times
    /// the final interval's larger end, here ±62).
    #[test]
    fn the_elo_axis_covers_every_interval_within_reach() {
        let p = SprtParams::default();
        let trace = [
            point(1, -120.0, 150.0),
            point(2, -90.0, 95.0),
            point(3, -56.3, 42.3),
        ];
        let e = elo_axis(&p, &final_interval(-56.3, 42.3), &trace);
        assert!(e.axis.min <= -120.0 && e.axis.max >= 150.0, "{:?}", e.axis);
        assert_eq!(e.clipped, []);
        let labels = labels(&e.axis);
        assert!(
            labels.contains(&"0") && labels.contains(&"+100"),
            "{labels:?}"
        );
    }

    /// An interval past the reach (the first pair's, hundreds of Elo
    /// wide) is cut at the axis, and each run of such points is listed
    /// with how far it went, for the page to mark and print.
    #[test]
    fn the_elo_axis_lists_the_intervals_it_cuts() {
        let p = SprtParams::default();
        let trace = [
            point(1, -365.0, 747.0),
            point(2, -179.0, 420.0),
            point(3, -80.0, 60.0),
            point(4, -60.0, 50.0),
            point(5, -300.0, 40.0),
            point(6, -50.0, 40.0),
        ];
        let e = elo_axis(&p, &final_interval(-50.0, 40.0), &trace);
        // The reach is 3 * 50: the axis ends on the round ticks past it.
        assert_eq!((e.axis.min, e.axis.max), (-200.0, 200.0), "{:?}", e.axis);
        let runs: Vec<_> = e
            .clipped
            .iter()
            .map(|c| (c.above, c.from, c.to, c.at, c.bound))
            .collect();
        assert_eq!(
            runs,
            [
                (true, 1, 2, 1, 747.0),
                (false, 1, 1, 1, -365.0),
                (false, 5, 5, 5, -300.0)
            ]
        );
        // What the page draws reaches the axis ends and no further.
        for t in &trace {
            let cut = e
                .clipped
                .iter()
                .any(|c| (c.from..=c.to).contains(&t.blocks));
            let inside = t.elo.lo >= e.axis.min && t.elo.hi <= e.axis.max;
            assert_eq!(cut, !inside, "{t:?}");
        }
    }

    /// The LLR axis holds the LLR, the bounds and 0, on round ticks, when
    /// the LLR has run past a bound and the bounds are not symmetric (the
    /// middle of the range the old chart labelled was then "0.08").
    #[test]
    fn the_llr_axis_holds_the_walk_and_its_bounds() {
        let bounds = Bounds {
            lower: -2.916,
            upper: 2.93,
            wald_lower: -2.944,
            wald_upper: 2.944,
        };
        let mut trace: Vec<TracePoint> = (1..=40).map(|k| point(k, -10.0, 10.0)).collect();
        for (k, t) in trace.iter_mut().enumerate() {
            t.llr = 0.08 * k as f64;
        }
        let axis = llr_axis(&bounds, &trace);
        assert!(axis.min <= -2.944 && axis.max >= 0.08 * 39.0, "{axis:?}");
        assert_eq!(labels(&axis), ["-4", "-2", "0", "2", "4"]);
    }
}
