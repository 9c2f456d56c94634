//! Whole percentages that add up to 100, for the head-to-head cells of a
//! league's page.

/// `pcts`, shares in percent that add up to 100, as whole percentages that
/// add up to 100 as well (largest remainder): each share rounded down,
/// and the points this leaves over going one each to the shares with the
/// largest fractions (the earlier share on a tie). Rounding each on its
/// own shows 50.5% and 49.5% as 51% and 50%.
pub fn whole_percentages(pcts: &[f64]) -> Vec<u32> {
    // Shares outside 0 to 100 (or not numbers) cannot come from a tally;
    // they are held to it rather than wrapping around.
    let pcts: Vec<f64> = pcts
        .iter()
        .map(|p| {
            if p.is_finite() {
                p.clamp(0.0, 100.0)
            } else {
                0.0
            }
        })
        .collect();
    let mut whole: Vec<u32> = pcts.iter().map(|p| p.floor() as u32).collect();
    let total: u32 = whole.iter().sum();
    let exact: f64 = pcts.iter().sum();
    // What the exact shares add up to beyond the floors, to the nearest
    // point (100 for shares of a whole, whatever the float noise).
    let left = (exact.round() as u32).saturating_sub(total);
    let fraction = |i: usize| pcts[i] - whole[i] as f64;
    let mut order: Vec<usize> = (0..pcts.len()).collect();
    // Fractions within float noise of each other are a tie (100 - 83.3
    // leaves 0.700000000000003), settled by position.
    order.sort_by(|&i, &j| {
        let d = fraction(j) - fraction(i);
        if d.abs() > 1e-9 {
            d.total_cmp(&0.0)
        } else {
            i.cmp(&j)
        }
    });
    for &i in order.iter().take(left as usize) {
        whole[i] += 1;
    }
    whole
}

/// A pair's shares from `a`'s, `a_pct` percent: `a`'s and `b`'s in whole
/// percent, adding up to 100 ([`whole_percentages`]).
pub fn pair(a_pct: f64) -> [u32; 2] {
    let whole = whole_percentages(&[a_pct, 100.0 - a_pct]);
    [whole[0], whole[1]]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A pair's two head-to-head cells: before, each was rounded on its
    /// own, and 52.5% against 47.5% read 53% and 48%.
    #[test]
    fn a_pairs_shares_add_up_to_100() {
        for (a, want) in [
            (52.5, [53, 47]),
            (22.5, [23, 77]),
            (50.5, [51, 49]),
            (83.3, [83, 17]),
            (16.7, [17, 83]),
            (0.4, [0, 100]),
            (99.5, [100, 0]),
            (50.0, [50, 50]),
            (0.0, [0, 100]),
            (100.0, [100, 0]),
        ] {
            assert_eq!(pair(a), want, "{a}");
        }
    }

    /// Three shares (a win/draw/loss split): the two largest fractions
    /// get the points left over.
    #[test]
    fn three_shares_add_up_to_100() {
        assert_eq!(whole_percentages(&[33.4, 33.3, 33.3]), [34, 33, 33]);
        assert_eq!(whole_percentages(&[12.5, 12.5, 75.0]), [13, 12, 75]);
        assert_eq!(whole_percentages(&[10.6, 40.6, 48.8]), [11, 40, 49]);
    }
}
