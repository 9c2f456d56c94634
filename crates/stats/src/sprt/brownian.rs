//! Brownian motion with drift between two absorbing barriers: the
//! continuous model of the LLR's walk used to order the outcomes of a
//! sequential test (`SPRT.md`, "Elo estimate after the test").
//!
//! The walk starts at 0 with drift `mu` and variance `var` per block and is
//! absorbed at `a < 0` or `b > 0`. The density of the walk still inside at
//! time `t` comes from the method of images (the driftless strip density,
//! reflected over both barriers, times the Girsanov factor
//! `exp(mu z / var - mu² t / 2var)`); every image term is at most the free
//! Gaussian density, so the sum is computed without overflow. Exit
//! probabilities before `t` follow from the strong Markov property:
//! `P(exit at b by t) = h(0) - ∫ p_t(z) h(z) dz`, with
//! `h(z) = P_z(exit at b)` the classical gambler's-ruin formula.

use std::f64::consts::PI;

/// Simpson intervals for the integrals over the strip.
const INTERVALS: usize = 240;

/// The walk's parameters.
#[derive(Debug, Clone, Copy)]
pub(super) struct Brownian {
    pub a: f64,
    pub b: f64,
    pub mu: f64,
    pub var: f64,
}

/// Where an observed test ended.
#[derive(Debug, Clone, Copy)]
pub(super) enum Observed {
    /// Absorbed at the lower barrier at time `t`.
    Lower { t: f64 },
    /// Absorbed at the upper barrier at time `t`.
    Upper { t: f64 },
    /// Still inside at time `t`, at `y`.
    Inside { t: f64, y: f64 },
}

impl Brownian {
    /// The probability of an outcome worse for NEW than `o`, in the
    /// stagewise ordering: an earlier exit at the lower barrier is worse
    /// than a later one, which is worse than any walk still inside (ordered
    /// by position), which is worse than an exit at the upper barrier, where
    /// later is worse than earlier.
    pub fn p_worse(&self, o: Observed) -> f64 {
        match o {
            Observed::Lower { t } => self.exits_by(t).0,
            Observed::Upper { t } => 1.0 - self.exits_by(t).1,
            Observed::Inside { t, y } => {
                let below = self.integrate(t, self.a, y.min(self.b), |_| 1.0);
                (self.exits_by(t).0 + below).clamp(0.0, 1.0)
            }
        }
    }

    /// `(P(exit at a by t), P(exit at b by t))`.
    fn exits_by(&self, t: f64) -> (f64, f64) {
        if t <= 0.0 {
            return (0.0, 0.0);
        }
        let inside = self.integrate(t, self.a, self.b, |_| 1.0);
        let later_upper = self.integrate(t, self.a, self.b, |z| self.exit_upper_from(z));
        let upper = (self.exit_upper_from(0.0) - later_upper).clamp(0.0, 1.0);
        let lower = (1.0 - inside - upper).clamp(0.0, 1.0);
        (lower, upper)
    }

    /// `h(z)`: the probability that the walk from `z` leaves at `b`.
    fn exit_upper_from(&self, z: f64) -> f64 {
        let w = self.b - self.a;
        let c = -2.0 * self.mu / self.var;
        let h = if (c * w).abs() < 1e-9 {
            (z - self.a) / w
        } else if c < 0.0 {
            (c * (z - self.a)).exp_m1() / (c * w).exp_m1()
        } else {
            (-c * (self.b - z)).exp() * (-c * (z - self.a)).exp_m1() / (-c * w).exp_m1()
        };
        h.clamp(0.0, 1.0)
    }

    /// Density at `z` of the walk not yet absorbed at time `t`.
    fn killed_density(&self, t: f64, z: f64) -> f64 {
        let s2 = self.var * t;
        let w = self.b - self.a;
        let u = self.mu * t;
        // Exponent of each image term, tilt included: always at most that
        // of the free term (k = 0), so nothing overflows.
        let exponent =
            |m: f64| -(z - m) * (z - m) / (2.0 * s2) + (2.0 * u * z - u * u) / (2.0 * s2);
        let free = (-(z - u) * (z - u) / (2.0 * s2)).exp();
        if free == 0.0 {
            return 0.0;
        }
        let k_max = ((6.0 * s2.sqrt() / w).ceil() as i64 + 2).min(200);
        let mut sum = 0.0;
        for k in -k_max..=k_max {
            let shift = 2.0 * k as f64 * w;
            sum += exponent(shift).exp() - exponent(2.0 * self.b + shift).exp();
        }
        // Killing only removes mass: the density lies between 0 and the
        // free one.
        sum.clamp(0.0, free) / (2.0 * PI * s2).sqrt()
    }

