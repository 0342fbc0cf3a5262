//! Splitting a campaign into shards (`--shard K/N`), so that a batch
//! scheduler can spread it over machines: program `i` of the campaign (seed
//! `--seed + i`) belongs to shard `K` when `i % N == K - 1`. The shards of one
//! campaign run every seed exactly once between them.

use std::fmt;
use std::str::FromStr;

/// Shard `index` of `count` (1-based: `1/1` is the whole campaign).
///
/// ```
/// let shard: xsmith::Shard = "2/3".parse().unwrap();
/// assert_eq!(shard.programs(10).collect::<Vec<_>>(), [1, 4, 7]);
/// assert_eq!(shard.len(10), 3);
/// assert!("0/3".parse::<xsmith::Shard>().is_err());
/// assert!("4/3".parse::<xsmith::Shard>().is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// Which shard, from 1 to `count`.
    pub index: u64,
    /// How many shards there are.
    pub count: u64,
}

impl Default for Shard {
    fn default() -> Shard {
        Shard { index: 1, count: 1 }
    }
}

impl Shard {
    /// How many of a campaign's `programs` this shard runs.
    ///
    /// ```
    /// let shard = xsmith::Shard { index: 3, count: 3 };
    /// assert_eq!(shard.len(10), 3);
    /// assert_eq!(xsmith::Shard::default().len(10), 10);
    /// ```
    pub fn len(&self, programs: u64) -> u64 {
        match self.index.checked_sub(1) {
            Some(first) if self.is_valid() && first < programs => (programs - first - 1) / self.count + 1,
            _ => 0,
        }
    }

    /// Whether `1 <= index <= count` (what parsing guarantees; an invalid
    /// shard runs nothing, and a campaign refuses it).
    ///
    /// ```
    /// assert!(!xsmith::Shard { index: 0, count: 2 }.is_valid());
    /// ```
    pub fn is_valid(&self) -> bool {
        1 <= self.index && self.index <= self.count
    }

    /// Whether the shard runs no program of a campaign of `programs`.
    ///
    /// ```
    /// assert!(xsmith::Shard { index: 3, count: 3 }.is_empty(2));
    /// ```
    pub fn is_empty(&self, programs: u64) -> bool {
        self.len(programs) == 0
    }

    /// The positions in the campaign (`0..programs`) of the programs this
    /// shard runs, in order; the `j`-th is `index - 1 + j * count`.
    ///
    /// ```
    /// let shard = xsmith::Shard { index: 1, count: 2 };
    /// assert_eq!(shard.programs(5).collect::<Vec<_>>(), [0, 2, 4]);
    /// ```
    pub fn programs(&self, programs: u64) -> impl Iterator<Item = u64> {
        let (first, step) = (self.index.saturating_sub(1), self.count);
        (0..self.len(programs)).map(move |j| first + j * step)
    }
}

impl FromStr for Shard {
    type Err = String;

    fn from_str(text: &str) -> Result<Shard, String> {
        let bad = || format!("`{text}` is not a shard K/N with 1 <= K <= N");
        let (index, count) = text.split_once('/').ok_or_else(bad)?;
        let index: u64 = index.trim().parse().map_err(|_| bad())?;
        let count: u64 = count.trim().parse().map_err(|_| bad())?;
        if index == 0 || index > count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}