    /// `∫ p_t(z) f(z) dz` over `[lo, hi]` by Simpson's rule on the part of
    /// it within 12 standard deviations of the free walk's mean.
    fn integrate(&self, t: f64, lo: f64, hi: f64, f: impl Fn(f64) -> f64) -> f64 {
        let sd = (self.var * t).sqrt();
        let centre = self.mu * t;
        let lo = lo.max(centre - 12.0 * sd).max(self.a);
        let hi = hi.min(centre + 12.0 * sd).min(self.b);
        let usable = hi > lo && sd > 0.0;
        if !usable {
            return 0.0;
        }
        let h = (hi - lo) / INTERVALS as f64;
        let mut sum = 0.0;
        for i in 0..=INTERVALS {
            let z = lo + h * i as f64;
            let weight = if i == 0 || i == INTERVALS {
                1.0
            } else if i % 2 == 1 {
                4.0
            } else {
                2.0
            };
            sum += weight * self.killed_density(t, z) * f(z);
        }
        sum * h / 3.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn walk(mu: f64) -> Brownian {
        Brownian {
            a: -2.944,
            b: 2.944,
            mu,
            var: 0.05,
        }
    }

    #[test]
    fn probabilities_add_up_and_match_gamblers_ruin_in_the_long_run() {
        for mu in [-0.02, -0.001, 0.0, 0.004, 0.03] {
            let w = walk(mu);
            for t in [1.0, 30.0, 300.0, 3000.0] {
                let (lo, up) = w.exits_by(t);
                let inside = w.integrate(t, w.a, w.b, |_| 1.0);
                assert!((lo + up + inside - 1.0).abs() < 1e-6, "{mu} {t}");
            }
            // After a very long time everything has left, in the ruin
            // proportions.
            let (lo, up) = w.exits_by(1e6);
            assert!((up - w.exit_upper_from(0.0)).abs() < 1e-6, "{mu}");
            assert!((lo + up - 1.0).abs() < 1e-6, "{mu}");
        }
        // Without drift, symmetric barriers: half each way.
        assert!((walk(0.0).exit_upper_from(0.0) - 0.5).abs() < 1e-12);
    }

    #[test]
    fn the_density_matches_the_free_gaussian_far_from_the_barriers() {
        let w = Brownian {
            a: -100.0,
            b: 100.0,
            mu: 0.1,
            var: 1.0,
        };
        let t = 4.0;
        let z = 0.7;
        let free = (-(z - 0.4f64).powi(2) / 8.0).exp() / (8.0 * PI).sqrt();
        assert!((w.killed_density(t, z) - free).abs() < 1e-12);
    }

    /// A simulated walk (fine Gaussian steps, seeded) agrees with the
    /// series for the first-exit probabilities by a time.
    #[test]
    fn exit_probabilities_agree_with_a_simulated_walk() {
        use dojo_engine::rng;
        use rand::RngExt;
        let w = walk(0.01);
        let t = 400.0;
        let (lo, up) = w.exits_by(t);
        let mut r = rng::stream(5, 0);
        let steps = 800;
        let dt = t / steps as f64;
        let runs = 1500;
        let (mut n_lo, mut n_up) = (0, 0);
        for _ in 0..runs {
            let mut x = 0.0;
            for _ in 0..steps {
                // Box–Muller.
                let (u1, u2): (f64, f64) = (r.random(), r.random());
                let g = (-2.0 * (1.0 - u1).ln()).sqrt() * (2.0 * PI * u2).cos();
                x += w.mu * dt + (w.var * dt).sqrt() * g;
                if x <= w.a {
                    n_lo += 1;
                    break;
                }
                if x >= w.b {
                    n_up += 1;
                    break;
                }
            }
        }
        let (s_lo, s_up) = (n_lo as f64 / runs as f64, n_up as f64 / runs as f64);
        // Discrete monitoring misses a little of each exit.
        assert!(
            (s_lo - lo).abs() < 0.04 && (s_up - up).abs() < 0.04,
            "{lo} {up} vs {s_lo} {s_up}"
        );
    }
}
